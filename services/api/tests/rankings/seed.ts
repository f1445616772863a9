// A playback history around the end of summer time in Europe/Berlin (Sunday 2026-10-25: clocks
// go back at 03:00 CEST, so that day lasts 25 hours) as the fake's Playback Reporting plugin
// stores it: local time of a server in Asia/Shanghai (UTC+8, no DST). The expectations in
// rankings.test.ts are counted by hand from this list.
import type { PlaybackRow } from '@usher/testkit';
import type { Flavour, MediaWorld } from '../media/harness.js';

/** The plugin's text for a UTC instant on a server in Asia/Shanghai (UTC+8 all year). */
export function shanghaiText(utc: string): string {
  const local = new Date(Date.parse(utc) + 8 * 3_600_000).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 19)}.0000000`;
}

export interface Play {
  /** UTC instant of the play. */
  at: string;
  item: 'dune' | 'oppenheimer' | 'madMax' | 'sev1' | 'sev2' | 'bear1' | 'lostEpisode' | 'song';
  seconds: number;
}

/**
 * Berlin local times in the comments. Day 2026-10-25 runs 2026-10-24T22:00Z – 2026-10-25T23:00Z;
 * the week Mon 19 – Sun 25 October runs 2026-10-18T22:00Z – 2026-10-25T23:00Z.
 */
export const PLAYS: Play[] = [
  // Sun 18 Oct 23:30 CEST: the week before.
  { at: '2026-10-18T21:30:00Z', item: 'dune', seconds: 5000 },
  // Mon 19 Oct 00:30 CEST: the first minutes of the week.
  { at: '2026-10-18T22:30:00Z', item: 'oppenheimer', seconds: 4000 },
  // Wed 21 Oct: music counts in the total only.
  { at: '2026-10-21T10:00:00Z', item: 'song', seconds: 300 },
  // Thu 22 Oct: an episode the server no longer has joins its series by name.
  { at: '2026-10-22T20:00:00Z', item: 'lostEpisode', seconds: 600 },
  // Sat 24 Oct 23:30 CEST: in the week, not on Sunday.
  { at: '2026-10-24T21:30:00Z', item: 'madMax', seconds: 3000 },
  // Sun 25 Oct 00:10 CEST: Sunday's first minutes.
  { at: '2026-10-24T22:10:00Z', item: 'sev1', seconds: 1500 },
  // Sun 25 Oct 02:30 CEST, and an hour later 02:30 CET again.
  { at: '2026-10-25T00:30:00Z', item: 'sev2', seconds: 1500 },
  { at: '2026-10-25T01:30:00Z', item: 'bear1', seconds: 1800 },
  // Sun 25 Oct 13:00 / 14:00 / 15:00 CET: three movies with 2000 s each.
  { at: '2026-10-25T12:00:00Z', item: 'madMax', seconds: 2000 },
  { at: '2026-10-25T13:00:00Z', item: 'oppenheimer', seconds: 1000 },
  { at: '2026-10-25T14:00:00Z', item: 'oppenheimer', seconds: 1000 },
  // Sun 25 Oct 23:30 CET: the 25th hour of the day (a 24-hour day would have ended at 22:00Z).
  { at: '2026-10-25T22:30:00Z', item: 'dune', seconds: 2000 },
  // Mon 26 Oct 00:30 CET: the next day and the next week.
  { at: '2026-10-25T23:30:00Z', item: 'oppenheimer', seconds: 9999 },
];

/** Replaces the fake plugin's table with `plays`. */
export function seedPlays(w: MediaWorld, flavour: Flavour, plays: Play[] = PLAYS): void {
  const s = w.fake.seeded!;
  const user = s.users.alice!.id;
  const sev = s.series.severance.episodes;
  const bear = s.series.bear.episodes;
  const items: Record<Play['item'], { id: string; type: string; name: string }> = {
    dune: { id: s.movies.dune.id, type: 'Movie', name: 'Dune: Part Two' },
    oppenheimer: { id: s.movies.oppenheimer.id, type: 'Movie', name: 'Oppenheimer' },
    madMax: { id: s.movies.madMax.id, type: 'Movie', name: 'Mad Max: Fury Road' },
    sev1: { id: sev[0]!.id, type: 'Episode', name: `Severance - s01e01 - ${sev[0]!.name}` },
    sev2: { id: sev[1]!.id, type: 'Episode', name: `Severance - s01e02 - ${sev[1]!.name}` },
    bear1: { id: bear[0]!.id, type: 'Episode', name: `The Bear - s01e01 - ${bear[0]!.name}` },
    lostEpisode: {
      id: flavour === 'emby' ? '987654321' : 'f'.repeat(32),
      type: 'Episode',
      name: 'Severance - s01e09 - The We We Are',
    },
    song: { id: flavour === 'emby' ? '987654322' : 'e'.repeat(32), type: 'Audio', name: 'A song' },
  };
  w.fake.state.playback.clear();
  for (const p of plays) {
    const item = items[p.item];
    const row: PlaybackRow = {
      DateCreated: shanghaiText(p.at),
      UserId: user,
      ItemId: item.id,
      ItemType: item.type,
      ItemName: item.name,
      PlaybackMethod: 'DirectPlay',
      ClientName: 'Infuse',
      DeviceName: 'Apple TV',
      PlayDuration: p.seconds,
      ...(flavour === 'emby' ? { PauseDuration: 0 } : {}),
    };
    w.fake.state.playback.insert(row);
  }
}
