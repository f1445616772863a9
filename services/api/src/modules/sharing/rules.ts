// The sharing rules (docs/sharing.md), pure: given one member's live streams and what was seen
// in the window, which rules fire and on which sessions. Home (private) streams are never judged;
// a rule fires only while a live stream takes part in it, so an old burst in the window does not
// keep firing after it is over.
import { HOUR_MS } from '../../time/units.js';
import type { SharingRule } from '../../db/schema/index.js';
import { distanceKm } from './network.js';

/** One observation as the rules need it (a row of `sharing_observations`). */
export interface Seen {
  id: string;
  sessionId: string;
  deviceId: string;
  deviceName: string | null;
  client: string | null;
  address: string;
  network: string;
  home: boolean;
  city: string | null;
  country: string | null;
  latitude: number | null;
  longitude: number | null;
  itemName: string | null;
  startedAt: Date;
  lastSeenAt: Date;
  /** Null while the stream is live. */
  endedAt: Date | null;
}

export interface Limits {
  maxStreams: number;
  maxNetworks: number;
  maxDevices: number;
  travelKmh: number;
}

/** What the evidence of an event holds (stored as JSON, shown to admins). */
export interface Evidence {
  limit: number;
  count: number;
  sessions: EvidenceSession[];
  networks: string[];
  devices: { deviceId: string; name: string | null; client: string | null }[];
  places: { city: string | null; country: string | null; latitude: number; longitude: number }[];
  /** Travel only: the two places, the distance and the speed it would take. */
  travel?: { distanceKm: number; hours: number; speedKmh: number };
}

/** A session in a violation's evidence: the observation's facts, its times as ISO text. */
export interface EvidenceSession
  extends Omit<Seen, 'id' | 'home' | 'startedAt' | 'lastSeenAt' | 'endedAt'> {
  startedAt: string;
  lastSeenAt: string;
  live: boolean;
  /** Whether an action is aimed at this session (only live ones are). */
  offending: boolean;
}

export interface Finding {
  rule: SharingRule;
  evidence: Evidence;
  /** Live sessions an action is aimed at. */
  offending: string[];
}

/**
 * Places closer than this are one place: a city database puts one provider's addresses in
 * different districts, and a phone switching to mobile data may land in the next town.
 */
export const SAME_PLACE_KM = 100;
/** The speed shown for streams in two places at once (no time between them). */
export const MAX_SPEED_KMH = 1_000_000;

function sessionOf(s: Seen, offending: Set<string>): EvidenceSession {
  return {
    sessionId: s.sessionId,
    deviceId: s.deviceId,
    deviceName: s.deviceName,
    client: s.client,
    address: s.address,
    network: s.network,
    city: s.city,
    country: s.country,
    latitude: s.latitude,
    longitude: s.longitude,
    itemName: s.itemName,
    startedAt: s.startedAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    live: s.endedAt === null,
    offending: s.endedAt === null && offending.has(s.id),
  };
}

function evidenceOf(shown: Seen[], offending: Set<string>, limit: number, count: number): Evidence {
  const devices = new Map<string, Evidence['devices'][number]>();
  const places = new Map<string, Evidence['places'][number]>();
  for (const s of shown) {
    if (!devices.has(s.deviceId)) {
      devices.set(s.deviceId, { deviceId: s.deviceId, name: s.deviceName, client: s.client });
    }
    if (s.latitude !== null && s.longitude !== null) {
      const key = `${s.city ?? ''}|${s.country ?? ''}`;
      if (!places.has(key)) {
        places.set(key, {
          city: s.city,
          country: s.country,
          latitude: s.latitude,
          longitude: s.longitude,
        });
      }
    }
  }
  return {
    limit,
    count,
    sessions: shown.map((s) => sessionOf(s, offending)),
    networks: [...new Set(shown.map((s) => s.network))],
    devices: [...devices.values()],
    places: [...places.values()],
  };
}

const byStart = (a: Seen, b: Seen) =>
  a.startedAt.getTime() - b.startedAt.getTime() || a.id.localeCompare(b.id);

/** Distinct values in order of first appearance; the items past `limit` are the surplus. */
function surplus(seen: Seen[], key: (s: Seen) => string, limit: number) {
  const order: string[] = [];
  for (const s of seen) if (!order.includes(key(s))) order.push(key(s));
  return { count: order.length, over: new Set(order.slice(limit)) };
}

/**
 * Judges one member. `window` holds every public observation of the window (live ones
 * included); `live` the member's public streams now, one per device.
 */
export function judge(window: Seen[], limits: Limits): Finding[] {
  const seen = window.filter((s) => !s.home).sort(byStart);
  const live = seen.filter((s) => s.endedAt === null);
  if (live.length === 0) return [];
  const findings: Finding[] = [];

  // Streams at once: one per device (a device reconnecting is the same stream).
  const streams = surplus(live, (s) => s.deviceId, limits.maxStreams);
  if (streams.count > limits.maxStreams) {
    const offending = new Set(live.filter((s) => streams.over.has(s.deviceId)).map((s) => s.id));
    findings.push(finding('streams', live, offending, limits.maxStreams, streams.count));
  }

  // Networks and devices in the window: fire while a live stream is on a surplus one.
  const networks = surplus(seen, (s) => s.network, limits.maxNetworks);
  const netOffending = new Set(live.filter((s) => networks.over.has(s.network)).map((s) => s.id));
  if (networks.count > limits.maxNetworks && netOffending.size > 0) {
    findings.push(finding('networks', seen, netOffending, limits.maxNetworks, networks.count));
  }
  const devices = surplus(seen, (s) => s.deviceId, limits.maxDevices);
  const devOffending = new Set(live.filter((s) => devices.over.has(s.deviceId)).map((s) => s.id));
  if (devices.count > limits.maxDevices && devOffending.size > 0) {
    findings.push(finding('devices', seen, devOffending, limits.maxDevices, devices.count));
  }

  const travel = fastestTravel(seen, live);
  if (travel && travel.speedKmh > limits.travelKmh) {
    // Streams at the same time in two places: the speed is unbounded; shown as the cap.
    const speed = Math.round(Math.min(travel.speedKmh, MAX_SPEED_KMH));
    const f = finding(
      'travel',
      [travel.from, travel.to],
      new Set([travel.to.id]),
      limits.travelKmh,
      speed,
    );
    f.evidence.travel = {
      distanceKm: Math.round(travel.distanceKm),
      hours: Math.round(travel.hours * 100) / 100,
      speedKmh: speed,
    };
    findings.push(f);
  }
  return findings;
}

function finding(
  rule: SharingRule,
  shown: Seen[],
  offending: Set<string>,
  limit: number,
  count: number,
): Finding {
  return {
    rule,
    evidence: evidenceOf(shown, offending, limit, count),
    offending: shown
      .filter((s) => s.endedAt === null && offending.has(s.id))
      .map((s) => s.sessionId),
  };
}

/**
 * The fastest move a live stream implies: from any earlier (or concurrent) observation on
 * another network at a place farther than `SAME_PLACE_KM`, over the time between the end of the
 * one and the start of the other. Overlapping streams in two places travel infinitely fast.
 */
function fastestTravel(seen: Seen[], live: Seen[]) {
  let best: { from: Seen; to: Seen; distanceKm: number; hours: number; speedKmh: number } | null =
    null;
  for (const to of live) {
    if (to.latitude === null || to.longitude === null) continue;
    for (const from of seen) {
      // One device cannot be in two places: its "travel" is the database placing a new
      // address (mobile data, a VPN) elsewhere, not sharing.
      if (from === to || from.network === to.network || from.deviceId === to.deviceId) continue;
      if (from.latitude === null || from.longitude === null) continue;
      if (from.startedAt.getTime() > to.startedAt.getTime()) continue;
      const km = distanceKm(
        { latitude: from.latitude, longitude: from.longitude },
        { latitude: to.latitude, longitude: to.longitude },
      );
      if (km < SAME_PLACE_KM) continue;
      const gap = Math.max(0, to.startedAt.getTime() - from.lastSeenAt.getTime());
      const hours = gap / HOUR_MS;
      const speedKmh = hours === 0 ? Number.POSITIVE_INFINITY : km / hours;
      if (!best || speedKmh > best.speedKmh) best = { from, to, distanceKm: km, hours, speedKmh };
    }
  }
  return best;
}
