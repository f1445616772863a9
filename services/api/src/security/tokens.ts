import {
  createHmac,
  createSecretKey,
  hkdfSync,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';
import type { Role } from '@usher/contracts';

export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 3600;
const ISSUER = 'usher';
const AUDIENCE = 'usher-api';

export interface TokenClaims {
  sub: string;
  role: Role;
  ver: number;
}

/** The only header this service signs; a token must carry exactly this algorithm to verify. */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const SEGMENT = /^[A-Za-z0-9_-]+$/;
/** User ids are UUIDs (10-data.md §1); any other `sub` would only reach SQL and fail there. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const decodeJson = (segment: string): unknown => {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
};
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Signs and verifies session JWTs (HS256). The key is derived from JWT_SECRET with HKDF-SHA256,
 * so the raw root secret is never used as a MAC key directly and other keys can be derived from
 * it for other purposes without overlap.
 *
 * HMAC runs synchronously on the calling thread with the derived key kept as a KeyObject: a
 * verification costs a few microseconds, where WebCrypto (jose) re-imported the key and queued
 * the HMAC on libuv's pool behind argon2 hashes during a login storm (issue 21). The format and
 * the rejections are those jose gave: header `{"alg":"HS256","typ":"JWT"}`, claims `role, ver,
 * sub, iss, aud, iat, exp`; a wrong algorithm, a `crit` or `b64` header, a bad signature, a
 * missing or non-numeric `exp`/`iat`, a missing or non-UUID `sub`, a signature in any but its
 * canonical base64url spelling, an expired token, a future `nbf`, another
 * issuer or audience all read as invalid.
 */
export class TokenSigner {
  private readonly key: KeyObject;
  /**
   * Tokens verified lately, with what their verification depends on the clock for: a signed-in
   * client sends the same token with every request, and the HMAC and the two JSON parses were a
   * tenth of an authenticated read's CPU (issue 21). Keyed by the whole token (signature
   * included), so only a byte-identical token hits; `exp` and `nbf` are checked again on every
   * hit, so a hit answers exactly what a fresh verification would. At most
   * `VERIFIED_CACHE_SIZE` entries; the oldest goes first.
   */
  private readonly verified = new Map<string, { claims: TokenClaims; exp: number; nbf?: number }>();
  static readonly VERIFIED_CACHE_SIZE = 1024;

  constructor(jwtSecret: string) {
    // Purpose label of 30-settings.md §7: salt empty, info `usher/jwt/v1`. Kept as a KeyObject:
    // createHmac re-imports a Buffer key on every call, 4–5× the cost of the HMAC itself.
    this.key = createSecretKey(
      Buffer.from(hkdfSync('sha256', jwtSecret.trim(), '', 'usher/jwt/v1', 32)),
    );
  }

  private mac(signingInput: string): Buffer {
    return createHmac('sha256', this.key).update(signingInput).digest();
  }

  async sign(claims: TokenClaims, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + TOKEN_LIFETIME_SECONDS;
    const payload = {
      role: claims.role,
      ver: claims.ver,
      sub: claims.sub,
      iss: ISSUER,
      aud: AUDIENCE,
      iat,
      exp,
    };
    const input = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    const token = `${input}.${this.mac(input).toString('base64url')}`;
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /** A session for an account: its id, role and token version; the expiry as ISO text. */
  async session(
    account: { id: string; role: string; tokenVersion: number },
    now: Date,
  ): Promise<{ token: string; expiresAt: string }> {
    const claims = { sub: account.id, role: account.role as Role, ver: account.tokenVersion };
    const { token, expiresAt } = await this.sign(claims, now);
    return { token, expiresAt: expiresAt.toISOString() };
  }

  /** Returns the claims, or null for any bad signature, expiry, or malformed token. */
  async verify(token: string): Promise<TokenClaims | null> {
    return this.verifySync(token);
  }

  /** How many verified tokens are remembered (at most `VERIFIED_CACHE_SIZE`). */
  get verifiedCount(): number {
    return this.verified.size;
  }

  verifySync(token: string, nowMs = Date.now()): TokenClaims | null {
    const now = Math.floor(nowMs / 1000);
    const seen = this.verified.get(token);
    if (seen) {
      if (seen.exp <= now || (seen.nbf !== undefined && seen.nbf > now)) return null;
      return { ...seen.claims };
    }
    const checked = this.verifyUncached(token, now);
    if (!checked) return null;
    if (this.verified.size >= TokenSigner.VERIFIED_CACHE_SIZE) {
      this.verified.delete(this.verified.keys().next().value!);
    }
    const claims = { sub: checked.sub, role: checked.role, ver: checked.ver };
    this.verified.set(token, { claims, exp: checked.exp, nbf: checked.nbf });
    return { ...claims };
  }

  private verifyUncached(
    token: string,
    now: number,
  ): (TokenClaims & { exp: number; nbf?: number }) | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [h, p, s] = parts as [string, string, string];
    if (!SEGMENT.test(h) || !SEGMENT.test(p) || !SEGMENT.test(s)) return null;
    const header = decodeJson(h);
    if (!isObject(header) || header.alg !== 'HS256' || 'crit' in header || 'b64' in header) {
      return null;
    }
    // Compared as text: decoding first would accept four spellings of each signature (the last
    // character's two unused bits), each a new key of the verified cache and of any denylist.
    const given = Buffer.from(s);
    const expected = Buffer.from(this.mac(`${h}.${p}`).toString('base64url'));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const payload = decodeJson(p);
    if (!isObject(payload)) return null;
    const { sub, role, ver, iss, aud, iat, exp, nbf } = payload;
    // A token without an expiry would stay valid forever (issue 16).
    if (typeof exp !== 'number' || !Number.isFinite(exp) || exp <= now) return null;
    if (typeof iat !== 'number' || !Number.isFinite(iat)) return null;
    if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now)) return null;
    if (iss !== ISSUER) return null;
    if (aud !== AUDIENCE && !(Array.isArray(aud) && aud.includes(AUDIENCE))) return null;
    if (typeof sub !== 'string' || !UUID.test(sub) || (role !== 'admin' && role !== 'user')) {
      return null;
    }
    if (typeof ver !== 'number' || !Number.isInteger(ver)) return null;
    return { sub, role, ver, exp, nbf: nbf as number | undefined };
  }
}
