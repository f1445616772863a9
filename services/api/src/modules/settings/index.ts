// Public surface of the settings module (the admin settings center and the bot's settings).
// Other modules and app.ts import from here, never from the files behind it.
export { settingsRoutes, type SettingsRouteOptions } from './routes.js';
export { internalSettings } from './service.js';
