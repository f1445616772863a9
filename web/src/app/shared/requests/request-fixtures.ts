import type { AdminMediaRequest, MediaRequest, MetadataResult } from '@usher/contracts';

/**
 * Valid requests and search results (they pass the contract schemas) for the request specs.
 * Not a spec itself, so the i18n source scan sees it; it renders nothing.
 */
export function aRequest(overrides: Partial<MediaRequest> = {}): MediaRequest {
  return {
    id: '01936f6e-8a7b-7c3d-9e4f-00000000000a',
    type: 'TV',
    tmdbId: 1399,
    season: 2,
    name: 'Winter Harbour',
    year: 2019,
    posterPath: '/winter.jpg',
    note: '',
    status: 'PENDING',
    reviewSource: null,
    reviewedAt: null,
    reviewer: null,
    rejectReason: null,
    retryFromId: null,
    ingestProgress: null,
    ingestedAt: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

export function anAdminRequest(overrides: Partial<AdminMediaRequest> = {}): AdminMediaRequest {
  return {
    ...aRequest(),
    requester: { id: '01936f6e-8a7b-7c3d-9e4f-0123456789ab', username: 'alice' },
    automation: { dispatchedAt: null, ref: null, error: null, candidatesSearchedAt: null },
    ...overrides,
  };
}

export function aResult(overrides: Partial<MetadataResult> = {}): MetadataResult {
  return {
    tmdbId: 1399,
    mediaType: 'tv',
    title: 'Winter Harbour',
    originalTitle: 'Winter Harbour',
    year: 2019,
    overview: 'A fishing town keeps a secret.',
    posterPath: '/winter.jpg',
    voteAverage: 7.9,
    ...overrides,
  };
}

export function aPage<T>(data: T[], total = data.length, page = 1, pageSize = 20) {
  return { data, total, page, pageSize };
}
