import type { FakeMediaServer } from '../../src/media-server/index.js';
import { addLiveSession } from '../../src/media-server/index.js';
import { adminGet, adminHeaders, call, start, userHeaders } from './helpers.js';

type Dto = Record<string, unknown>;

/**
 * Remote control of a session, as both servers do it: a message shown on the client
 * (`POST /Sessions/{Id}/Message`: Emby in the query, Jellyfin a MessageCommand body) and
 * playstate commands (`POST /Sessions/{Id}/Playing/{Command}`): on Stop the client stops, so the
 * session loses its NowPlayingItem. Tests read what was sent from `state.sessionCommands`.
 */
describe.each(['emby', 'jellyfin'] as const)(
  'media-server fake: session messages and playstate commands on %s',
  (flavour) => {
    let s: FakeMediaServer;
    beforeEach(async () => {
      s = await start(flavour);
    });
    afterEach(async () => s.close());

    const live = () => {
      const bob = [...s.state.users.values()].find((u) => u.name === 'bob')!;
      return addLiveSession(s.state, {
        userId: bob.id,
        deviceId: 'bob-phone',
        deviceName: 'Pixel',
        client: 'Android',
        remoteEndPoint: '2a01:4f8:c17:1a2b::10',
        itemId: s.seeded!.movies.dune.id,
      });
    };
    const sessionOf = async (id: string) =>
      (await adminGet<Dto[]>(s, '/Sessions')).find((x) => x['Id'] === id);

    it('should list a placed live session with its address, device and item', async () => {
      const session = live();
      expect(await sessionOf(session.id)).toMatchObject({
        RemoteEndPoint: '2a01:4f8:c17:1a2b::10',
        DeviceId: 'bob-phone',
        DeviceName: 'Pixel',
        Client: 'Android',
        UserName: 'bob',
        NowPlayingItem: { Name: 'Dune: Part Two' },
      });
    });

    it('should record a message and answer 204', async () => {
      const session = live();
      const res =
        flavour === 'emby'
          ? await call(
              s,
              'POST',
              `/Sessions/${session.id}/Message?Text=Hello&Header=Usher&TimeoutMs=5000`,
              { headers: adminHeaders(s) },
            )
          : await call(s, 'POST', `/Sessions/${session.id}/Message`, {
              headers: adminHeaders(s),
              body: { Header: 'Usher', Text: 'Hello', TimeoutMs: 5000 },
            });
      expect(res.status).toBe(204);
      expect(s.state.sessionCommands).toEqual([
        expect.objectContaining({
          sessionId: session.id,
          command: 'Message',
          header: 'Usher',
          text: 'Hello',
          timeoutMs: 5000,
        }),
      ]);
    });

    it('should refuse a message without text as the server does', async () => {
      const session = live();
      const res =
        flavour === 'emby'
          ? await call(s, 'POST', `/Sessions/${session.id}/Message?Header=Usher`, {
              headers: adminHeaders(s),
            })
          : await call(s, 'POST', `/Sessions/${session.id}/Message`, {
              headers: adminHeaders(s),
              body: { Header: 'Usher', Text: '' },
            });
      expect(res.status).toBe(400);
      if (flavour === 'jellyfin') expect(res.contentType).toMatch(/problem\+json/);
      expect(s.state.sessionCommands).toEqual([]);
    });

    it('should stop playback: the session stays, its NowPlayingItem goes', async () => {
      const session = live();
      const res = await call(s, 'POST', `/Sessions/${session.id}/Playing/Stop`, {
        headers: adminHeaders(s),
        ...(flavour === 'emby' ? { body: { Command: 'Stop' } } : {}),
      });
      expect(res.status).toBe(204);
      const after = await sessionOf(session.id);
      expect(after).toBeDefined();
      expect(after?.['NowPlayingItem']).toBeUndefined();
      expect(s.state.sessionCommands.map((c) => c.command)).toEqual(['Stop']);
    });

    it('should pause and refuse unknown commands', async () => {
      const session = live();
      await call(s, 'POST', `/Sessions/${session.id}/Playing/Pause`, { headers: adminHeaders(s) });
      expect((await sessionOf(session.id))?.['PlayState']).toMatchObject({ IsPaused: true });
      const bad = await call(s, 'POST', `/Sessions/${session.id}/Playing/Explode`, {
        headers: adminHeaders(s),
      });
      expect(bad.status).toBe(400);
    });

    it('should answer 404 for an unknown session and keep users to their own', async () => {
      const missing = await call(
        s,
        'POST',
        '/Sessions/0123456789abcdef0123456789abcdef/Playing/Stop',
        {
          headers: adminHeaders(s),
        },
      );
      expect(missing.status).toBe(404);
      const session = live();
      const alice = [...s.state.devices.values()].find(
        (d) => d.token && s.state.users.get(d.userId)?.name === 'alice',
      )!;
      const foreign = await call(s, 'POST', `/Sessions/${session.id}/Playing/Stop`, {
        headers: userHeaders(s, alice.token!),
      });
      expect(foreign.status).toBe(404);
      expect((await sessionOf(session.id))?.['NowPlayingItem']).toBeDefined();
    });

    it('should give a reconnecting device a new session and keep the device', async () => {
      const first = live();
      const second = live();
      expect(second.id).not.toBe(first.id);
      const sessions = await adminGet<Dto[]>(s, '/Sessions');
      expect(sessions.filter((x) => x['DeviceId'] === 'bob-phone')).toHaveLength(1);
    });
  },
);
