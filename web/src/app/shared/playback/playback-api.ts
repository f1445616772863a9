import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type {
  PlaybackProfile,
  PlaybackProfilesPage,
  PlaybackProfilesQuery,
  PlaybackRange,
  PlaybackRecord,
  PlaybackSummary,
} from '@usher/contracts';
import type { Page } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkPage, checkReply } from '../../core/api/check-reply';
import { abortWith } from '../../core/api/context';
import { filterParams } from '../query-params';

/**
 * The contract's `PLAYBACK_RANGES` and `PROFILE_SORTS`, repeated here because a value import
 * from `@usher/contracts` would bring zod (and its `new Function` probe, which the CSP reports)
 * into the bundle; the checks below keep the lists equal to the contract's types.
 */
export const PLAYBACK_RANGES = ['today', '7d', '30d', '90d', 'all', 'custom'] as const;
export const PROFILE_SORTS = ['duration', 'plays', 'activeDays', 'lastPlayed'] as const;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const sameRanges: Same<(typeof PLAYBACK_RANGES)[number], PlaybackRange> = true;
const sameSorts: Same<(typeof PROFILE_SORTS)[number], PlaybackProfilesQuery['sort']> = true;
void sameRanges;
void sameSorts;

/** A portrait's range: a preset, or `custom` with inclusive days `YYYY-MM-DD`. */
export interface PortraitRange {
  range: PlaybackRange;
  from: string;
  to: string;
}

/** `GET /admin/playback/history` filters; empty strings are left out. */
export interface HistoryQuery {
  username: string;
  keyword: string;
  from: string;
  to: string;
  page: number;
  pageSize: number;
}

/** `GET /admin/playback/profiles`. */
export interface ProfilesQuery {
  range: PlaybackRange;
  from: string;
  to: string;
  keyword: string;
  sort: (typeof PROFILE_SORTS)[number];
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** Playback Reporting reads (20-api.md "Playback, sessions"; docs/media.md). */
@Injectable({ providedIn: 'root' })
export class PlaybackApi {
  private readonly http = inject(HttpClient);

  /** The caller's portrait (`userId` null) or, for an admin, a user's. */
  async portrait(userId: string | null, range: PortraitRange): Promise<PlaybackProfile> {
    const url = userId
      ? `/api/v1/admin/users/${encodeURIComponent(userId)}/playback`
      : '/api/v1/me/playback';
    const query = range.range === 'custom' ? range : { range: range.range, from: '', to: '' };
    const reply = await firstValueFrom(
      this.http.get<PlaybackProfile>(url, { params: filterParams(query) }),
    );
    return checkReply('playbackProfileSchema', reply);
  }

  async history(
    query: HistoryQuery & { userId?: string },
    abort?: AbortSignal,
  ): Promise<Page<PlaybackRecord>> {
    const reply = await firstValueFrom(
      this.http.get<Page<PlaybackRecord>>('/api/v1/admin/playback/history', {
        params: filterParams(query),
        ...abortWith(abort),
      }),
    );
    return checkPage('playbackRecordSchema', reply);
  }

  /** Everyone's plays in inclusive days (default the last 30): the dashboard's charts. */
  async summary(range: { from: string; to: string } = { from: '', to: '' }, abort?: AbortSignal) {
    const reply = await firstValueFrom(
      this.http.get<PlaybackSummary>('/api/v1/admin/playback/summary', {
        params: filterParams(range),
        ...abortWith(abort),
      }),
    );
    return checkReply('playbackSummarySchema', reply);
  }

  async profiles(query: ProfilesQuery, abort?: AbortSignal): Promise<PlaybackProfilesPage> {
    const q = query.range === 'custom' ? query : { ...query, from: '', to: '' };
    const reply = await firstValueFrom(
      this.http.get<PlaybackProfilesPage>('/api/v1/admin/playback/profiles', {
        params: filterParams(q),
        ...abortWith(abort),
      }),
    );
    return checkReply('playbackProfilesPageSchema', reply);
  }
}
