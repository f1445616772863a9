import { z } from 'zod';
import { probing, type IntegrationDeps, type ProbeResult } from '../common.js';
import { IntegrationError } from '../errors.js';
import type { MoviePilotTokens } from './client.js';
import { MoviePilotClient, SEARCH_TIMEOUT_MS } from './client.js';
import type {
  Automation,
  AutomationOutcome,
  AutomationRequest,
  TorrentCandidate,
} from './types.js';

/** MoviePilot's media types: the Chinese enum values (an English one gives a 500). */
const MEDIA_TYPE = { movie: '电影', tv: '电视剧' } as const;

// `{success, message, data}` replies; only the fields Usher reads are kept.
const businessReply = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.boolean(), message: z.string().nullish(), data: data.nullish() });
const subscribeReply = businessReply(z.object({ id: z.number().nullish() }));
const downloadReply = businessReply(z.object({ download_id: z.string().nullish() }));
const subscriptionReply = z.object({ id: z.number().nullish() });
const subscriptionList = z.array(z.unknown());
const torrentInfo = z.record(z.string(), z.unknown());
// A failed search ("nothing found") carries `data: {}`, a successful one the list of hits.
const searchReply = z.discriminatedUnion('success', [
  z.object({ success: z.literal(false) }),
  z.object({ success: z.literal(true), data: z.array(z.object({ torrent_info: torrentInfo })) }),
]);

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function toCandidate(info: Record<string, unknown>): TorrentCandidate {
  return {
    title: str(info.title) ?? '',
    site: str(info.site_name) ?? '',
    sizeBytes: count(info.size),
    seeders: count(info.seeders),
    peers: count(info.peers),
    publishedAt: str(info.pubdate),
    volumeFactor: str(info.volume_factor),
    torrentInfo: info,
  };
}

/**
 * MoviePilot v2 (50-integrations.md §4.1): subscriptions, manual search and dispatch, through a
 * dedicated account's JWT. Business refusals come as HTTP 200 with `success:false` → `rejected`.
 */
export class MoviePilotAutomation implements Automation {
  readonly kind = 'moviepilot' as const;
  private readonly client: MoviePilotClient;

  constructor(
    settings: { url: string; username: string; password: string },
    deps: IntegrationDeps = {},
    options: { tokens?: MoviePilotTokens; timeoutMs?: number } = {},
  ) {
    this.client = new MoviePilotClient(settings, deps, options.tokens, options.timeoutMs);
  }

  /** Subscribes to a movie, a series, or one season. An existing subscription is a success. */
  async submit(request: AutomationRequest): Promise<AutomationOutcome> {
    const season = request.type === 'tv' ? (request.season ?? undefined) : undefined;
    const reply = await this.client.call(
      'subscribe',
      // With the trailing slash: without it FastAPI answers 307, and a redirected POST is lost.
      '/api/v1/subscribe/',
      {
        method: 'POST',
        json: {
          name: request.title,
          type: MEDIA_TYPE[request.type],
          tmdbid: request.tmdbId,
          ...(request.year === null ? {} : { year: String(request.year) }),
          ...(season === undefined ? {} : { season }),
        },
      },
      subscribeReply,
    );
    if (!reply.success) throw refused('subscribe', 'the subscription', reply.message);
    return {
      externalId: reply.data?.id ?? null,
      // MoviePilot says so only in words ("订阅已存在").
      alreadyExisted: /已存在|already exists/i.test(reply.message ?? ''),
      message: reply.message ?? 'Subscribed',
    };
  }

  /** The existing subscription's id for a title (and season), or null. */
  async existing(tmdbId: number, season?: number): Promise<number | null> {
    const reply = await this.client.call(
      'subscription',
      `/api/v1/subscribe/media/tmdb:${tmdbId}`,
      { query: { season } },
      subscriptionReply,
    );
    return reply.id ?? null;
  }

  /** Indexer search by free text (60 s). */
  searchByTitle(keyword: string): Promise<TorrentCandidate[]> {
    return this.search('search', '/api/v1/search/title', { keyword, page: 0 });
  }

  /** Indexer search by TMDB id (60 s). */
  searchByMedia(
    tmdbId: number,
    type: 'movie' | 'tv',
    season?: number,
  ): Promise<TorrentCandidate[]> {
    return this.search('search', `/api/v1/search/media/tmdb:${tmdbId}`, {
      mtype: MEDIA_TYPE[type],
      season,
    });
  }

  private async search(
    operation: string,
    path: string,
    query: Record<string, string | number | undefined>,
  ): Promise<TorrentCandidate[]> {
    const reply = await this.client.call(
      operation,
      path,
      { query, timeoutMs: SEARCH_TIMEOUT_MS },
      searchReply,
    );
    // MoviePilot reports "nothing found" (未搜索到任何资源) as success:false: an empty result.
    if (!reply.success) return [];
    return reply.data.map((hit) => toCandidate(hit.torrent_info));
  }

  /** Sends a candidate's `torrent_info` back exactly as it came; returns the download id. */
  async download(info: Record<string, unknown>): Promise<string | null> {
    const reply = await this.client.call(
      'download',
      '/api/v1/download/add',
      { method: 'POST', json: { torrent_in: info, downloader: null, save_path: null } },
      downloadReply,
    );
    if (!reply.success) throw refused('download', 'the download', reply.message);
    return reply.data?.download_id ?? null;
  }

  /** Logs in and reads one authenticated route (the subscription list). */
  probe(): Promise<ProbeResult> {
    return probing(async () => {
      await this.client.login();
      const list = await this.client.call('probe', '/api/v1/subscribe/', {}, subscriptionList);
      return {
        ok: true,
        message: `Logged in to MoviePilot as ${this.client.username}; ${list.length} subscriptions`,
        details: [],
      };
    });
  }
}

function refused(operation: string, what: string, message: string | null | undefined) {
  const reason = (message ?? '').slice(0, 200) || 'no reason given';
  return new IntegrationError(
    'automation',
    operation,
    'rejected',
    `MoviePilot refused ${what}: ${reason}`,
    200,
    reason,
  );
}
