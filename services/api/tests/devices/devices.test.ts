// Devices and the client blacklist against the fake's seeded devices: alice's browser and Kodi,
// bob's Apple TV and iPhone (both Infuse), the admin's phone.
import {
  blacklistCreatedSchema,
  blacklistListSchema,
  deviceActionListSchema,
  deviceListSchema,
  deviceStatsSchema,
  jobRunSchema,
  logoutOutcomeSchema,
} from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { auditLog } from '../../src/db/schema/index.js';
import { ENFORCE_JOB } from '../../src/modules/devices/index.js';
import { errorOf, startMediaWorld, type MediaWorld } from '../media/harness.js';
import { domainFlavours } from '../support/flavours.js';

const clientsOnFake = (w: MediaWorld) =>
  [...w.fake.state.devices.values()].map((d) => `${d.deviceId}:${d.appName}`).sort();

/** Signs a user in on the fake the way a client app does, which registers a device. */
async function signIn(w: MediaWorld, flavour: string, client: string, deviceId: string) {
  const base = flavour === 'emby' ? `${w.fake.url}/emby` : w.fake.url;
  const auth = `MediaBrowser Client="${client}", Device="iPad", DeviceId="${deviceId}", Version="7.0"`;
  const res = await fetch(`${base}/Users/AuthenticateByName`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: auth,
      ...(flavour === 'emby'
        ? { 'x-emby-authorization': auth.replace('MediaBrowser', 'Emby') }
        : {}),
    },
    body: JSON.stringify({ Username: 'alice', Pw: 'alice-pass' }),
  });
  expect(res.status).toBe(200);
}

// One flavour (support/flavours.ts): Jellyfin, whose sign-out key is the DeviceId (long base64 ones
// included).
describe.each(domainFlavours('jellyfin'))('devices on %s', (flavour) => {
  let w: MediaWorld;
  const now = new Date('2026-11-20T12:00:00.000Z');
  beforeEach(async () => {
    w = await startMediaWorld(flavour, { now });
  });
  afterEach(async () => w.close());

  const post = (path: string, body?: unknown) =>
    w.t.call('post', path, { token: w.adminToken, ...(body === undefined ? {} : { body }) });

  it('should list devices joined to members, filter them and count them', async () => {
    const bob = await w.member('bob');
    const all = deviceListSchema.parse(
      await (await w.get('/api/v1/admin/devices', w.adminToken)).json(),
    );
    expect(all.total).toBe(5);
    // Newest activity first: bob's Apple TV (1 min), alice's browser (2), the phone (5)…
    expect(all.data.map((d) => d.deviceId)).toEqual([
      'bob-appletv',
      'alice-firefox',
      'admin-pixel',
      'alice-kodi',
      'bob-iphone',
    ]);
    const tv = all.data[0]!;
    expect(tv.lastUser).toEqual({
      mediaUserId: w.fake.seeded!.users.bob!.id,
      name: 'bob',
      userId: bob.id,
      username: 'bob',
    });
    expect(tv.blacklisted).toBe(false);
    // Jellyfin's /Devices has no address: the IP comes from the device's session (issue 36).
    expect(tv.ip).toMatch(/^192\.168\.1\.\d+$/);
    expect(all.data.find((d) => d.deviceId === 'alice-firefox')!.ip).toMatch(/^192\.168\.1\./);
    const ofBob = deviceListSchema.parse(
      await (await w.get(`/api/v1/admin/devices?userId=${bob.id}`, w.adminToken)).json(),
    );
    expect(ofBob.data.map((d) => d.deviceId).sort()).toEqual(['bob-appletv', 'bob-iphone']);
    const infuse = deviceListSchema.parse(
      await (await w.get('/api/v1/admin/devices?client=%20infuse&pageSize=1', w.adminToken)).json(),
    );
    expect(infuse.total).toBe(2);
    expect(infuse.data).toHaveLength(1);

    const stats = deviceStatsSchema.parse(
      await (await w.get('/api/v1/admin/devices/stats', w.adminToken)).json(),
    );
    expect(stats.total).toBe(5);
    // bob's iPhone was last used 3 days ago.
    expect(stats.activeLast24h).toBe(4);
    expect(stats.byClient[0]).toEqual({ client: 'Infuse', count: 2 });
    expect(stats.byClient.reduce((n, c) => n + c.count, 0)).toBe(5);
    expect(stats.topUsers.slice(0, 2).map((u) => [u.name, u.count])).toEqual([
      ['alice', 2],
      ['bob', 2],
    ]);
    expect(stats.topUsers.find((u) => u.name === 'bob')!.userId).toBe(bob.id);
    expect(stats.blacklistEntries).toBe(0);
  });

  it('should log out exactly the devices of a blacklisted client, and log and audit it', async () => {
    const before = clientsOnFake(w);
    const res = await post('/api/v1/admin/devices/blacklist', {
      clientName: '  INFUSE ',
      reason: 'shared accounts',
    });
    expect(res.status).toBe(201);
    const created = blacklistCreatedSchema.parse(await res.json());
    expect(created).toMatchObject({ loggedOut: 2, failed: 0 });
    expect(created.entry).toMatchObject({ clientName: 'INFUSE', reason: 'shared accounts' });
    expect(created.entry.createdBy?.id).toBe(w.admin.id);
    expect(clientsOnFake(w)).toEqual(before.filter((d) => !d.endsWith(':Infuse')));

    // Same name with other case or spacing: 409, nothing written.
    const again = await post('/api/v1/admin/devices/blacklist', { clientName: 'infuse' });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).code).toBe('BLACKLIST_ENTRY_EXISTS');

    const actions = deviceActionListSchema.parse(
      await (await w.get('/api/v1/admin/devices/actions', w.adminToken)).json(),
    );
    expect(
      actions.data.map((a) => [a.action, a.deviceId === null ? null : 'device', a.outcome]).sort(),
    ).toEqual([
      ['blacklist_add', null, 'ok'],
      ['enforce_blacklist', 'device', 'ok'],
      ['enforce_blacklist', 'device', 'ok'],
    ]);
    expect(actions.data.every((a) => a.actor?.id === w.admin.id)).toBe(true);
    const audits = await w.t.context.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'device.blacklist_add'));
    expect(audits).toHaveLength(1);

    // Remove: 204, audited; twice: 404.
    const del = await w.t.call('delete', `/api/v1/admin/devices/blacklist/${created.entry.id}`, {
      token: w.adminToken,
    });
    expect(del.status).toBe(204);
    const del2 = await w.t.call('delete', `/api/v1/admin/devices/blacklist/${created.entry.id}`, {
      token: w.adminToken,
    });
    expect((await errorOf(del2)).code).toBe('BLACKLIST_ENTRY_NOT_FOUND');
  });

  it('should catch a device that signs in after the entry, in the scheduled job', async () => {
    await post('/api/v1/admin/devices/blacklist', { clientName: 'Infuse', logoutNow: false });
    expect(clientsOnFake(w).filter((d) => d.endsWith(':Infuse'))).toHaveLength(2);
    await signIn(w, flavour, 'Infuse', 'alice-ipad');
    expect(clientsOnFake(w)).toContain('alice-ipad:Infuse');
    const { done, runId } = await w.t.context.scheduler.runNow(ENFORCE_JOB);
    expect(await done).toBe('succeeded');
    expect(clientsOnFake(w).filter((d) => d.endsWith(':Infuse'))).toEqual([]);
    expect(clientsOnFake(w)).toHaveLength(3);
    const run = jobRunSchema.parse(
      await (await w.get(`/api/v1/admin/job-runs/${runId}`, w.adminToken)).json(),
    );
    expect(run.summary).toMatchObject({ loggedOut: 3, failed: 0, entries: 1 });
    const actions = deviceActionListSchema.parse(
      await (await w.get('/api/v1/admin/devices/actions?pageSize=100', w.adminToken)).json(),
    );
    const swept = actions.data.filter((a) => a.action === 'enforce_blacklist');
    expect(swept).toHaveLength(3);
    // The job acts as no one, and its sweep is audited under its name.
    expect(swept.every((a) => a.actor === null)).toBe(true);
    const [audit] = await w.t.context.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'device.blacklist_enforce'));
    expect(audit).toMatchObject({
      actorType: 'system',
      actorLabel: `job:${ENFORCE_JOB}`,
      details: { loggedOut: 3, failed: 0 },
    });
  });

  it('should report a media-server failure mid-way truthfully', async () => {
    await post('/api/v1/admin/devices/blacklist', { clientName: 'Infuse', logoutNow: false });
    // The first sign-out is refused with a 500; the second goes through.
    w.fake.fail(500, '/Devices', { method: 'DELETE', times: 1 });
    const res = await post('/api/v1/admin/devices/blacklist/logout');
    expect(res.status).toBe(200);
    expect(logoutOutcomeSchema.parse(await res.json())).toEqual({ loggedOut: 1, failed: 1 });
    expect(clientsOnFake(w).filter((d) => d.endsWith(':Infuse'))).toHaveLength(1);
    const actions = deviceActionListSchema.parse(
      await (await w.get('/api/v1/admin/devices/actions', w.adminToken)).json(),
    );
    const outcomes = actions.data
      .filter((a) => a.action === 'enforce_blacklist')
      .map((a) => a.outcome);
    expect(outcomes.sort()).toEqual(['failed', 'ok']);
    expect(actions.data.find((a) => a.outcome === 'failed')!.note).toMatch(/./);
    const audits = await w.t.context.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'device.blacklist_enforce'));
    expect(audits[0]!.details).toEqual({ loggedOut: 1, failed: 1 });
  });

  it('should refuse bad input and members, and change nothing', async () => {
    const before = clientsOnFake(w);
    for (const body of [
      { clientName: '' },
      { clientName: '   ' },
      { clientName: 'x'.repeat(101) },
      { clientName: 'Infuse', reason: 'r'.repeat(256) },
      { clientName: 'Infuse', extra: true },
      { clientName: 'Inf\u0000use' },
    ]) {
      const res = await post('/api/v1/admin/devices/blacklist', body);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('VALIDATION_FAILED');
    }
    const bad = await w.get('/api/v1/admin/devices?blacklisted=maybe', w.adminToken);
    expect(bad.status).toBe(400);
    const del = await w.t.call('delete', '/api/v1/admin/devices/blacklist/not-a-uuid', {
      token: w.adminToken,
    });
    expect((await errorOf(del)).code).toBe('BLACKLIST_ENTRY_NOT_FOUND');
    const member = await w.member('alice');
    const asMember = await w.t.call('post', '/api/v1/admin/devices/blacklist', {
      token: await w.token(member),
      body: { clientName: 'Infuse' },
    });
    expect(asMember.status).toBe(403);
    const blacklist = blacklistListSchema.parse(
      await (await w.get('/api/v1/admin/devices/blacklist', w.adminToken)).json(),
    );
    expect(blacklist.total).toBe(0);
    expect(clientsOnFake(w)).toEqual(before);
    const actions = deviceActionListSchema.parse(
      await (await w.get('/api/v1/admin/devices/actions', w.adminToken)).json(),
    );
    expect(actions.total).toBe(0);
  });

  it('should store nothing when the media server is down and logoutNow is asked', async () => {
    await w.fake.down();
    const res = await post('/api/v1/admin/devices/blacklist', { clientName: 'Kodi' });
    expect(res.status).toBe(502);
    expect((await errorOf(res)).code).toBe('UPSTREAM_UNAVAILABLE');
    const blacklist = blacklistListSchema.parse(
      await (await w.get('/api/v1/admin/devices/blacklist', w.adminToken)).json(),
    );
    expect(blacklist.total).toBe(0);
    // Without an immediate sign-out the entry needs no media server; the job applies it later.
    const later = await post('/api/v1/admin/devices/blacklist', {
      clientName: 'Kodi',
      logoutNow: false,
    });
    expect(later.status).toBe(201);
    expect(blacklistCreatedSchema.parse(await later.json())).toMatchObject({
      loggedOut: 0,
      failed: 0,
    });
    await w.fake.up();
  });

  it('should log out a device whose id is a long base64 user agent, as Jellyfin Web reports', async () => {
    const longId = Buffer.from(
      `Mozilla/5.0 (X11; Linux x86_64) ${'AppleWebKit/537.36 '.repeat(6)}|1732532100000`,
    ).toString('base64');
    expect(longId.length).toBeGreaterThan(150);
    await signIn(w, flavour, 'Jellyfin Web', longId);
    const list = deviceListSchema.parse(
      await (await w.get('/api/v1/admin/devices?pageSize=100', w.adminToken)).json(),
    );
    const device = list.data.find((d) => d.deviceId === longId)!;
    const res = await post(`/api/v1/admin/devices/${encodeURIComponent(device.id)}/logout`);
    expect(res.status).toBe(200);
    expect(clientsOnFake(w).some((d) => d.startsWith(longId))).toBe(false);
  });

  it('should log out one device, and answer 404 for an unknown one', async () => {
    const list = deviceListSchema.parse(
      await (await w.get('/api/v1/admin/devices', w.adminToken)).json(),
    );
    const kodi = list.data.find((d) => d.deviceId === 'alice-kodi')!;
    const res = await post(`/api/v1/admin/devices/${encodeURIComponent(kodi.id)}/logout`);
    expect(res.status).toBe(200);
    expect(clientsOnFake(w)).not.toContain('alice-kodi:Kodi');
    expect(clientsOnFake(w)).toHaveLength(4);
    const gone = await post(`/api/v1/admin/devices/${encodeURIComponent(kodi.id)}/logout`);
    expect(gone.status).toBe(404);
    expect((await errorOf(gone)).code).toBe('DEVICE_NOT_FOUND');
    const audits = await w.t.context.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'device.logout'));
    expect(audits).toHaveLength(1);
  });
});
