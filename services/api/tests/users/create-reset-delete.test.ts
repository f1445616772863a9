import {
  adminResetPasswordResponseSchema,
  bulkUsersResponseSchema,
  createAdminUserResponseSchema,
  deleteUserResponseSchema,
} from '@usher/contracts';
import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { verifyPassword } from '../../src/security/passwords.js';
import { auditLog, mediaServerRetryQueue, users } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import { DAY, errorOf, startWorld, type World } from './helpers.js';
import { domainFlavours } from '../support/flavours.js';

// One flavour (support/flavours.ts): Jellyfin (the password in the create call; a reset ends the
// user's other tokens).
describe.each(domainFlavours('jellyfin'))(
  `create, reset password, delete and bulk on %s (${ENGINE})`,
  (flavour) => {
    let w: World;
    let n = 0;
    const call = (method: string, path: string, body?: unknown) =>
      w.t.call(method, `/api/v1/admin/users${path}`, { token: w.adminToken, body });
    const name = () => `made_${flavour.slice(0, 2)}_${++n}_${Date.now() % 100000}`;
    const mediaUserNamed = (username: string) =>
      [...w.fake.state.users.values()].find((u) => u.name === username);
    const queueOf = (mediaUserId: string) =>
      w.t.context.db
        .select()
        .from(mediaServerRetryQueue)
        .where(eq(mediaServerRetryQueue.mediaUserId, mediaUserId));

    beforeAll(async () => {
      w = await startWorld(flavour);
    });
    afterAll(async () => {
      await w.close();
    });
    afterEach(() => {
      w.fake.clearFaults();
    });

    describe('POST /admin/users', () => {
      it('should create a member with a generated password and a media account on the template', async () => {
        const username = name();
        const res = await call('POST', '', {
          username,
          email: `${username}@Example.org`,
          expiresAt: new Date(Date.now() + 30 * DAY).toISOString(),
        });
        expect(res.status).toBe(201);
        const body = createAdminUserResponseSchema.parse(await res.json());
        expect(body.generatedPassword).toMatch(/^[A-Za-z0-9]{20}$/);
        expect(body.user).toMatchObject({
          username,
          email: `${username}@example.org`,
          role: 'user',
          registeredVia: 'admin',
          mustChangePassword: true,
          mediaDisabled: false,
          media: { linked: true, state: 'enabled' },
        });
        const media = mediaUserNamed(username)!;
        expect(media.id).toBe(body.user.media.mediaUserId);
        expect(media.password).toBe(body.generatedPassword);
        expect(media.policy).toMatchObject({
          IsDisabled: false,
          IsHidden: true,
          IsAdministrator: false,
        });
        const row = (await w.row(body.user.id))!;
        expect(await verifyPassword(row.passwordHash, body.generatedPassword!)).toBe(true);
        expect(await w.actions(body.user.id)).toEqual(['user.create']);
        const [entry] = await w.t.context.db
          .select()
          .from(auditLog)
          .where(eq(auditLog.targetId, body.user.id));
        expect(JSON.stringify(entry!.details)).not.toContain(body.generatedPassword!);
      });

      it('should write IsDisabled for a member born expired or switched off, and skip media on request', async () => {
        const expired = name();
        const a = createAdminUserResponseSchema.parse(
          await (
            await call('POST', '', {
              username: expired,
              password: 'chosen-password-1',
              expiresAt: new Date(Date.now() - DAY).toISOString(),
            })
          ).json(),
        );
        expect(a.generatedPassword).toBeUndefined();
        expect(a.user).toMatchObject({ mustChangePassword: false, mediaDisabled: true });
        expect(mediaUserNamed(expired)!.policy.IsDisabled).toBe(true);

        const off = name();
        const b = createAdminUserResponseSchema.parse(
          await (
            await call('POST', '', { username: off, neverExpires: true, mediaAccessDisabled: true })
          ).json(),
        );
        expect(b.user).toMatchObject({
          expiresAt: null,
          mediaAccessDisabled: true,
          media: { state: 'disabled_by_admin' },
        });
        expect(mediaUserNamed(off)!.policy.IsDisabled).toBe(true);

        const local = name();
        const c = createAdminUserResponseSchema.parse(
          await (
            await call('POST', '', { username: local, neverExpires: true, createMediaUser: false })
          ).json(),
        );
        expect(c.user.media).toMatchObject({ linked: false, state: 'unlinked' });
        expect(mediaUserNamed(local)).toBeUndefined();
      });

      it('should create an administrator locally only', async () => {
        const username = name();
        const res = await call('POST', '', { username, role: 'admin' });
        const body = createAdminUserResponseSchema.parse(await res.json());
        expect(body.user).toMatchObject({
          role: 'admin',
          expiresAt: null,
          media: { linked: false },
        });
        expect(mediaUserNamed(username)).toBeUndefined();
      });

      it('should refuse names taken in Usher or on the media server, and emails in use, with 409', async () => {
        const existing = await aUser().withEmail(`dup_${flavour}@x.example`).create(w.t.context.db);
        for (const username of [existing.username.toUpperCase(), 'Alice']) {
          const res = await call('POST', '', { username, neverExpires: true });
          expect(res.status).toBe(409);
          expect(await errorOf(res)).toMatchObject({
            code: 'USERNAME_TAKEN',
            message: 'This username is already taken',
          });
        }
        const email = await call('POST', '', {
          username: name(),
          email: `DUP_${flavour}@x.example`,
          neverExpires: true,
        });
        expect(email.status).toBe(409);
        expect((await errorOf(email)).code).toBe('EMAIL_TAKEN');
      });

      it('should answer 400 for a member without exactly one expiry form and for bad admin fields', async () => {
        for (const body of [
          { username: name() },
          { username: name(), neverExpires: true, expiresAt: new Date().toISOString() },
          { username: name(), neverExpires: false },
          { username: name(), role: 'admin', createMediaUser: true },
          { username: name(), role: 'admin', expiresAt: new Date().toISOString() },
          { username: 'x', neverExpires: true },
          { username: name(), neverExpires: true, password: 'short' },
          { username: name(), neverExpires: true, extra: 1 },
        ]) {
          const res = await call('POST', '', body);
          expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
          expect((await errorOf(res)).code).toBe('VALIDATION_FAILED');
        }
      });

      it('should answer 502 and write nothing when the media server fails', async () => {
        const username = name();
        w.fake.fail(503, /Policy/);
        const res = await call('POST', '', { username, neverExpires: true });
        expect(res.status).toBe(502);
        expect(await errorOf(res)).toMatchObject({ details: { system: 'media_server' } });
        const rows = await w.t.context.db
          .select()
          .from(users)
          .where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
        expect(rows).toEqual([]);
        expect(mediaUserNamed(username)).toBeUndefined();
      });

      it('should delete the media user again when the local insert fails (and queue it if that fails too)', async () => {
        const db = w.t.context.db;
        await db.execute(sql`
        create or replace function refuse_doomed() returns trigger language plpgsql as $$
        begin
          if new.username like 'doomed%' then raise exception 'refused by test trigger'; end if;
          return new;
        end $$`);
        await db.execute(sql`
        create trigger refuse_doomed before insert on users
        for each row execute function refuse_doomed()`);
        try {
          const first = `doomed_${flavour.slice(0, 2)}_a`;
          const res = await call('POST', '', { username: first, neverExpires: true });
          expect(res.status).toBe(500);
          expect(mediaUserNamed(first)).toBeUndefined();

          const second = `doomed_${flavour.slice(0, 2)}_b`;
          w.fake.fail(503, /^\/Users\/[0-9a-f-]+$/i, { method: 'DELETE' });
          const again = await call('POST', '', { username: second, neverExpires: true });
          expect(again.status).toBe(500);
          const orphan = mediaUserNamed(second)!;
          expect(orphan).toBeDefined();
          expect(await queueOf(orphan.id)).toEqual([
            expect.objectContaining({
              operation: 'delete',
              origin: 'register_cleanup',
              status: 'pending',
            }),
          ]);
        } finally {
          await db.execute(sql`drop trigger refuse_doomed on users`);
        }
      });
    });

    describe('POST /admin/users/:id/reset-password', () => {
      it("should set a member's password on the media server first, then locally, revoking tokens", async () => {
        const member = await w.linkedMember();
        const token = await w.tokenFor(member);
        const res = await call('POST', `/${member.id}/reset-password`, {});
        expect(res.status).toBe(200);
        const { generatedPassword } = adminResetPasswordResponseSchema.parse(await res.json());
        expect(generatedPassword).toMatch(/^[A-Za-z0-9]{20}$/);
        expect(w.fake.state.users.get(member.mediaUserId!)!.password).toBe(generatedPassword);
        const row = (await w.row(member.id))!;
        expect(await verifyPassword(row.passwordHash, generatedPassword!)).toBe(true);
        expect(row).toMatchObject({
          mustChangePassword: true,
          tokenVersion: member.tokenVersion + 1,
        });
        expect((await w.t.call('GET', '/api/v1/me', { token })).status).toBe(401);
        expect(await w.actions(member.id)).toEqual(['user.password_reset']);
        expect(w.t.logs.text()).not.toContain(generatedPassword!);
      });

      it('should take a chosen password without echoing it, and requireChange:false', async () => {
        const member = await w.linkedMember();
        const res = await call('POST', `/${member.id}/reset-password`, {
          newPassword: 'a-chosen-password',
          requireChange: false,
        });
        expect(await res.json()).toEqual({});
        expect(w.fake.state.users.get(member.mediaUserId!)!.password).toBe('a-chosen-password');
        expect((await w.row(member.id))!.mustChangePassword).toBe(false);
      });

      it('should answer 502 and change nothing locally when the media server fails', async () => {
        const member = await w.linkedMember();
        w.fake.fail(500, /Password/);
        const res = await call('POST', `/${member.id}/reset-password`, {});
        expect(res.status).toBe(502);
        expect(await errorOf(res)).toMatchObject({
          code: 'UPSTREAM_UNAVAILABLE',
          details: { system: 'media_server' },
        });
        const row = (await w.row(member.id))!;
        expect(row.passwordHash).toBe(member.passwordHash);
        expect(row.tokenVersion).toBe(member.tokenVersion);
        expect(await w.actions(member.id)).toEqual([]);
      });

      it('should reset an admin locally even while the media server is down', async () => {
        const admin = await aUser().admin().linkedTo('e'.repeat(32)).create(w.t.context.db);
        await w.fake.down();
        try {
          const res = await call('POST', `/${admin.id}/reset-password`, {
            newPassword: 'admin-new-pw',
          });
          expect(res.status).toBe(200);
        } finally {
          await w.fake.up();
        }
        expect(await verifyPassword((await w.row(admin.id))!.passwordHash, 'admin-new-pw')).toBe(
          true,
        );
      });

      it('should answer 404 for unknown users and 400 for short passwords', async () => {
        expect((await call('POST', `/${uuidv7()}/reset-password`, {})).status).toBe(404);
        const member = await aUser().create(w.t.context.db);
        const bad = await call('POST', `/${member.id}/reset-password`, { newPassword: 'short' });
        expect(bad.status).toBe(400);
      });
    });

    describe('DELETE /admin/users/:id', () => {
      it('should delete a member and their media-server user', async () => {
        const member = await w.linkedMember();
        const res = await call('DELETE', `/${member.id}`);
        expect(res.status).toBe(200);
        expect(deleteUserResponseSchema.parse(await res.json())).toEqual({
          mediaCleanup: 'deleted',
        });
        expect(await w.row(member.id)).toBeUndefined();
        expect(w.fake.state.users.has(member.mediaUserId!)).toBe(false);
        expect(await w.actions(member.id)).toEqual(['user.delete']);
        expect(await queueOf(member.mediaUserId!)).toEqual([
          expect.objectContaining({ operation: 'delete', status: 'done' }),
        ]);
      });

      it('should queue the media-server delete when it fails, and the worker completes it later', async () => {
        const member = await w.linkedMember();
        w.fake.fail(503, /^\/Users\/[0-9a-f-]+$/i, { method: 'DELETE' });
        const res = await call('DELETE', `/${member.id}`);
        expect(deleteUserResponseSchema.parse(await res.json())).toEqual({
          mediaCleanup: 'queued',
        });
        expect(await w.row(member.id)).toBeUndefined();
        expect(w.fake.state.users.has(member.mediaUserId!)).toBe(true);
        const [queued] = await queueOf(member.mediaUserId!);
        expect(queued).toMatchObject({
          operation: 'delete',
          origin: 'user_delete',
          status: 'pending',
        });
        expect(queued!.lastError).toBeTruthy();

        w.fake.clearFaults();
        await w.t.context.db
          .update(mediaServerRetryQueue)
          .set({ nextAttemptAt: new Date(Date.now() - 1000) })
          .where(eq(mediaServerRetryQueue.id, queued!.id));
        const { done } = await w.t.context.scheduler.runNow('media_server_retry');
        expect(await done).toBe('succeeded');
        expect(w.fake.state.users.has(member.mediaUserId!)).toBe(false);
        expect((await queueOf(member.mediaUserId!))[0]).toMatchObject({
          status: 'done',
          attempts: 1,
        });
      });

      it('should delete an admin without touching their bound media account', async () => {
        const media = [...w.fake.state.users.values()].find((u) => u.name === 'bob')!;
        const admin = await aUser().admin().linkedTo(media.id).create(w.t.context.db);
        const res = await call('DELETE', `/${admin.id}`);
        expect(deleteUserResponseSchema.parse(await res.json())).toEqual({ mediaCleanup: 'none' });
        expect(w.fake.state.users.has(media.id)).toBe(true);
      });

      it('should refuse deleting oneself and unknown ids', async () => {
        const self = await call('DELETE', `/${w.admin.id}`);
        expect(self.status).toBe(422);
        expect(await errorOf(self)).toMatchObject({
          code: 'CANNOT_MODIFY_SELF',
          message: 'You cannot delete your own account',
        });
        expect(await w.row(w.admin.id)).toBeDefined();
        expect((await call('DELETE', `/${uuidv7()}`)).status).toBe(404);
      });
    });

    describe('POST /admin/users/bulk', () => {
      it('should handle each id on its own with one audit entry per user', async () => {
        const a = await w.linkedMember();
        const b = await w.linkedMember();
        const unlinked = await aUser().create(w.t.context.db);
        const missing = uuidv7();
        const res = await call('POST', '/bulk', {
          ids: [a.id, unlinked.id, missing, 'garbage', b.id, a.id],
          action: 'media_disable',
        });
        expect(res.status).toBe(200);
        expect(bulkUsersResponseSchema.parse(await res.json()).results).toEqual([
          { id: a.id, ok: true },
          { id: unlinked.id, ok: false, code: 'MEDIA_ACCOUNT_UNLINKED' },
          { id: missing, ok: false, code: 'USER_NOT_FOUND' },
          { id: 'garbage', ok: false, code: 'USER_NOT_FOUND' },
          { id: b.id, ok: true },
        ]);
        expect(w.policyOf(a.mediaUserId!).IsDisabled).toBe(true);
        expect(w.policyOf(b.mediaUserId!).IsDisabled).toBe(true);
        expect(await w.actions(a.id)).toEqual(['user.media_access']);
        expect(await w.actions(b.id)).toEqual(['user.media_access']);

        const ext = await call('POST', '/bulk', {
          ids: [a.id, w.admin.id],
          action: 'extend',
          days: 7,
        });
        expect(bulkUsersResponseSchema.parse(await ext.json()).results).toEqual([
          { id: a.id, ok: true },
          { id: w.admin.id, ok: false, code: 'ACCOUNT_NOT_RENEWABLE' },
        ]);
        const del = await call('POST', '/bulk', { ids: [b.id, w.admin.id], action: 'delete' });
        expect(bulkUsersResponseSchema.parse(await del.json()).results).toEqual([
          { id: b.id, ok: true },
          { id: w.admin.id, ok: false, code: 'CANNOT_MODIFY_SELF' },
        ]);
        const deact = await call('POST', '/bulk', { ids: [a.id], action: 'deactivate' });
        expect(bulkUsersResponseSchema.parse(await deact.json()).results).toEqual([
          { id: a.id, ok: true },
        ]);
        expect((await w.row(a.id))!.isActive).toBe(false);
      });

      it('should answer 400 for bad bulk bodies', async () => {
        const ids101 = Array.from({ length: 101 }, () => uuidv7());
        for (const body of [
          { ids: [], action: 'activate' },
          { ids: ids101, action: 'activate' },
          { ids: [uuidv7()], action: 'extend' },
          { ids: [uuidv7()], action: 'activate', days: 3 },
          { ids: [uuidv7()], action: 'promote' },
        ]) {
          const res = await call('POST', '/bulk', body);
          expect([JSON.stringify(body).slice(0, 60), res.status]).toEqual([
            JSON.stringify(body).slice(0, 60),
            400,
          ]);
        }
      });
    });
  },
);
