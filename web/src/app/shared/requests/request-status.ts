import type {
  MediaRequest,
  MetadataResult,
  RequestStatus,
  TitleAvailability,
} from '@usher/contracts';
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

/** What a poster's availability badge says (issues 14, 36, Seerr-like). */
export type Availability = 'inLibrary' | 'requested' | 'approved' | 'missing' | 'rejected';

/** How an availability badge looks: icon + text + tone, like the status chips. */
export const AVAILABILITY_VIEW: Record<Availability, { tone: Tone; icon: string; key: string }> = {
  inLibrary: { tone: 'success', icon: 'check_circle', key: 'availability.inLibrary' },
  requested: { tone: 'warning', icon: 'hourglass_top', key: 'availability.requested' },
  approved: { tone: 'info', icon: 'downloading', key: 'availability.approved' },
  missing: { tone: 'warning', icon: 'incomplete_circle', key: 'availability.missing' },
  rejected: { tone: 'error', icon: 'block', key: 'availability.rejected' },
};

/**
 * A request's availability: PENDING is requested, APPROVED is approved (on its way), INGESTED is
 * in the library — unless its ingest progress counts fewer episodes than the season has, which
 * is "missing". A rejected request says nothing about the title's availability: no badge.
 */
export function requestAvailability(
  request: Pick<MediaRequest, 'status' | 'ingestProgress'>,
): Availability | null {
  switch (request.status) {
    case 'PENDING':
      return 'requested';
    case 'APPROVED':
      return 'approved';
    case 'INGESTED': {
      const progress = request.ingestProgress;
      return progress && progress.have < progress.total ? 'missing' : 'inLibrary';
    }
    default:
      return null;
  }
}

/** The API's search-result availability as a badge; `none` (nobody asked) has no badge. */
const RESULT_AVAILABILITY: Record<TitleAvailability, Availability | null> = {
  in_library: 'inLibrary',
  missing: 'missing',
  approved: 'approved',
  requested: 'requested',
  rejected: 'rejected',
  none: null,
};

/** A title's (or a season's) availability as a badge; `none` has none (issue 36). */
export function titleAvailability(state: TitleAvailability): Availability | null {
  return RESULT_AVAILABILITY[state] ?? null;
}

/**
 * A search result's badge from the availability the API computed from every member's requests
 * (issue 14, docs/requests.md); null when there is none, or when the API sent none (signed out).
 */
export function resultAvailability(
  result: Pick<MetadataResult, 'availability'>,
): Availability | null {
  const state = result.availability?.state;
  return state ? titleAvailability(state) : null;
}

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

/** TMDB backdrop URL (a wide `w780` image), or null without a path. */
export function backdropUrl(
  imageBase: string,
  backdropPath: string | null | undefined,
): string | null {
  return posterUrl(imageBase, backdropPath ?? null, 'w780');
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
