// Public surface of the accounts module (member self-service: registration, recovery, profile,
// messenger binding). Other modules and app.ts import from here, never from the files behind it.
export { mediaServerAcceptsPassword } from './login-fallback.js';
export { applyNewPassword, type PasswordWrite } from './passwords.js';
export { accountRoutes } from './routes.js';
export { registerWithIdentity, type NewIdentity } from './register.js';
export { createAccountLimiters } from './limits.js';
export { assertDomainAllowed, readRegistrationSettings } from './settings.js';
