// Single sign-on tests run against a real OpenID Provider (`oidc-provider`, from the testkit)
// laid out like Authentik: a per-application issuer with a trailing slash. The app under test is
// reached without a socket; the provider over HTTP. A tiny browser (testkit `signInAtProvider`)
// fills in the provider's login form and stops at the redirect back to Usher.
import { signInAtProvider, startFakeOidcProvider, type FakeOidcProvider } from '@usher/testkit';
import { ssoExchangeResponseSchema, type SettingValue } from '@usher/contracts';
import { accountsEnv, type AccountsEnv } from '../accounts/support.js';
import type { Flavour } from '../support/flavours.js';

export const WEB = 'http://usher.test';
export const CALLBACK = `${WEB}/api/v1/auth/oidc/callback`;
export const CLIENT_ID = 'usher';
export const CLIENT_SECRET = 'usher-client-secret-0123456789';

export interface SsoEnv extends AccountsEnv {
  idp: FakeOidcProvider;
  /** Writes `sso` settings pointing at the provider, plus the given overrides. */
  configure(values?: Record<string, SettingValue | null>): Promise<void>;
}

export async function ssoEnv(flavour: Flavour): Promise<SsoEnv> {
  const idp = await startFakeOidcProvider({
    issuerPath: '/application/o/usher/',
    clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [CALLBACK] }],
    // Also served outside the issuer, as RFC 8414 places it: an explicit discovery URL.
    extraDiscoveryPaths: ['/.well-known/openid-configuration/application/o/usher'],
  });
  const env = await accountsEnv(flavour, { PUBLIC_WEB_URL: WEB });
  const configure = async (values: Record<string, SettingValue | null> = {}) =>
    env.set('sso', {
      OIDC_ENABLED: true,
      OIDC_ISSUER_URL: idp.issuer,
      OIDC_DISCOVERY_URL: null,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_SCOPES: 'openid profile email groups',
      OIDC_ADMIN_GROUPS: ['usher-admins'],
      OIDC_ALLOW_REGISTRATION: true,
      OIDC_PASSWORD_LOGIN: true,
      OIDC_LINK_BY_VERIFIED_EMAIL: false,
      OIDC_AUTO_REDIRECT: false,
      ...values,
    });
  return {
    ...env,
    idp,
    configure,
    close: async () => {
      await env.close();
      await idp.stop();
    },
  };
}

export interface Started {
  location: string;
  /** `usher_sso=…` as the browser would send it back. */
  cookie: string;
  setCookie: string;
}

/** `GET /auth/oidc/start` as an API client: the redirect and the state cookie. */
export async function start(env: SsoEnv, redirect?: string): Promise<Started> {
  const path = `/api/v1/auth/oidc/start${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`;
  const res = await env.call('GET', path);
  if (res.status !== 302) throw new Error(`start answered ${res.status}: ${await res.text()}`);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return {
    location: res.headers.get('location')!,
    cookie: setCookie.split(';')[0]!,
    setCookie,
  };
}

/** The provider's login, as alice or ada; returns the redirect back to Usher. */
export async function atProvider(env: SsoEnv, location: string, username: string): Promise<string> {
  const user = env.idp.users.find((u) => u.username === username)!;
  const { callbackUrl } = await signInAtProvider(
    location,
    { username, password: user.password },
    CALLBACK,
  );
  return callbackUrl;
}

/** `GET /auth/oidc/callback` with the provider's query and the given cookie. */
export function callback(
  env: SsoEnv,
  callbackUrl: string,
  cookie: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const url = new URL(callbackUrl);
  return env.call('GET', `${url.pathname}${url.search}`, { headers: { cookie, ...headers } });
}

/** The one-time code from a successful callback's redirect. */
export function handoffCode(res: Response): string {
  const location = new URL(res.headers.get('location')!);
  if (location.pathname !== '/login/sso') throw new Error(`unexpected redirect ${location.href}`);
  return location.searchParams.get('code')!;
}

export function exchange(env: SsoEnv, code: string, inviteCode?: string, ip?: string) {
  return env.call('POST', '/api/v1/auth/oidc/exchange', {
    body: { code, ...(inviteCode ? { inviteCode } : {}) },
    ...(ip ? { ip } : {}),
  });
}

/** The whole flow up to the one-time code. */
export async function signInCode(env: SsoEnv, username: string, redirect?: string) {
  const started = await start(env, redirect);
  const res = await callback(
    env,
    await atProvider(env, started.location, username),
    started.cookie,
  );
  if (res.status !== 302) throw new Error(`callback answered ${res.status}: ${await res.text()}`);
  return handoffCode(res);
}

/** The whole flow to a session; the reply is checked against the contract. */
export async function signIn(env: SsoEnv, username: string, inviteCode?: string) {
  const res = await exchange(env, await signInCode(env, username), inviteCode);
  if (res.status !== 200) throw new Error(`exchange answered ${res.status}: ${await res.text()}`);
  return ssoExchangeResponseSchema.parse(await res.json());
}

/** Starts at the provider and comes back through the callback (any outcome). */
export async function roundTrip(env: SsoEnv, username: string): Promise<Response> {
  const started = await start(env);
  return callback(env, await atProvider(env, started.location, username), started.cookie);
}
