import { type ErrorHandler, Injectable, inject } from '@angular/core';
import { Notifier } from './notifier';

/** Failures of a lazy chunk import: the deploy replaced the hashed files this tab still knows. */
const CHUNK_FAILURE =
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i;

/**
 * The one global handler (conventions §7): a lazy chunk that vanished after a deploy offers a
 * reload; anything else is logged for the developer console and otherwise left to the page.
 */
@Injectable()
export class AppErrorHandler implements ErrorHandler {
  private readonly notifier = inject(Notifier);
  private offered = false;

  handleError(error: unknown): void {
    const text = error instanceof Error ? error.message : String(error);
    if (CHUNK_FAILURE.test(text)) {
      if (this.offered) return;
      this.offered = true;
      this.notifier.offer('app.newVersion', 'app.reload', () => location.reload());
      return;
    }
    // eslint-disable-next-line no-console -- the browser console is where developers look.
    console.error(error);
  }
}
