// The short-lived state of one sign-in (docs/sso.md): `state`, `nonce`, the PKCE verifier, where
// to go afterwards and, when linking, whose account. It travels in one cookie — HttpOnly,
// SameSite=Lax (the provider's redirect back is a top-level GET), scoped to the callback path —
// signed with HMAC-SHA256 under a key derived from JWT_SECRET for this purpose only, so nothing
// is kept on the server between start and callback.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export const STATE_COOKIE = 'usher_sso';
export const STATE_COOKIE_PATH = '/api/v1/auth/oidc';
/** How long a started sign-in may take at the provider. */
export const STATE_TTL_SECONDS = 600;

export interface SsoState {
  /** `state` sent to the provider. */
  state: string;
  nonce: string;
  codeVerifier: string;
  /** The issuer the sign-in started with (a settings change in between voids it). */
  issuer: string;
  /** In-app path to open after signing in. */
  redirect: string | null;
  /** Linking: the account the identity joins, and its token version at the start. */
  linkUserId: string | null;
  linkVersion: number | null;
  /** Expiry, epoch seconds. */
  exp: number;
}

export class StateSealer {
  private readonly key: Buffer;

  constructor(jwtSecret: string) {
    this.key = Buffer.from(
      hkdfSync(
        'sha256',
        Buffer.from(jwtSecret.trim(), 'utf8'),
        Buffer.alloc(0),
        'usher/sso-state/v1',
        32,
      ),
    );
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }

  seal(state: SsoState): string {
    const body = Buffer.from(JSON.stringify(state)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The state, or null when the cookie is missing, altered, or expired. */
  open(cookie: string | undefined, now: Date): SsoState | null {
    if (!cookie) return null;
    const [body, mac, extra] = cookie.split('.');
    if (!body || !mac || extra !== undefined) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let state: SsoState;
    try {
      state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SsoState;
    } catch {
      return null;
    }
    if (typeof state.exp !== 'number' || state.exp * 1000 <= now.getTime()) return null;
    return state;
  }
}

/** The Set-Cookie value for the state (empty value + Max-Age=0 clears it). */
export function stateCookie(value: string, secure: boolean, maxAge = STATE_TTL_SECONDS): string {
  return [
    `${STATE_COOKIE}=${value}`,
    `Path=${STATE_COOKIE_PATH}`,
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
