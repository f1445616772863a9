// Public surface of the single sign-on module (docs/sso.md). app.ts, the public site, password
// login and the settings connection test import from here.
export { ssoRoutes, type SsoRouteOptions } from './routes.js';
export {
  CALLBACK_PATH,
  passwordLoginAllowed,
  readSsoSettings,
  type SsoSettings,
} from './settings.js';
export { discover, discoveryUrlOf, SSO_DEADLINE_MS } from './provider.js';
