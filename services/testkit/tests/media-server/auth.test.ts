import type { FakeMediaServer } from '../../src/media-server/index.js';
import {
  API_KEY,
  adminGet,
  adminHeaders,
  call,
  login,
  loginHeaders,
  start,
  userHeaders,
} from './helpers.js';

interface AuthResult {
  User: { Id: string; Name: string };
  SessionInfo: { DeviceId: string; Client: string };
  AccessToken: string;
  ServerId: string;
}

describe('media-server fake: credentials by server and version (§1.3)', () => {
  const servers: FakeMediaServer[] = [];
  const boot = async (...args: Parameters<typeof start>): Promise<FakeMediaServer> => {
    const s = await start(...args);
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('should treat Jellyfin 12 legacy-only credentials as anonymous: 401, empty body', async () => {
    const jf = await boot('jellyfin');
    const legacyOnly: Record<string, string>[] = [
      { 'x-emby-token': API_KEY },
      { 'x-mediabrowser-token': API_KEY },
      { 'x-emby-authorization': `MediaBrowser Token="${API_KEY}"` },
      { authorization: `Emby Token="${API_KEY}"` },
    ];
    for (const headers of legacyOnly) {
      const res = await call(jf, 'GET', '/Users', { headers });
      expect(res.status).toBe(401);
      expect(res.text).toBe('');
    }
    expect((await call(jf, 'GET', `/Users?api_key=${API_KEY}`)).status).toBe(401);
  });

  it('should accept MediaBrowser Token= and ?ApiKey= on Jellyfin 12', async () => {
    const jf = await boot('jellyfin');
    const mb = await call(jf, 'GET', '/Users', { headers: adminHeaders(jf) });
    expect(mb.status).toBe(200);
    expect((await call(jf, 'GET', `/Users?ApiKey=${API_KEY}`)).status).toBe(200);
  });

  it('should accept legacy forms on Jellyfin 10.11 unless legacy auth is off', async () => {
    const legacy = await boot('jellyfin', { version: '10.11.0' });
    expect(
      (await call(legacy, 'GET', '/Users', { headers: { 'x-emby-token': API_KEY } })).status,
    ).toBe(200);
    const strict = await boot('jellyfin', { version: '10.11.0', legacyAuthorization: false });
    const res = await call(strict, 'GET', '/Users', { headers: { 'x-emby-token': API_KEY } });
    expect(res.status).toBe(401);
  });

  it('should accept X-Emby-Token, MediaBrowser Token= and api_key on Emby', async () => {
    const emby = await boot('emby');
    expect(
      (await call(emby, 'GET', '/Users/Query', { headers: { 'x-emby-token': API_KEY } })).status,
    ).toBe(200);
    const mb = { authorization: `MediaBrowser Token="${API_KEY}"` };
    expect((await call(emby, 'GET', '/Users/Query', { headers: mb })).status).toBe(200);
    expect((await call(emby, 'GET', `/Users/Query?api_key=${API_KEY}`)).status).toBe(200);
    const bad = await call(emby, 'GET', '/Users/Query', { headers: { 'x-emby-token': 'x' } });
    expect(bad.status).toBe(401);
    expect(bad.text).toMatch(/invalid or expired/);
  });

  it.each(['emby', 'jellyfin'] as const)(
    'should log in on %s and end the token with Sessions/Logout',
    async (flavour) => {
      const s = await boot(flavour);
      const res = await login(s, 'alice', 'alice-pass', 'usher-u1');
      expect(res.status).toBe(200);
      const auth = res.json() as AuthResult;
      expect(auth.User.Name).toBe('alice');
      expect(auth.User.Id).toMatch(/^[0-9a-f]{32}$/);
      expect(auth.AccessToken).toMatch(/^[0-9a-f]{32}$/);
      expect(auth.ServerId).toBe(s.state.serverId);
      expect(auth.SessionInfo.DeviceId).toBe('usher-u1');
      const me = await call(s, 'GET', `/Users/${auth.User.Id}`, {
        headers: userHeaders(s, auth.AccessToken),
      });
      expect(me.status).toBe(200);
      const out = await call(s, 'POST', '/Sessions/Logout', {
        headers: userHeaders(s, auth.AccessToken),
      });
      expect(out.status).toBe(204);
      const after = await call(s, 'GET', `/Users/${auth.User.Id}`, {
        headers: userHeaders(s, auth.AccessToken),
      });
      expect(after.status).toBe(401);
    },
  );

  it('should issue a new token per call, replacing the one of the same DeviceId', async () => {
    const jf = await boot('jellyfin');
    const first = (await login(jf, 'alice', 'alice-pass', 'usher-u1')).json() as AuthResult;
    const second = (await login(jf, 'alice', 'alice-pass', 'usher-u1')).json() as AuthResult;
    expect(second.AccessToken).not.toBe(first.AccessToken);
    const old = await call(jf, 'GET', '/Sessions', { headers: userHeaders(jf, first.AccessToken) });
    expect(old.status).toBe(401);
    const devices = await adminGet<{ Items: { Id: string }[] }>(jf, '/Devices');
    expect(devices.Items.filter((d) => d.Id === 'usher-u1')).toHaveLength(1);
  });

  it('should answer 400 on Jellyfin when the client fields are missing', async () => {
    const jf = await boot('jellyfin');
    const res = await call(jf, 'POST', '/Users/AuthenticateByName', {
      headers: { authorization: 'MediaBrowser Client="Usher"' },
      body: { Username: 'alice', Pw: 'alice-pass' },
    });
    expect(res.status).toBe(400);
    expect(res.text).toBe('Error processing request.');
  });

  it('should ignore Emby-style X-Emby-Authorization for login on Jellyfin 12 (→ 400)', async () => {
    const jf = await boot('jellyfin');
    const res = await call(jf, 'POST', '/Users/AuthenticateByName', {
      headers: {
        'x-emby-authorization': 'Emby Client="Usher", Device="Usher", DeviceId="d", Version="1"',
      },
      body: { Username: 'alice', Pw: 'alice-pass' },
    });
    expect(res.status).toBe(400);
  });

  it('should replace Client and DeviceId when a Jellyfin login carries a key', async () => {
    const jf = await boot('jellyfin');
    const res = await login(jf, 'alice', 'alice-pass', 'usher-u1', {
      authorization: `${loginHeaders(jf, 'usher-u1').authorization}, Token="${API_KEY}"`,
    });
    const auth = res.json() as AuthResult;
    expect(auth.SessionInfo.DeviceId).toBe(jf.state.serverId);
    expect(auth.SessionInfo.Client).toBe(jf.state.apiKeyName);
  });

  it.each(['emby', 'jellyfin'] as const)(
    'should answer 401 for a bad password and 403 for a disabled user on %s',
    async (flavour) => {
      const s = await boot(flavour);
      expect((await login(s, 'alice', 'wrong', 'd1')).status).toBe(401);
      expect((await login(s, 'nobody', 'x', 'd1')).status).toBe(401);
      expect((await login(s, 'carol', 'carol-pass', 'd1')).status).toBe(403);
    },
  );

  it('should lock a Jellyfin user out after three failed logins', async () => {
    const jf = await boot('jellyfin');
    for (let i = 0; i < 3; i++) expect((await login(jf, 'alice', 'bad', 'd1')).status).toBe(401);
    expect((await login(jf, 'alice', 'alice-pass', 'd1')).status).toBe(403);
    const alice = jf.seeded?.users.alice;
    const user = await adminGet<{ Policy: Record<string, unknown> }>(jf, `/Users/${alice?.id}`);
    expect(user.Policy['IsDisabled']).toBe(true);
  });

  it('should refuse a Jellyfin login beyond MaxActiveSessions with 403', async () => {
    const jf = await boot('jellyfin');
    const bob = jf.seeded?.users.bob;
    if (!bob) throw new Error('seed has no bob');
    bob.policy['MaxActiveSessions'] = 1;
    // bob already has a live session on the seeded Apple TV.
    expect((await login(jf, 'bob', 'bob-pass', 'usher-bob')).status).toBe(403);
  });
});
