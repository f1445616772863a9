export {
  DEFAULT_OIDC_USERS,
  startFakeOidcProvider,
  type FakeOidcOptions,
  type FakeOidcProvider,
  type IdTokenTamper,
  type OidcClient,
  type OidcUser,
} from './provider.js';
export { CookieJar, signInAtProvider, type ProviderSignIn } from './browser.js';
