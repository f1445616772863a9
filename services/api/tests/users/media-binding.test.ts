import {
  adminUserSchema,
  mediaServerLibraryListSchema,
  mediaServerUserListSchema,
} from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema/index.js';
import { createTestApp } from '../support/app.js';
import { createTestDatabase, ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import { errorOf, startWorld, type World } from './helpers.js';
import { domainFlavours } from '../support/flavours.js';

// One flavour (support/flavours.ts): Emby, whose access lists take library Guids, not the numeric
// item ids.
describe.each(domainFlavours('emby'))(
  `admin self-binding and media-server lists on %s (${ENGINE})`,
  (flavour) => {
    let w: World;
    const call = (method: string, path: string, body?: unknown, token?: string) =>
      w.t.call(method, `/api/v1/admin${path}`, { token: token ?? w.adminToken, body });
    const mediaId = (name: string) =>
      [...w.fake.state.users.values()].find((u) => u.name === name)!.id;

    beforeAll(async () => {
      w = await startWorld(flavour);
    });
    afterAll(async () => {
      await w.close();
    });
    afterEach(() => {
      w.fake.clearFaults();
    });

    it('should search media-server users by name, live, marking the ones already bound', async () => {
      const bob = await aUser().named('usher_bob').linkedTo(mediaId('bob')).create(w.t.context.db);
      const search = async (q: string) => {
        const res = await call('GET', `/media-server/users?query=${q}`);
        expect(res.status).toBe(200);
        return mediaServerUserListSchema.parse(await res.json()).data;
      };
      expect((await search('AL')).map((u) => u.name)).toEqual(['alice']);
      expect(await search('dmi')).toEqual([
        {
          mediaUserId: mediaId('admin'),
          name: 'admin',
          isAdministrator: true,
          isDisabled: false,
          available: true,
        },
      ]);
      expect(await search('carol')).toEqual([
        expect.objectContaining({ isAdministrator: false, isDisabled: true, available: true }),
      ]);
      const bobHit = mediaServerUserListSchema.parse(
        await (await call('GET', '/media-server/users?query=bo&limit=1')).json(),
      ).data;
      expect(bobHit).toEqual([
        expect.objectContaining({
          name: 'bob',
          mediaUserId: mediaId('bob'),
          available: false,
          boundTo: { userId: bob.id, username: 'usher_bob' },
        }),
      ]);
      for (const q of ['?query=a', '?query=ab&limit=51', '', `?query=${'x'.repeat(65)}`]) {
        const bad = await call('GET', `/media-server/users${q}`);
        expect([q, bad.status]).toEqual([q, 400]);
      }
    });

    it('should list grantable libraries without boxsets and playlists', async () => {
      const res = await call('GET', '/media-server/libraries');
      expect(res.status).toBe(200);
      const { data } = mediaServerLibraryListSchema.parse(await res.json());
      const seeded = Object.values(w.fake.seeded!.libraries);
      const expected = seeded.filter((l) => !['boxsets', 'playlists'].includes(l.collectionType));
      expect(data.map((l) => l.name).sort()).toEqual(expected.map((l) => l.name).sort());
      // Emby grants libraries by Guid, Jellyfin by Id.
      expect(data.map((l) => l.id).sort()).toEqual(
        expected.map((l) => (flavour === 'emby' ? l.guid : l.id)).sort(),
      );
    });

    it('should answer 502 media_server when the server is down', async () => {
      await w.fake.down();
      try {
        for (const path of ['/media-server/users?query=al', '/media-server/libraries']) {
          const res = await call('GET', path);
          expect(res.status).toBe(502);
          expect(await errorOf(res)).toMatchObject({
            code: 'UPSTREAM_UNAVAILABLE',
            details: { system: 'media_server' },
          });
        }
        const bind = await call('PUT', '/current/media-binding', { mediaUserId: mediaId('alice') });
        expect(bind.status).toBe(502);
      } finally {
        await w.fake.up();
      }
    });

    it('should bind the current admin, refuse unknown or taken users, and unbind', async () => {
      const res = await call('PUT', '/current/media-binding', { mediaUserId: mediaId('admin') });
      expect(res.status).toBe(200);
      expect(adminUserSchema.parse(await res.json())).toMatchObject({
        id: w.admin.id,
        media: { linked: true, mediaUserId: mediaId('admin'), state: 'enabled' },
      });
      expect(await w.actions(w.admin.id)).toEqual(['admin.media_bind']);
      // Binding again to the same user is a no-op success.
      expect(
        (await call('PUT', '/current/media-binding', { mediaUserId: mediaId('admin') })).status,
      ).toBe(200);

      const other = await aUser().admin().named(`other_admin_${flavour}`).create(w.t.context.db);
      const otherToken = await w.tokenFor(other);
      const taken = await call(
        'PUT',
        '/current/media-binding',
        { mediaUserId: mediaId('admin') },
        otherToken,
      );
      expect(taken.status).toBe(409);
      expect(await errorOf(taken)).toMatchObject({
        code: 'MEDIA_USER_ALREADY_BOUND',
        details: { username: w.admin.username },
      });
      for (const mediaUserId of ['0'.repeat(32), 'not-a-guid']) {
        const missing = await call('PUT', '/current/media-binding', { mediaUserId }, otherToken);
        expect(missing.status).toBe(404);
        expect(await errorOf(missing)).toMatchObject({
          code: 'MEDIA_USER_NOT_FOUND',
          message: 'The media server has no such user',
        });
      }
      expect((await w.row(other.id))!.mediaUserId).toBeNull();

      const unbind = await call('DELETE', '/current/media-binding');
      expect(unbind.status).toBe(204);
      expect((await w.row(w.admin.id))!.mediaUserId).toBeNull();
      // The media-server account itself is untouched.
      expect(w.fake.state.users.has(mediaId('admin'))).toBe(true);
      expect(await w.actions(w.admin.id)).toContain('admin.media_unbind');
      expect((await call('DELETE', '/current/media-binding')).status).toBe(204);
    });

    it('should never manage the bound account: member actions refuse it', async () => {
      await call('PUT', '/current/media-binding', { mediaUserId: mediaId('alice') });
      const [me] = await w.t.context.db.select().from(users).where(eq(users.id, w.admin.id));
      expect(me!.mediaUserId).toBe(mediaId('alice'));
      const other = await aUser().admin().create(w.t.context.db);
      const sync = await w.t.call('POST', `/api/v1/admin/users/${w.admin.id}/media-sync`, {
        token: await w.tokenFor(other),
        body: {},
      });
      expect((await errorOf(sync)).code).toBe('ACCOUNT_NOT_RENEWABLE');
      await call('DELETE', '/current/media-binding');
    });
  },
);

describe(`media-server routes without a configured server (${ENGINE})`, () => {
  it('should answer 503 NOT_CONFIGURED with system media_server', async () => {
    const database = await createTestDatabase();
    const t = createTestApp(database.handle);
    try {
      const admin = await aUser().admin().create(t.context.db);
      const token = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
      for (const path of ['/media-server/users?query=al', '/media-server/libraries']) {
        const res = await t.call('GET', `/api/v1/admin${path}`, { token });
        expect(res.status).toBe(503);
        expect(await errorOf(res)).toMatchObject({
          code: 'NOT_CONFIGURED',
          details: { system: 'media_server' },
        });
      }
      const create = await t.call('POST', '/api/v1/admin/users', {
        token,
        body: { username: 'needs_media', neverExpires: true },
      });
      expect(create.status).toBe(503);
      const local = await t.call('POST', '/api/v1/admin/users', {
        token,
        body: { username: 'local_only', neverExpires: true, createMediaUser: false },
      });
      expect(local.status).toBe(201);
    } finally {
      await database.close();
    }
  });
});
