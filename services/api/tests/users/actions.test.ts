import {
  adminUserSchema,
  extendUserResponseSchema,
  userMediaSyncResponseSchema,
} from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { mediaServerRetryQueue, users } from '../../src/db/schema/index.js';
import { updateUser } from '../../src/modules/users/service.js';
import { ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import { DAY, errorOf, startWorld, type World } from './helpers.js';
import { domainFlavours } from '../support/flavours.js';

// One flavour (support/flavours.ts): Emby: SimultaneousStreamLimit, the whole-policy POST under
// /emby.
describe.each(domainFlavours('emby'))(`admin user actions on %s (${ENGINE})`, (flavour) => {
  let w: World;
  const call = (method: string, path: string, body?: unknown) =>
    w.t.call(method, `/api/v1/admin/users${path}`, { token: w.adminToken, body });

  beforeAll(async () => {
    w = await startWorld(flavour);
  });
  afterAll(async () => {
    await w.close();
  });
  afterEach(() => {
    w.fake.clearFaults();
  });

  describe('PATCH /admin/users/:id', () => {
    it('should change the email, audit before/after, and refuse an address in use with 409', async () => {
      const member = await aUser().withEmail(`old_${flavour}@x.example`).create(w.t.context.db);
      const other = await aUser().withEmail(`taken_${flavour}@x.example`).create(w.t.context.db);
      const res = await call('PATCH', `/${member.id}`, { email: `New_${flavour}@X.example` });
      expect(res.status).toBe(200);
      expect(adminUserSchema.parse(await res.json()).email).toBe(`new_${flavour}@x.example`);
      expect(await w.actions(member.id)).toEqual(['user.update']);

      const taken = await call('PATCH', `/${member.id}`, { email: other.email });
      expect(taken.status).toBe(409);
      expect(await errorOf(taken)).toMatchObject({
        code: 'EMAIL_TAKEN',
        message: 'Another account already uses this email',
      });
      const cleared = await call('PATCH', `/${member.id}`, { email: null });
      expect(adminUserSchema.parse(await cleared.json()).email).toBeNull();
    });

    it('should sync media access when the expiry moves (past → disabled, future → enabled)', async () => {
      const member = await w.linkedMember();
      const past = await call('PATCH', `/${member.id}`, {
        expiresAt: new Date(Date.now() - 1000).toISOString(),
      });
      expect(adminUserSchema.parse(await past.json())).toMatchObject({
        isExpired: true,
        mediaDisabled: true,
        media: { state: 'disabled_expired' },
      });
      expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(true);

      const future = await call('PATCH', `/${member.id}`, {
        expiresAt: new Date(Date.now() + 9 * DAY).toISOString(),
      });
      expect(adminUserSchema.parse(await future.json())).toMatchObject({ mediaDisabled: false });
      expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(false);

      const never = await call('PATCH', `/${member.id}`, { neverExpires: true });
      expect(adminUserSchema.parse(await never.json()).expiresAt).toBeNull();
    });

    it('should revoke tokens on a role change; promotion clears the expiry and leaves the media account alone', async () => {
      const member = await w.linkedMember({ expiresAt: new Date(Date.now() - DAY) });
      await w.t.context.db
        .update(users)
        .set({ mediaDisabled: true })
        .where(eq(users.id, member.id));
      const memberToken = await w.tokenFor(member);
      w.fake.clearRequests();

      const res = await call('PATCH', `/${member.id}`, { role: 'admin' });
      expect(res.status).toBe(200);
      expect(adminUserSchema.parse(await res.json())).toMatchObject({
        role: 'admin',
        expiresAt: null,
        media: { linked: true, state: 'enabled' },
      });
      expect(w.fake.requests('/Policy')).toEqual([]);
      expect((await w.row(member.id))!.tokenVersion).toBe(member.tokenVersion + 1);
      const old = await w.t.call('GET', '/api/v1/me', { token: memberToken });
      expect(old.status).toBe(401);
      expect((await errorOf(old)).code).toBe('TOKEN_REVOKED');

      // Refused for admins: an expiry.
      const bad = await call('PATCH', `/${member.id}`, {
        expiresAt: new Date(Date.now() + DAY).toISOString(),
      });
      expect(bad.status).toBe(400);
      expect((await errorOf(bad)).code).toBe('VALIDATION_FAILED');

      // Demotion with an expiry hands the account back to Usher: it is synced at once.
      const back = await call('PATCH', `/${member.id}`, {
        role: 'user',
        expiresAt: new Date(Date.now() + 3 * DAY).toISOString(),
      });
      expect(adminUserSchema.parse(await back.json())).toMatchObject({
        role: 'user',
        mediaDisabled: false,
      });
      expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(false);
    });

    it('should refuse changing the own role with 422 CANNOT_MODIFY_SELF', async () => {
      const res = await call('PATCH', `/${w.admin.id}`, { role: 'user' });
      expect(res.status).toBe(422);
      expect(await errorOf(res)).toMatchObject({
        code: 'CANNOT_MODIFY_SELF',
        message: 'You cannot change the role of your own account',
      });
      expect((await w.row(w.admin.id))!.role).toBe('admin');
    });

    it('should refuse demoting the last active administrator with 422 LAST_ADMIN', async () => {
      // Only reachable when the caller is not an active admin (a race): exercised on the service.
      const db = w.t.context.db;
      const target = await aUser().admin().create(db);
      await db.update(users).set({ isActive: false }).where(eq(users.id, w.admin.id));
      const others = await db.select().from(users).where(eq(users.role, 'admin'));
      for (const o of others.filter((o) => o.id !== target.id && o.isActive)) {
        await db.update(users).set({ isActive: false }).where(eq(users.id, o.id));
      }
      try {
        await expect(
          updateUser(
            w.t.context,
            target.id,
            { role: 'user' },
            {
              auth: {
                userId: w.admin.id,
                username: w.admin.username,
                role: 'admin',
                tokenVersion: 0,
                mustChangePassword: false,
              },
              actor: { type: 'admin', id: w.admin.id, label: w.admin.username },
              meta: { ip: null, requestId: 'test' },
            },
          ),
        ).rejects.toMatchObject({ code: 'LAST_ADMIN' });
        expect((await w.row(target.id))!.role).toBe('admin');
      } finally {
        for (const o of others) {
          await db.update(users).set({ isActive: o.isActive }).where(eq(users.id, o.id));
        }
        await db.update(users).set({ isActive: true }).where(eq(users.id, w.admin.id));
      }
    });

    it('should answer 404 for unknown ids and 400 for unknown fields or both expiry forms', async () => {
      const missing = await call('PATCH', `/${uuidv7()}`, { email: null });
      expect(await errorOf(missing)).toMatchObject({ code: 'USER_NOT_FOUND' });
      const member = await aUser().create(w.t.context.db);
      for (const body of [
        { username: 'renamed' },
        { expiresAt: new Date().toISOString(), neverExpires: true },
        { role: 'owner' },
        { email: 'not-an-email' },
      ]) {
        const res = await call('PATCH', `/${member.id}`, body);
        expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      }
    });
  });

  describe('POST /admin/users/:id/extend', () => {
    it('should extend from now for an expired member and re-enable the media account', async () => {
      const member = await w.linkedMember({ expiresAt: new Date(Date.now() - 2 * DAY) });
      await w.t.context.accessSync(member.id, 'expiry');
      expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(true);

      const res = await call('POST', `/${member.id}/extend`, { days: 30 });
      expect(res.status).toBe(200);
      const body = extendUserResponseSchema.parse(await res.json());
      expect(body.mediaSync).toBe('applied');
      expect(body.previousExpiresAt).toBe(member.expiresAt!.toISOString());
      const end = new Date(body.expiresAt).getTime();
      expect(Math.abs(end - (Date.now() + 30 * DAY))).toBeLessThan(60_000);
      expect(body.user).toMatchObject({ isExpired: false, media: { state: 'enabled' } });
      expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(false);
      expect(await w.actions(member.id)).toContain('user.extend');
    });

    it('should extend from the current end for an active member', async () => {
      const end = new Date(Date.now() + 10 * DAY);
      const member = await aUser().expiresAt(end).create(w.t.context.db);
      const body = extendUserResponseSchema.parse(
        await (await call('POST', `/${member.id}/extend`, { days: 5 })).json(),
      );
      expect(body.expiresAt).toBe(new Date(end.getTime() + 5 * DAY).toISOString());
      expect(body.mediaSync).toBe('none');
    });

    it('should refuse admins, never-expiring members, bad days and unknown ids', async () => {
      const admin = await aUser().admin().create(w.t.context.db);
      const forever = await aUser().neverExpires().create(w.t.context.db);
      expect(await errorOf(await call('POST', `/${admin.id}/extend`, { days: 1 }))).toMatchObject({
        code: 'ACCOUNT_NOT_RENEWABLE',
      });
      const never = await call('POST', `/${forever.id}/extend`, { days: 1 });
      expect(never.status).toBe(422);
      expect(await errorOf(never)).toMatchObject({
        code: 'ACCOUNT_NEVER_EXPIRES',
        message: 'This membership never expires',
      });
      for (const days of [0, 3651, 1.5]) {
        expect((await call('POST', `/${forever.id}/extend`, { days })).status).toBe(400);
      }
      const missing = await call('POST', `/${uuidv7()}/extend`, { days: 1 });
      expect(missing.status).toBe(404);
      expect(await w.actions(forever.id)).toEqual([]);
    });
  });

  describe('PUT /admin/users/:id/active', () => {
    it('should switch web login off (revoking tokens) and on again, audited', async () => {
      const member = await aUser().create(w.t.context.db);
      const token = await w.tokenFor(member);
      const off = await call('PUT', `/${member.id}/active`, { isActive: false });
      expect(adminUserSchema.parse(await off.json()).isActive).toBe(false);
      expect((await w.row(member.id))!.tokenVersion).toBe(member.tokenVersion + 1);
      expect((await w.t.call('GET', '/api/v1/me', { token })).status).toBe(401);

      const on = await call('PUT', `/${member.id}/active`, { isActive: true });
      expect(adminUserSchema.parse(await on.json()).isActive).toBe(true);
      expect(await w.actions(member.id)).toEqual(['user.deactivate', 'user.activate']);
    });

    it('should refuse the own account with 422 CANNOT_MODIFY_SELF', async () => {
      const res = await call('PUT', `/${w.admin.id}/active`, { isActive: false });
      expect(res.status).toBe(422);
      expect((await errorOf(res)).code).toBe('CANNOT_MODIFY_SELF');
      expect((await w.row(w.admin.id))!.isActive).toBe(true);
      expect((await call('PUT', `/${w.admin.id}/active`, { isActive: 'no' })).status).toBe(400);
    });
  });

  describe('PUT /admin/users/:id/media-access', () => {
    it("should disable a member's media account on the server, independent of the expiry", async () => {
      const member = await w.linkedMember({ expiresAt: new Date(Date.now() + 20 * DAY) });
      const off = await call('PUT', `/${member.id}/media-access`, { enabled: false });
      expect(off.status).toBe(200);
      expect(userMediaSyncResponseSchema.parse(await off.json())).toMatchObject({
        mediaSync: 'applied',
        user: {
          mediaAccessDisabled: true,
          mediaDisabled: true,
          isExpired: false,
          media: { state: 'disabled_by_admin' },
        },
      });
      expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(true);

      // Renewing does not override the admin switch.
      const renewed = extendUserResponseSchema.parse(
        await (await call('POST', `/${member.id}/extend`, { days: 3 })).json(),
      );
      expect(renewed.mediaSync).toBe('none');
      expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(true);

      const on = await call('PUT', `/${member.id}/media-access`, { enabled: true });
      expect(userMediaSyncResponseSchema.parse(await on.json())).toMatchObject({
        mediaSync: 'applied',
        user: { mediaAccessDisabled: false, media: { state: 'enabled' } },
      });
      expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(false);
      expect(await w.actions(member.id)).toEqual([
        'user.media_access',
        'user.extend',
        'user.media_access',
      ]);
    });

    it('should keep an expired member disabled when the switch goes on', async () => {
      const member = await w.linkedMember({ expiresAt: new Date(Date.now() - DAY) });
      const on = userMediaSyncResponseSchema.parse(
        await (await call('PUT', `/${member.id}/media-access`, { enabled: true })).json(),
      );
      expect(on.user.media.state).toBe('disabled_expired');
      expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(true);
    });

    it('should queue the change when the media server fails, and answer mediaSync queued', async () => {
      const member = await w.linkedMember();
      w.fake.fail(503, /Policy/);
      const res = await call('PUT', `/${member.id}/media-access`, { enabled: false });
      expect(res.status).toBe(200);
      expect(userMediaSyncResponseSchema.parse(await res.json())).toMatchObject({
        mediaSync: 'queued',
        user: { mediaAccessDisabled: true, mediaDisabled: false },
      });
      const queued = await w.t.context.db
        .select()
        .from(mediaServerRetryQueue)
        .where(eq(mediaServerRetryQueue.mediaUserId, member.mediaUserId!));
      expect(queued).toEqual([
        expect.objectContaining({
          operation: 'disable',
          origin: 'admin_access',
          status: 'pending',
        }),
      ]);
    });

    it('should refuse unlinked members and admins', async () => {
      const unlinked = await aUser().create(w.t.context.db);
      const admin = await aUser().admin().linkedTo('a'.repeat(32)).create(w.t.context.db);
      const a = await call('PUT', `/${unlinked.id}/media-access`, { enabled: false });
      expect(a.status).toBe(422);
      expect(await errorOf(a)).toMatchObject({
        code: 'MEDIA_ACCOUNT_UNLINKED',
        message: 'This account has no media-server account',
      });
      const b = await call('PUT', `/${admin.id}/media-access`, { enabled: false });
      expect((await errorOf(b)).code).toBe('ACCOUNT_NOT_RENEWABLE');
      expect((await w.row(unlinked.id))!.mediaAccessDisabled).toBe(false);
    });
  });

  describe('POST /admin/users/:id/media-sync', () => {
    it('should rewrite a drifted state at once and clear the pending retry row', async () => {
      const member = await w.linkedMember();
      w.fake.fail(503, /Policy/);
      await call('PUT', `/${member.id}/media-access`, { enabled: false });
      w.fake.clearFaults();
      // Meanwhile someone enabled the account by hand on the server.
      w.policyOf(member.mediaUserId!).IsDisabled = false;

      const res = await call('POST', `/${member.id}/media-sync`, {});
      expect(res.status).toBe(200);
      expect(userMediaSyncResponseSchema.parse(await res.json())).toMatchObject({
        mediaSync: 'applied',
        user: { mediaDisabled: true },
      });
      expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(true);
      const [row] = await w.t.context.db
        .select()
        .from(mediaServerRetryQueue)
        .where(eq(mediaServerRetryQueue.mediaUserId, member.mediaUserId!));
      expect(row).toMatchObject({ status: 'done' });
      expect(await w.actions(member.id)).toContain('user.media_sync');
    });

    it('should rewrite the member policy template with policy:true', async () => {
      const member = await w.linkedMember();
      const policy = w.policyOf(member.mediaUserId!);
      policy.EnableRemoteAccess = false;
      policy.IsHidden = false;
      policy.EnableContentDownloading = true;
      const res = await call('POST', `/${member.id}/media-sync`, { policy: true });
      expect(res.status).toBe(200);
      expect(w.policyOf(member.mediaUserId!)).toMatchObject({
        IsDisabled: false,
        IsHidden: true,
        IsAdministrator: false,
        EnableRemoteAccess: true,
        EnableContentDownloading: false,
        EnableAllFolders: true,
        [flavour === 'emby' ? 'SimultaneousStreamLimit' : 'MaxActiveSessions']: 3,
      });
    });

    it('should answer 502 media_server when the server fails, changing nothing', async () => {
      const member = await w.linkedMember({ expiresAt: new Date(Date.now() - DAY) });
      w.fake.fail(500, /Policy/);
      const res = await call('POST', `/${member.id}/media-sync`, {});
      expect(res.status).toBe(502);
      expect(await errorOf(res)).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        details: { system: 'media_server' },
      });
      expect((await w.row(member.id))!.mediaDisabled).toBe(false);
      expect(await w.actions(member.id)).toEqual([]);
      const queue = await w.t.context.db
        .select()
        .from(mediaServerRetryQueue)
        .where(eq(mediaServerRetryQueue.mediaUserId, member.mediaUserId!));
      expect(queue).toEqual([]);
    });

    it('should refuse unlinked accounts with 422 MEDIA_ACCOUNT_UNLINKED', async () => {
      const member = await aUser().create(w.t.context.db);
      const res = await call('POST', `/${member.id}/media-sync`, {});
      expect(res.status).toBe(422);
      expect((await errorOf(res)).code).toBe('MEDIA_ACCOUNT_UNLINKED');
      expect((await call('POST', `/${member.id}/media-sync`, { policy: 'yes' })).status).toBe(400);
    });
  });
});
