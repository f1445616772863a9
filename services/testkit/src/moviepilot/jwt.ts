// HS256 JWTs as MoviePilot issues them (PyJWT): `{exp, sub, username, super_user, level}`.
import { createHmac, timingSafeEqual } from 'node:crypto';

const b64 = (value: Buffer | string) => Buffer.from(value).toString('base64url');

export interface MoviePilotClaims {
  exp: number;
  sub: string;
  username: string;
  super_user: boolean;
  level: number;
}

export function signJwt(claims: MoviePilotClaims, secret: string): string {
  const header = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const head = `${header}.${b64(JSON.stringify(claims))}`;
  const signature = createHmac('sha256', secret).update(head).digest();
  return `${head}.${b64(signature)}`;
}

/** Returns the claims of a valid, unexpired token; null for anything PyJWT would reject. */
export function verifyJwt(
  token: string,
  secret: string,
  nowSeconds: number,
): MoviePilotClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const alg = (JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string }).alg;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as MoviePilotClaims;
    if (alg !== 'HS256' || typeof claims.exp !== 'number' || claims.exp <= nowSeconds) return null;
    return claims;
  } catch (_error) {
    // Garbage that happens to carry a valid signature shape is still just an invalid token.
    return null;
  }
}
