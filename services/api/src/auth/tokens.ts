import { hkdfSync } from 'node:crypto';
import type { Role } from '@usher/contracts';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 3600;
const ISSUER = 'usher';
const AUDIENCE = 'usher-api';

export interface TokenClaims {
  sub: string;
  role: Role;
  ver: number;
}

/**
 * Signs and verifies session JWTs (HS256). The key is derived from JWT_SECRET with HKDF-SHA256,
 * so the raw root secret is never used as a MAC key directly and other keys can be derived from
 * it for other purposes without overlap.
 */
export class TokenSigner {
  private readonly key: Uint8Array;

  constructor(jwtSecret: string) {
    // Purpose label of 30-settings.md §7: salt empty, info `usher/jwt/v1`.
    this.key = new Uint8Array(hkdfSync('sha256', jwtSecret.trim(), '', 'usher/jwt/v1', 32));
  }

  async sign(claims: TokenClaims, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + TOKEN_LIFETIME_SECONDS;
    const token = await new SignJWT({ role: claims.role, ver: claims.ver })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /** Returns the claims, or null for any bad signature, expiry, or malformed token. */
  async verify(token: string): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        // A token without an expiry would stay valid forever (issue 16).
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      const { sub, role, ver } = payload;
      if (typeof sub !== 'string' || (role !== 'admin' && role !== 'user')) return null;
      if (typeof ver !== 'number' || !Number.isInteger(ver)) return null;
      return { sub, role, ver };
    } catch (err) {
      // jose signals every verification failure by throwing; anything else is a bug.
      if (err instanceof joseErrors.JOSEError) return null;
      throw err;
    }
  }
}
