// The OpenID provider adapter (docs/sso.md): the `sso` settings group read as one object, and
// discovery, deadlines and failure mapping around openid-client. Below the modules, so sign-in
// by password (auth), registration (accounts) and the sso module can all read it.
export {
  CALLBACK_PATH,
  passwordLoginAllowed,
  readSsoSettings,
  type SsoSettings,
} from './settings.js';
export {
  client,
  discover,
  discoveryUrlOf,
  PROVIDER_TIMEOUT_SECONDS,
  providerFailure,
  SSO_DEADLINE_MS,
  stateInvalid,
  unavailable,
  withinDeadline,
} from './provider.js';
