// Public surface of the single sign-on module (docs/sso.md): its routes. The settings reader and
// the provider adapter live below the modules, in integrations/oidc.
export { ssoRoutes, type SsoRouteOptions } from './routes.js';
