// What the demo puts into Usher's own database, decided from the world alone (deterministic per
// seed): which media users Usher manages and how their memberships stand, the redeem codes and
// who used them, two sign-ups with invite codes, and media requests in every state. seed-usher.ts
// carries the plan out through the API's routes.
import type { TvFixture } from '../tmdb/fixtures.js';
import { DAY } from './library.js';
import type { WorldUser } from './people.js';
import { createRng } from './prng.js';
import type { Rng } from './prng.js';
import type { DemoWorld } from './world.js';

/** Telegram accounts of the demo's people (private chats with the bot have the same ids). */
export const DEMO_ADMIN_TELEGRAM_ID = 600000001;
export const DEMO_MEMBER_TELEGRAM_ID = 600000002;

/** Media users left alone: accounts an operator has not brought under Usher yet. */
const UNMANAGED = 6;
/** Members whose time has run out, so the expired filters and renewals have someone to show. */
const MIN_EXPIRED = 3;

export interface MemberPlan {
  username: string;
  /** The world's `<name>-demo`, so the media server and Usher take the same password. */
  password: string;
  email: string;
  /** ISO instant; absent for a membership that never expires. */
  expiresAt?: string;
  mediaAccessDisabled: boolean;
  standing: 'active' | 'expiring' | 'expired' | 'never' | 'switched-off';
}

export type CodeKey = 'invites' | 'raffle' | 'gift' | 'welcome-back';

export interface CodePlan {
  key: CodeKey;
  count: number;
  days: number;
  maxUses: number;
  /** Days from now until the code itself expires; absent = never. */
  validForDays?: number;
  notes: string;
}

/** `index` picks one code of a batch. */
export interface CodeUse {
  username: string;
  code: CodeKey;
  index: number;
}

export interface RegistrationPlan extends CodeUse {
  password: string;
  email: string;
}

export type RequestOutcome = 'pending' | 'approved' | 'rejected' | 'resubmitted' | 'ingested';

export interface RequestPlan {
  requester: string;
  type: 'MOVIE' | 'TV';
  tmdbId: number;
  /** 0 for movies and whole series. */
  season: number;
  name: string;
  year: number | null;
  posterPath: string | null;
  note?: string;
  outcome: RequestOutcome;
  /** Reject reason (rejected and resubmitted), then the member's resubmit note. */
  reason?: string;
  resubmitNote?: string;
}

export interface UsherSeedPlan {
  members: MemberPlan[];
  /** The member whose sign-in the demo prints: linked to Telegram, with requests of every kind. */
  featured: string;
  /** Media users that stay outside Usher. */
  unmanaged: string[];
  codes: CodePlan[];
  redemptions: CodeUse[];
  registrations: RegistrationPlan[];
  requests: RequestPlan[];
}

const iso = (ms: number) => new Date(ms).toISOString();

interface Draws {
  kind: number;
  /** Days left for a membership paid well ahead, and for one about to run out. */
  days: number;
  soonDays: number;
}

function membership(user: WorldUser, now: number, draws: Draws) {
  const base = { username: user.name, password: user.password, email: `${user.name}@example.com` };
  if (user.activeUntil.getTime() < now) {
    // Drifted away: the membership ran out around the time they stopped watching.
    return {
      ...base,
      expiresAt: iso(user.activeUntil.getTime()),
      mediaAccessDisabled: false,
      standing: 'expired' as const,
    };
  }
  const recent = now - user.joinedAt.getTime() < 75 * DAY;
  if (!recent && draws.kind < 0.08) {
    return { ...base, mediaAccessDisabled: false, standing: 'never' as const };
  }
  const soon = recent || draws.kind < 0.25;
  return {
    ...base,
    // Newcomers are on a short first period; a quarter of the others renew within the week.
    expiresAt: iso(now + (soon ? draws.soonDays : draws.days) * DAY + 3_600_000),
    mediaAccessDisabled: false,
    standing: soon ? ('expiring' as const) : ('active' as const),
  };
}

/**
 * Lets `count` more memberships run out: those who have not watched for the longest (and are not
 * watching now), expired a few hours after their last play, so the server's history agrees.
 */
function lapse(world: DemoWorld, users: WorldUser[], members: MemberPlan[], count: number) {
  if (count <= 0) return;
  const now = world.now.getTime();
  const lastPlay = new Map<string, number>();
  for (const p of world.plays) lastPlay.set(p.user, p.at.getTime() + p.durationSec * 1000);
  const watching = new Set(world.sessions.map((s) => s.user));
  const quiet = users
    .filter((u) => !watching.has(u.name) && u.activeUntil.getTime() >= now)
    .map((u) => ({ u, last: lastPlay.get(u.name) ?? now - 90 * DAY }))
    // Quiet since at least half a day, so the expiry (6 h after the last play) is already past.
    .filter(({ last }) => last < now - 12 * 3_600_000)
    .sort((a, b) => a.last - b.last)
    .slice(0, count);
  for (const { u, last } of quiet) {
    const m = members.find((x) => x.username === u.name)!;
    m.expiresAt = iso(last + 6 * 3_600_000);
    m.standing = 'expired';
  }
}

function movieTitle(m: DemoWorld['tmdb']['movies'][number]) {
  return {
    type: 'MOVIE' as const,
    tmdbId: m.id,
    season: 0,
    name: m.translations['en-US']?.title ?? m.original_title,
    year: m.release_date ? Number(m.release_date.slice(0, 4)) : null,
    posterPath: m.poster_path,
  };
}

function showTitle(s: TvFixture, season: number) {
  return {
    type: 'TV' as const,
    tmdbId: s.id,
    season,
    name: s.translations['en-US']?.title ?? s.original_name,
    year: s.first_air_date ? Number(s.first_air_date.slice(0, 4)) : null,
    posterPath: s.poster_path,
  };
}

export function planUsherSeed(world: DemoWorld): UsherSeedPlan {
  // Its own stream: the plan's draws never shift the world's.
  const rng = createRng(world.seed).fork('usher-seed');
  const now = world.now.getTime();
  const people = world.users.filter((u) => !u.admin);
  const churned = (u: WorldUser) => u.activeUntil.getTime() < now;
  // Whoever drifted away is a member whose time ran out; the outsiders are current viewers.
  const outside = new Set(people.filter((u) => !churned(u)).slice(-UNMANAGED));
  const managed = people.filter((u) => !outside.has(u));
  const unmanaged = [...outside].map((u) => u.name);

  const members: MemberPlan[] = managed.map((u) =>
    membership(u, now, { kind: rng.next(), days: rng.int(20, 330), soonDays: rng.int(1, 9) }),
  );
  lapse(world, managed, members, MIN_EXPIRED - managed.filter(churned).length);
  const renewable = members.filter((m) => m.standing === 'active');
  const featured = renewable[0] ?? members[0];
  if (!featured) throw new Error('the demo world has no media users to bring under Usher');
  // One member an admin switched off by hand (a shared account, say), still paid up.
  const switchedOff = renewable[renewable.length - 1];
  if (switchedOff && switchedOff !== featured) {
    switchedOff.mediaAccessDisabled = true;
    switchedOff.standing = 'switched-off';
  }

  const codes: CodePlan[] = [
    { key: 'invites', count: 6, days: 30, maxUses: 1, notes: 'Invites for new members' },
    {
      key: 'raffle',
      count: 1,
      days: 90,
      maxUses: 5,
      validForDays: 14,
      notes: 'Movie-night raffle prizes',
    },
    { key: 'gift', count: 1, days: 365, maxUses: 1, notes: 'A year as a birthday gift' },
    { key: 'welcome-back', count: 1, days: 7, maxUses: 3, notes: 'Welcome-back week' },
  ];
  const canRenew = (m: MemberPlan) => m.standing === 'active' || m.standing === 'expiring';
  const others = members.filter((m) => m !== featured && canRenew(m));
  const expired = members.find((m) => m.standing === 'expired');
  const redemptions: CodeUse[] = [
    { username: featured.username, code: 'raffle', index: 0 },
    // Used up: three members took the welcome-back week.
    ...others
      .slice(0, 3)
      .map((m) => ({ username: m.username, code: 'welcome-back' as const, index: 0 })),
    ...others
      .slice(3, 4)
      .map((m) => ({ username: m.username, code: 'invites' as const, index: 0 })),
    // A member who had drifted away comes back with an invite: renewed, media access back on.
    ...(expired ? [{ username: expired.username, code: 'invites' as const, index: 3 }] : []),
  ];

  const taken = new Set(world.users.map((u) => u.name));
  const registrations: RegistrationPlan[] = ['quinn', 'wren']
    .filter((name) => !taken.has(name))
    .map((name, i) => ({
      username: name,
      password: `${name}-demo`,
      email: `${name}@example.com`,
      code: 'invites' as const,
      index: i + 1,
    }));

  return {
    members,
    featured: featured.username,
    unmanaged,
    codes,
    redemptions,
    registrations,
    requests: planRequests(world, rng, [
      featured.username,
      ...others.filter((m) => m.standing === 'active').map((m) => m.username),
    ]),
  };
}

const REJECT_REASONS = [
  'Only a cam release exists so far; ask again once it is out on disc.',
  'We keep one copy per title and this one is already being re-encoded.',
  'Too large for the library disk this month, sorry.',
];

/** Twelve requests by a handful of active members, in every state of 10-data.md §10. */
function planRequests(world: DemoWorld, rng: Rng, requesters: string[]): RequestPlan[] {
  if (requesters.length === 0) return [];
  const onDisk = new Set(world.movies.map((m) => m.fixture.id));
  const showsOnDisk = new Set(world.shows.map((s) => s.fixture.id));
  const released = (d: string) => d !== '' && d <= world.today;
  const movies = rng.sample(
    world.tmdb.movies.filter((m) => !onDisk.has(m.id) && released(m.release_date)),
    9,
  );
  const shows = world.tmdb.tv.filter(
    (s) => !showsOnDisk.has(s.id) && s.seasons.some((x) => x.season_number > 0),
  );
  const picked = rng.sample(shows, 3);
  const by = (i: number) => requesters[i % requesters.length]!;
  const movie = (i: number) => (movies[i] ? movieTitle(movies[i]) : undefined);
  const show = (i: number, wholeSeries: boolean) => {
    const s = picked[i];
    if (!s) return undefined;
    const seasons = s.seasons.filter((x) => x.season_number > 0);
    return showTitle(s, wholeSeries ? 0 : seasons[seasons.length - 1]!.season_number);
  };
  const plans: (RequestPlan | undefined)[] = [
    pack(by(0), movie(0), 'pending', { note: 'Saw the trailer at the cinema, looks great.' }),
    pack(by(0), show(0, false), 'approved'),
    pack(by(0), movie(1), 'rejected', { reason: REJECT_REASONS[0] }),
    pack(by(0), movie(2), 'ingested'),
    pack(by(1), movie(3), 'pending'),
    pack(by(1), show(1, false), 'pending', { note: 'The new season, please!' }),
    pack(by(2), movie(4), 'approved'),
    pack(by(2), movie(5), 'resubmitted', {
      reason: REJECT_REASONS[1],
      resubmitNote: 'The re-encode is done now, could we get it after all?',
    }),
    pack(by(3), movie(6), 'ingested'),
    pack(by(3), show(2, true), 'pending'),
    pack(by(4), movie(7), 'approved'),
    pack(by(4), movie(8), 'rejected', { reason: REJECT_REASONS[2] }),
  ];
  return plans.filter((p): p is RequestPlan => p !== undefined);
}

function pack(
  requester: string,
  title: ReturnType<typeof movieTitle> | ReturnType<typeof showTitle> | undefined,
  outcome: RequestOutcome,
  extra: Pick<RequestPlan, 'note' | 'reason' | 'resubmitNote'> = {},
): RequestPlan | undefined {
  return title ? { requester, ...title, outcome, ...extra } : undefined;
}
