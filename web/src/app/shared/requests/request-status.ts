import type { MediaRequest, RequestStatus } from '@usher/contracts';
import { REQUEST_STATUSES } from '@usher/contracts/values';
import type { Tone } from '../status-chip';

/** How a request status looks (60-web.md §6.6): always icon + text + tone. */
export const REQUEST_STATUS_VIEW: Record<RequestStatus, { tone: Tone; icon: string; key: string }> =
  {
    PENDING: { tone: 'warning', icon: 'hourglass_top', key: 'requests.status.PENDING' },
    APPROVED: { tone: 'info', icon: 'downloading', key: 'requests.status.APPROVED' },
    REJECTED: { tone: 'error', icon: 'block', key: 'requests.status.REJECTED' },
    INGESTED: { tone: 'success', icon: 'check_circle', key: 'requests.status.INGESTED' },
  };

/** Tabs of both request lists, in the spec's order; `''` is "All". */
export const REQUEST_TABS = ['', ...REQUEST_STATUSES] as const;
export type RequestTab = (typeof REQUEST_TABS)[number];

/** A `?status=` value as a tab; anything unknown is "All". */
export function parseRequestTab(value: string | null | undefined): RequestTab {
  const tab = value ?? '';
  return (REQUEST_TABS as readonly string[]).includes(tab) ? (tab as RequestTab) : '';
}

/** TMDB poster URL (60-web.md §8: image base + `/` + size + path), or null without a path. */
export function posterUrl(
  imageBase: string,
  posterPath: string | null,
  size = 'w342',
): string | null {
  if (!posterPath) return null;
  return `${imageBase.replace(/\/+$/, '')}/${size}${posterPath}`;
}

/** "Season N" / "All seasons" / nothing for a movie: the translation key and its parameter. */
export function seasonText(
  request: Pick<MediaRequest, 'type' | 'season'>,
): { key: string; season: number } | null {
  if (request.type !== 'TV') return null;
  return request.season === 0
    ? { key: 'requests.card.allSeasons', season: 0 }
    : { key: 'requests.card.season', season: request.season };
}
