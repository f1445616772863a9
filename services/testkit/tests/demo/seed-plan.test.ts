// What the demo seeds into Usher (seed-plan.ts) and how a world user is brought under Usher on
// the media-server fake (adopt.ts), without the API: the end-to-end run is demo-script.test.ts.
import { adoptMediaUser, setAside } from '../../src/demo/adopt.js';
import { loadWorldIntoMediaServer } from '../../src/demo/media.js';
import { planUsherSeed } from '../../src/demo/seed-plan.js';
import { buildDemoWorld } from '../../src/demo/world.js';
import { addUser, createMediaState } from '../../src/media-server/state.js';
import type { Flavour } from '../../src/media-server/types.js';

const NOW = new Date('2025-06-01T20:00:00Z');

describe('demo seed plan', () => {
  const world = buildDemoWorld({ seed: 42, now: NOW });
  const plan = planUsherSeed(world);
  const member = (name: string) => plan.members.find((m) => m.username === name)!;

  it('should plan the same community from the same world', () => {
    expect(JSON.stringify(planUsherSeed(buildDemoWorld({ seed: 42, now: NOW })))).toBe(
      JSON.stringify(plan),
    );
  });

  it('should bring most media users under Usher and leave a few outside', () => {
    const people = world.users.filter((u) => !u.admin).map((u) => u.name);
    expect(plan.unmanaged).toHaveLength(6);
    expect([...plan.members.map((m) => m.username), ...plan.unmanaged].sort()).toEqual(
      people.sort(),
    );
    expect(plan.members.every((m) => m.password === `${m.username}-demo`)).toBe(true);
  });

  it('should give members every standing, expired ones after their last play', () => {
    const standings = new Set(plan.members.map((m) => m.standing));
    expect(standings).toEqual(new Set(['active', 'expiring', 'expired', 'never', 'switched-off']));
    const expired = plan.members.filter((m) => m.standing === 'expired');
    expect(expired.length).toBeGreaterThanOrEqual(3);
    for (const m of expired) {
      const last = Math.max(
        ...world.plays.filter((p) => p.user === m.username).map((p) => p.at.getTime()),
      );
      expect(new Date(m.expiresAt!).getTime()).toBeLessThan(NOW.getTime());
      expect(new Date(m.expiresAt!).getTime()).toBeGreaterThan(last);
    }
    expect(plan.members.filter((m) => m.mediaAccessDisabled)).toHaveLength(1);
  });

  it('should feature an active member with requests in every state and a redemption', () => {
    expect(member(plan.featured).standing).toBe('active');
    const own = plan.requests.filter((r) => r.requester === plan.featured);
    expect(new Set(own.map((r) => r.outcome))).toEqual(
      new Set(['pending', 'approved', 'rejected', 'ingested']),
    );
    expect(plan.redemptions.some((r) => r.username === plan.featured)).toBe(true);
  });

  it('should request only titles that are not on disk, each once, by members who may request', () => {
    const onDisk = new Set([
      ...world.movies.map((m) => m.fixture.id),
      ...world.shows.map((s) => s.fixture.id),
    ]);
    const keys = plan.requests.map((r) => `${r.type}:${r.tmdbId}`);
    expect(plan.requests.length).toBeGreaterThanOrEqual(10);
    expect(new Set(keys).size).toBe(keys.length);
    expect(plan.requests.filter((r) => onDisk.has(r.tmdbId))).toEqual([]);
    const requesters = new Set(plan.requests.map((r) => member(r.requester).standing));
    expect([...requesters].every((s) => s === 'active')).toBe(true);
    expect(new Set(plan.requests.map((r) => r.type))).toEqual(new Set(['MOVIE', 'TV']));
  });

  it('should use no code beyond what it creates, and exhaust one', () => {
    const uses = [...plan.redemptions, ...plan.registrations];
    for (const use of uses) {
      const code = plan.codes.find((c) => c.key === use.code)!;
      expect(use.index).toBeLessThan(code.count);
    }
    const byCode = new Map<string, number>();
    for (const u of uses)
      byCode.set(`${u.code}:${u.index}`, (byCode.get(`${u.code}:${u.index}`) ?? 0) + 1);
    for (const [key, used] of byCode) {
      const code = plan.codes.find((c) => key.startsWith(`${c.key}:`))!;
      expect(used).toBeLessThanOrEqual(code.maxUses);
    }
    expect(byCode.get('welcome-back:0')).toBe(3);
    // Redeeming needs an expiry to extend.
    expect(plan.redemptions.filter((r) => member(r.username).standing === 'never')).toEqual([]);
    const names = new Set(world.users.map((u) => u.name));
    expect(plan.registrations.filter((r) => names.has(r.username))).toEqual([]);
  });
});

describe.each<Flavour>(['jellyfin', 'emby'])('adopting a world user (%s)', (flavour) => {
  it('should move devices, sessions and history onto the account Usher created', () => {
    const world = buildDemoWorld({ seed: 42, now: NOW, movies: 20, shows: 4, users: 8 });
    const state = createMediaState({ flavour, apiKey: 'k', now: () => NOW });
    const loaded = loadWorldIntoMediaServer(state, world);
    const watcher = world.sessions[0]!.user;
    const oldId = loaded.userIds.get(watcher)!;
    const rows = (id: string) =>
      (
        state.playback.db
          .prepare('SELECT COUNT(*) AS n FROM PlaybackActivity WHERE UserId = ?')
          .get(id) as { n: number }
      ).n;
    const devices = (id: string) => [...state.devices.values()].filter((d) => d.userId === id);
    const before = {
      rows: rows(oldId),
      devices: devices(oldId).length,
      resume: new Map(state.users.get(oldId)!.userData),
    };
    const joined = state.users.get(oldId)!.dateCreated;
    expect(before.rows).toBeGreaterThan(0);

    setAside(state, oldId);
    expect([...state.users.values()].some((u) => u.name === watcher)).toBe(false);
    // What Usher's POST /admin/users does on the server: a new user under the freed name.
    const created = addUser(state, { name: watcher, password: `${watcher}-demo` });
    adoptMediaUser(state, oldId, created.id);

    expect(state.users.has(oldId)).toBe(false);
    expect(state.users.get(created.id)).toMatchObject({ name: watcher, dateCreated: joined });
    expect(rows(oldId)).toBe(0);
    expect(rows(created.id)).toBe(before.rows);
    expect(devices(oldId)).toEqual([]);
    expect(devices(created.id)).toHaveLength(before.devices);
    // Issue 36: the resume points ("continue watching") follow the account.
    expect(before.resume.size).toBeGreaterThan(0);
    expect(state.users.get(created.id)!.userData).toEqual(before.resume);
    const sessions = [...state.sessions.values()].filter((s) => s.userId === created.id);
    expect(sessions.length).toBeGreaterThan(0);
    // Every session still points at a device record (Jellyfin's keys name the user).
    expect(sessions.every((s) => state.devices.get(s.deviceKey)?.userId === created.id)).toBe(true);
  });
});
