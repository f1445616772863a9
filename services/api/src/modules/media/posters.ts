// Posters (docs/media.md "Posters"): the signed URLs pages put in a plain `<img src>`, who a
// poster request is for (a signed URL or a bearer token), and the image it gets.
import type { PlaybackRecord } from '@usher/contracts';
import type { AuthContext } from '../../http/context.js';
import { bearerAccount } from '../../http/guards.js';
import { AppError } from '../../errors/app-error.js';
import { normaliseId, type ItemImage } from '../../integrations/media-server/index.js';
import type { ModuleContext } from '../context.js';
import { normaliseItemId, serverOrNull, type MediaHomeCache } from './home.js';
import type { PosterSigner, PosterUser } from './poster-signer.js';
import { findUser } from './queries.js';

/**
 * Whether a signed poster URL still holds: signed by `u` at their current session version (a URL
 * signed before "sign out everywhere" or a password change no longer verifies) and not expired.
 */
export async function posterSignatureValid(
  ctx: ModuleContext,
  signer: PosterSigner,
  signed: { u: string; exp: number; sig: string },
  itemId: string,
): Promise<boolean> {
  const row = await findUser(ctx.db, signed.u);
  return row ? signer.verify(row, itemId, signed.exp, signed.sig, ctx.now()) : false;
}

/** The poster user of a signed-in caller. */
export const posterUserOf = (auth: AuthContext): PosterUser => ({
  id: auth.userId,
  tokenVersion: auth.tokenVersion,
});

/** Signs poster item ids for the caller at `now` (the live sessions list). */
export function posterUrlsFor(signer: PosterSigner, auth: AuthContext, now: Date) {
  return (posterItemId: string) => signer.url(posterUserOf(auth), posterItemId, now);
}

/**
 * Plays with their posters signed for the caller (an admin's URL shows any item): an episode's
 * is its show's, and a play whose item has no image (or is gone) has none (docs/media.md).
 */
export async function withPosters<T extends { recent?: PlaybackRecord[]; data?: PlaybackRecord[] }>(
  ctx: ModuleContext,
  home: { cache: MediaHomeCache; signer: PosterSigner },
  reply: T,
  caller: AuthContext,
): Promise<T> {
  const plays = [...(reply.recent ?? []), ...(reply.data ?? [])];
  const server = plays.length > 0 ? await serverOrNull(ctx) : null;
  const posters = server
    ? await home.cache.posterItems(
        ctx,
        server,
        plays.map((r) => r.itemId),
      )
    : new Map<string, string | null>();
  const now = ctx.now();
  const sign = (r: PlaybackRecord): PlaybackRecord => {
    const posterItemId = posters.get(normaliseId(r.itemId));
    return posterItemId
      ? { ...r, posterUrl: home.signer.url(posterUserOf(caller), posterItemId, now) }
      : r;
  };
  return {
    ...reply,
    ...(reply.recent ? { recent: reply.recent.map(sign) } : {}),
    ...(reply.data ? { data: reply.data.map(sign) } : {}),
  };
}

const posterNotFound = () => new AppError('POSTER_NOT_FOUND', 'No poster for this item');

/**
 * `GET /media/posters/:itemId`: a signed URL (`u`, `exp`, `sig`, for `<img src>`) or a bearer
 * token says who asks (the route is `public` because either will do; a bearer token is checked
 * like the `user` guard's, during a forced password change too); then `posterFor`. A broken or
 * partial signature and a request with neither answer the same 404 as a hidden item.
 */
export async function posterForRequest(
  ctx: ModuleContext,
  home: { cache: MediaHomeCache; signer: PosterSigner },
  request: {
    itemId: string;
    width: number;
    signed: { u?: string | undefined; exp?: number | undefined; sig?: string | undefined };
    authorization: string | undefined;
  },
): Promise<ItemImage> {
  const { u, exp, sig } = request.signed;
  let userId: string;
  if (sig !== undefined || exp !== undefined || u !== undefined) {
    if (!u || exp === undefined || !sig) throw posterNotFound();
    if (!(await posterSignatureValid(ctx, home.signer, { u, exp, sig }, request.itemId))) {
      throw posterNotFound();
    }
    userId = u;
  } else if (request.authorization) {
    userId = (await bearerAccount(request.authorization, ctx)).id;
  } else {
    throw posterNotFound();
  }
  return posterFor(ctx, home.cache, userId, request.itemId, request.width);
}

/**
 * The poster for a signed-in or signing user: admins see any item; a member only what their
 * media account may see. Every refusal is the same 404, so nothing is learnt from it.
 */
async function posterFor(
  ctx: ModuleContext,
  cache: MediaHomeCache,
  userId: string,
  itemId: string,
  width: number,
): Promise<ItemImage> {
  const row = await findUser(ctx.db, userId);
  if (!row || !row.isActive) throw posterNotFound();
  const server = await serverOrNull(ctx);
  if (!server) throw posterNotFound();
  const id = normaliseItemId(itemId);
  if (row.role !== 'admin') {
    if (!row.mediaUserId) throw posterNotFound();
    if (!(await cache.canSee(ctx, server, row.mediaUserId, id))) throw posterNotFound();
  }
  const image = await cache.image(ctx, server, id, width);
  if (!image) throw posterNotFound();
  return image;
}
