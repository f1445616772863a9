import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { MediaLatest, MediaServerPublic, MediaStats, SystemInfo } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../../core/api/check-reply';

export type LatestType = 'movie' | 'series';

/** How long a read started at app start stays good for the overview's first render. */
export const EARLY_READ_MS = 30_000;

/** The overview's media reads (20-api.md "Media"; docs/media.md). */
@Injectable({ providedIn: 'root' })
export class MediaHomeApi {
  private readonly http = inject(HttpClient);
  /** "Recently added" reads started at app start (`prefetchLatest`), each used at most once. */
  private readonly early = new Map<LatestType, { reply: Promise<MediaLatest>; at: number }>();

  async server(): Promise<MediaServerPublic> {
    const reply = await firstValueFrom(this.http.get<MediaServerPublic>('/api/v1/media/server'));
    return checkReply('mediaServerPublicSchema', reply);
  }

  async stats(): Promise<MediaStats> {
    const reply = await firstValueFrom(this.http.get<MediaStats>('/api/v1/media/stats'));
    return checkReply('mediaStatsSchema', reply);
  }

  /**
   * Starts both "recently added" reads while the overview's code is still loading (app start on
   * /console/overview, once `/me` accepted the session): the page's largest paint is a poster,
   * which otherwise waited for these one round trip after the page rendered (issue 14,
   * Lighthouse). The overview's first read of each takes it; one later than `EARLY_READ_MS`
   * asks the API again.
   */
  prefetchLatest(): void {
    for (const type of ['movie', 'series'] as const) {
      const reply = this.fetchLatest(type, 20);
      // Its failure is the overview's to show, when it takes the read.
      reply.catch(() => undefined);
      this.early.set(type, { reply, at: Date.now() });
    }
  }

  latest(type: LatestType, limit = 20): Promise<MediaLatest> {
    const early = this.early.get(type);
    this.early.delete(type);
    if (early && limit === 20 && Date.now() - early.at < EARLY_READ_MS) return early.reply;
    return this.fetchLatest(type, limit);
  }

  private async fetchLatest(type: LatestType, limit: number): Promise<MediaLatest> {
    const reply = await firstValueFrom(
      this.http.get<MediaLatest>('/api/v1/media/latest', { params: { type, limit } }),
    );
    return checkReply('mediaLatestSchema', reply);
  }

  /** Admins: which integrations are configured (the setup checklist). */
  async systemInfo(): Promise<SystemInfo> {
    const reply = await firstValueFrom(this.http.get<SystemInfo>('/api/v1/admin/system/info'));
    return checkReply('systemInfoSchema', reply);
  }
}
