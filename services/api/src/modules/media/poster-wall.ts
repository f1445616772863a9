// The poster wall behind sign-in and sign-up (docs/media.md "Poster wall"): a handful of the
// library's posters for anonymous visitors. Only pictures leave: the list names slots, never item
// ids or titles; the choice is remade at most hourly and the bytes come from the poster cache, so
// however many visitors come, the media server sees a few requests an hour.
import { createHash } from 'node:crypto';
import { POSTER_WALL_SIZE, type PosterWall } from '@usher/contracts';
import { AppError } from '../../errors/app-error.js';
import { IntegrationError } from '../../integrations/errors.js';
import type { MediaServer } from '../../integrations/media-server/index.js';
import type { ModuleContext } from '../context.js';
import { serverOrNull, type MediaHomeCache } from './home.js';

const WALL_TTL_MS = 60 * 60_000;
/** After a failed read, the next try waits this long (the wall is decoration, not data). */
const WALL_RETRY_MS = 5 * 60_000;
/**
 * Tiles are dimmed behind a scrim, so small, low-quality JPEGs do: about 2 KB each, which keeps
 * the whole wall inside the first visit's budget (docs/web-performance.md).
 */
export const POSTER_WALL_WIDTH = 96;
export const POSTER_WALL_QUALITY = 50;
/** Items read to choose from. */
const CANDIDATES = 400;

const noTile = () => new AppError('POSTER_NOT_FOUND', 'No poster in this slot');

export class PosterWallCache {
  private wall?: { server: MediaServer; itemIds: string[]; until: number };
  private inFlight?: Promise<string[]>;

  constructor(private readonly images: MediaHomeCache) {}

  /** The chosen poster item ids: movies and shows with their own Primary image. */
  private async itemIds(ctx: ModuleContext): Promise<string[]> {
    const server = await serverOrNull(ctx);
    if (!server) return [];
    const now = ctx.now().getTime();
    if (this.wall && this.wall.server === server && this.wall.until > now) return this.wall.itemIds;
    this.inFlight ??= this.choose(server, now).finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async choose(server: MediaServer, now: number): Promise<string[]> {
    let itemIds: string[] = [];
    let ttl = WALL_TTL_MS;
    try {
      const { items } = await server.items({ types: ['Movie', 'Series'], limit: CANDIDATES });
      // A stable order that is not the library's own (which often groups by title).
      const hash = (id: string) => createHash('sha1').update(id).digest('hex');
      // One poster per franchise: "Harbor Lights 2" and "Harbor Lights 3" look alike on a wall.
      const seen = new Set<string>();
      itemIds = items
        .filter((i) => i.posterItemId === i.id)
        .sort((a, b) => hash(a.id).localeCompare(hash(b.id)))
        .filter((i) => {
          const family = i.name.toLowerCase().replace(/[\s\d:.-]+$/, '');
          if (seen.has(family)) return false;
          seen.add(family);
          return true;
        })
        .map((i) => i.id)
        .slice(0, POSTER_WALL_SIZE);
    } catch (err) {
      if (!(err instanceof IntegrationError)) throw err;
      ttl = WALL_RETRY_MS;
    }
    this.wall = { server, itemIds, until: now + ttl };
    return itemIds;
  }

  /** `/public/poster-wall`: one URL per slot, versioned by the slot's poster. */
  async list(ctx: ModuleContext): Promise<PosterWall> {
    const ids = await this.itemIds(ctx);
    return {
      posters: ids.map((id, slot) => {
        const v = createHash('sha256').update(`usher/poster-wall/${id}`).digest('hex').slice(0, 8);
        return `/api/v1/public/poster-wall/${slot}?v=${v}`;
      }),
    };
  }

  /** `/public/poster-wall/:slot`: the slot's poster, small. */
  async tile(ctx: ModuleContext, slot: number) {
    const id = (await this.itemIds(ctx))[slot];
    const server = id === undefined ? null : await serverOrNull(ctx);
    if (id === undefined || !server) throw noTile();
    const image = await this.images.image(ctx, server, id, POSTER_WALL_WIDTH, POSTER_WALL_QUALITY);
    if (!image) throw noTile();
    return image;
  }
}
