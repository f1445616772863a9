import type { PlaybackSummary } from '@usher/contracts';

const bucket = { count: 0, durationSeconds: 0 };
/** Everyone's plays of 30 days (`GET /admin/playback/summary`), as the API sends them. */
export function aSummary(overrides: Partial<PlaybackSummary> = {}): PlaybackSummary {
  return {
    range: { from: '2026-10-27T00:00:00.000Z', to: '2026-11-26T00:00:00.000Z' },
    timeZone: 'UTC',
    totals: { playCount: 1234, durationSeconds: 36_000 },
    byDay: Array.from({ length: 30 }, (_, i) => ({
      day: `2026-11-${String((i % 28) + 1).padStart(2, '0')}`,
      count: i,
      durationSeconds: i * 60,
    })),
    byHour: Array.from({ length: 24 }, () => bucket),
    playMethods: { directPlay: 3, directStream: 1, transcode: 2 },
    clients: [],
    topTitles: [
      {
        kind: 'series',
        itemKey: 'series-1',
        name: 'The Bear',
        playCount: 12,
        durationSeconds: 18_000,
        posterUrl: '/api/v1/media/posters/series-1?u=a&exp=1&sig=s',
      },
      { kind: 'movie', itemKey: 'movie-1', name: 'Dune', playCount: 3, durationSeconds: 9000 },
    ],
    ...overrides,
  };
}
