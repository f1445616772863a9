import { bootstrapApplication } from '@angular/platform-browser';
import { App } from './app/app';
import { appConfig } from './app/app.config';

bootstrapApplication(App, appConfig).catch((error: unknown) => {
  // Nothing rendered, so the console is the only place left to report it.
  // eslint-disable-next-line no-console
  console.error(error);
});
