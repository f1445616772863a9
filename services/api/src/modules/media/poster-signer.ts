// The poster URL signature (20-api.md, 2026-11-25), apart from posters.ts so the media home
// (which signs the latest items' posters) and the poster proxy both use it without a circle.
import { createHmac, hkdfSync } from 'node:crypto';
import { secretsEqual } from '../../http/guards.js';

/** Signed poster URLs live 24 h, rounded up to the hour so the same URL is reused. */
const POSTER_URL_LIFETIME_S = 24 * 3600;

/** The user a poster URL is signed for, and their session version (`users.token_version`). */
export interface PosterUser {
  id: string;
  tokenVersion: number;
}

/**
 * HKDF(JWT_SECRET, info `usher/poster/v1`): the poster URL key (20-api.md, 2026-11-25). The MAC
 * covers the user's session version, so "sign out everywhere", a password change or a disabled
 * account (each bumps `token_version`) ends their signed URLs at once, as it ends their tokens;
 * the version is not in the URL, the verifier reads the current one.
 */
export class PosterSigner {
  private readonly key: Uint8Array;

  constructor(jwtSecret: string) {
    this.key = new Uint8Array(hkdfSync('sha256', jwtSecret.trim(), '', 'usher/poster/v1', 32));
  }

  private sign(user: PosterUser, itemId: string, exp: number): string {
    return createHmac('sha256', this.key)
      .update(`${user.id}.${user.tokenVersion}.${itemId}.${exp}`)
      .digest('base64url');
  }

  /** `/api/v1/media/posters/<itemId>?exp=&sig=` for this user, valid 24–25 h from `now`. */
  url(user: PosterUser, itemId: string, now: Date): string {
    const exp = Math.ceil((now.getTime() / 1000 + POSTER_URL_LIFETIME_S) / 3600) * 3600;
    const sig = this.sign(user, itemId, exp);
    // `u` names the signing user: the signature covers it, and without it no one could be checked.
    return `/api/v1/media/posters/${encodeURIComponent(itemId)}?u=${user.id}&exp=${exp}&sig=${sig}`;
  }

  /**
   * Whether `sig` is this user's signature for the item at their current session version, and
   * `exp` has not passed.
   */
  verify(user: PosterUser, itemId: string, exp: number, sig: string, now: Date): boolean {
    if (exp * 1000 <= now.getTime()) return false;
    return secretsEqual(sig, this.sign(user, itemId, exp));
  }
}
