import {
  bindCodeSchema,
  messengerBindResponseSchema,
  messengerLookupResponseSchema,
  messengerResetPasswordResponseSchema,
  redeemResponseSchema,
} from '@usher/contracts';
import { and, eq } from 'drizzle-orm';
import { UNAMBIGUOUS_ALPHABET, verifyPassword } from '../../src/security/passwords.js';
import { auditLog, messengerBindCodes, users } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import { accountsEnv, aRedeemCode, errorOf, type AccountsEnv } from './support.js';
import { domainFlavours } from '../support/flavours.js';

let nextMessengerId = 5_000_000_001;
const freshMessengerId = () => nextMessengerId++;

// One flavour (support/flavours.ts): Jellyfin, where a password reset ends the user's other tokens.
describe.each(domainFlavours('jellyfin'))(
  `internal messenger routes on %s (${ENGINE})`,
  (flavour) => {
    let env: AccountsEnv;
    let secret: string;

    beforeAll(async () => {
      env = await accountsEnv(flavour);
      secret = env.t.config.INTERNAL_API_SECRET;
    });
    afterAll(async () => {
      await env.close();
    });
    beforeEach(() => env.media.clearFaults());

    const internal = (path: string, body: unknown, headers = { 'x-internal-secret': secret }) =>
      env.call('POST', `/api/v1/internal/messenger/${path}`, { body, headers });
    const tokenFor = async (row: { id: string; role: string; tokenVersion: number }) =>
      (
        await env.t.context.tokens.sign({
          sub: row.id,
          role: row.role as 'user',
          ver: row.tokenVersion,
        })
      ).token;
    const bindCodeFor = async (row: { id: string; role: string; tokenVersion: number }) => {
      const res = await env.call('POST', '/api/v1/me/messenger/bind-code', {
        token: await tokenFor(row),
      });
      return bindCodeSchema.parse(await res.json()).code;
    };
    /** A member bound to a fresh Telegram id (and, with a password, to a media account). */
    const boundMember = async (options: { password?: string; admin?: boolean } = {}) => {
      let builder = options.admin ? aUser().admin() : aUser();
      if (options.password) {
        const server = await env.t.context.integrations.mediaServer.get();
        const name = `tg_${Math.random().toString(36).slice(2, 10)}`;
        const media = await server.createUser(name, options.password);
        builder = builder.named(name).withPassword(options.password).linkedTo(media.id);
      }
      const row = await builder.create(env.t.context.db);
      const messengerId = freshMessengerId();
      await env.t.context.db
        .update(users)
        .set({ messengerId, messengerBoundAt: new Date() })
        .where(eq(users.id, row.id));
      return { row, messengerId };
    };

    it('should refuse callers without the internal secret', async () => {
      for (const path of ['bind', 'lookup', 'redeem', 'reset-password']) {
        const none = await env.call('POST', `/api/v1/internal/messenger/${path}`, {
          body: { messengerId: 1 },
        });
        expect(none.status).toBe(401);
        const wrong = await internal(
          path,
          { messengerId: 1 },
          { 'x-internal-secret': 'x'.repeat(64) },
        );
        expect((await errorOf(wrong)).code).toBe('INTERNAL_AUTH_FAILED');
      }
    });

    describe('bind', () => {
      it('should bind with the web code, store the bot language, and consume the code', async () => {
        const row = await aUser().create(env.t.context.db);
        const code = await bindCodeFor(row);
        const messengerId = freshMessengerId();

        const res = await internal('bind', { messengerId, code, languageCode: 'zh-hans' });

        expect(res.status).toBe(200);
        expect(messengerBindResponseSchema.parse(await res.json())).toEqual({
          userId: row.id,
          username: row.username,
        });
        const [after] = await env.t.context.db.select().from(users).where(eq(users.id, row.id));
        expect(after).toMatchObject({ messengerId, locale: 'zh-CN' });
        expect(after!.messengerBoundAt).not.toBeNull();
        expect(
          await env.t.context.db
            .select()
            .from(messengerBindCodes)
            .where(eq(messengerBindCodes.userId, row.id)),
        ).toEqual([]);
        const [audit] = await env.t.context.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'user.messenger_bind'), eq(auditLog.targetId, row.id)));
        expect(audit).toMatchObject({
          actorType: 'bot',
          actorLabel: `messenger:${messengerId}`,
          details: { messengerId },
        });
        expect(env.t.logs.text()).not.toContain(code);
        const reused = await internal('bind', { messengerId: freshMessengerId(), code });
        expect(await errorOf(reused)).toMatchObject({ code: 'BIND_CODE_INVALID' });
      });

      it('should refuse a Telegram id bound elsewhere, keeping the code', async () => {
        const { messengerId } = await boundMember();
        const row = await aUser().create(env.t.context.db);
        const code = await bindCodeFor(row);
        const res = await internal('bind', { messengerId, code });
        expect(res.status).toBe(409);
        expect((await errorOf(res)).code).toBe('MESSENGER_ID_IN_USE');
        const ok = await internal('bind', { messengerId: freshMessengerId(), code });
        expect(ok.status).toBe(200);
      });

      it('should refuse an account bound to another Telegram id', async () => {
        const row = await aUser().create(env.t.context.db);
        const code = await bindCodeFor(row);
        await env.t.context.db
          .update(users)
          .set({ messengerId: freshMessengerId(), messengerBoundAt: new Date() })
          .where(eq(users.id, row.id));
        const res = await internal('bind', { messengerId: freshMessengerId(), code });
        expect(res.status).toBe(409);
        expect((await errorOf(res)).code).toBe('MESSENGER_ALREADY_BOUND');
      });

      it('should refuse expired codes, and answer 429 after 5 wrong codes', async () => {
        const row = await aUser().create(env.t.context.db);
        const code = await bindCodeFor(row);
        await env.t.context.db
          .update(messengerBindCodes)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(messengerBindCodes.userId, row.id));
        const messengerId = freshMessengerId();
        const expired = await internal('bind', { messengerId, code });
        expect(expired.status).toBe(422);
        expect(await errorOf(expired)).toMatchObject({
          code: 'BIND_CODE_INVALID',
          message: 'The code is wrong or has expired',
        });
        for (let i = 0; i < 4; i++) await internal('bind', { messengerId, code: '000000' });
        const fresh = await bindCodeFor(row);
        const limited = await internal('bind', { messengerId, code: fresh });
        expect(limited.status).toBe(429);
        expect(
          (await internal('bind', { messengerId: freshMessengerId(), code: fresh })).status,
        ).toBe(200);
      });

      it('should validate the body', async () => {
        for (const body of [
          { messengerId: 1, code: '12345' },
          { messengerId: -5, code: '123456' },
          { messengerId: 1, code: '123456', extra: true },
        ]) {
          expect((await internal('bind', body)).status).toBe(400);
        }
      });
    });

    describe('lookup and redeem', () => {
      it('should describe the bound account and adopt the language only while unset', async () => {
        const { row, messengerId } = await boundMember();
        const res = await internal('lookup', { messengerId, languageCode: 'en-GB' });
        expect(messengerLookupResponseSchema.parse(await res.json())).toEqual({
          userId: row.id,
          username: row.username,
          email: null,
          role: 'user',
          isActive: true,
          expiresAt: row.expiresAt!.toISOString(),
          isExpired: false,
          media: { linked: false, state: 'unlinked' },
        });
        await internal('lookup', { messengerId, languageCode: 'zh-CN' });
        const [after] = await env.t.context.db.select().from(users).where(eq(users.id, row.id));
        expect(after!.locale).toBe('en');

        const unknown = await internal('lookup', { messengerId: freshMessengerId() });
        expect(unknown.status).toBe(404);
        expect(await errorOf(unknown)).toMatchObject({ code: 'MESSENGER_NOT_BOUND' });
      });

      it('should redeem for the bound account, audited as the bot', async () => {
        const { row, messengerId } = await boundMember();
        const code = await aRedeemCode(env.t.context.db, { days: 30, maxUses: 5 });
        const res = await internal('redeem', { messengerId, code: code.code });
        expect(res.status).toBe(200);
        const body = redeemResponseSchema.parse(await res.json());
        expect(body.days).toBe(30);
        expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(row.expiresAt!.getTime());
        const [audit] = await env.t.context.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'redeem.use'), eq(auditLog.targetId, code.id)));
        expect(audit).toMatchObject({ actorType: 'bot', actorLabel: `messenger:${messengerId}` });

        const twice = await internal('redeem', { messengerId, code: code.code });
        expect((await errorOf(twice)).code).toBe('REDEEM_CODE_ALREADY_USED');
        const unbound = await internal('redeem', {
          messengerId: freshMessengerId(),
          code: code.code,
        });
        expect(unbound.status).toBe(404);
      });
    });

    describe('reset-password', () => {
      it('should set a generated password on both sides, force a change and revoke tokens', async () => {
        const { row, messengerId } = await boundMember({ password: 'Before-Reset-1' });
        const oldToken = await tokenFor(row);

        const res = await internal('reset-password', { messengerId });

        expect(res.status).toBe(200);
        const body = messengerResetPasswordResponseSchema.parse(await res.json());
        expect(body.username).toBe(row.username);
        expect(body.password).toHaveLength(20);
        expect([...body.password].every((ch) => UNAMBIGUOUS_ALPHABET.includes(ch))).toBe(true);
        expect(env.mediaUser(row.username)!.password).toBe(body.password);
        const [after] = await env.t.context.db.select().from(users).where(eq(users.id, row.id));
        expect(after).toMatchObject({ mustChangePassword: true, tokenVersion: 1 });
        expect(await verifyPassword(after!.passwordHash, body.password)).toBe(true);
        expect((await env.call('GET', '/api/v1/me', { token: oldToken })).status).toBe(401);
        const [audit] = await env.t.context.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'user.password_reset'), eq(auditLog.targetId, row.id)));
        expect(audit).toMatchObject({ actorType: 'bot', details: { via: 'messenger' } });
        expect(JSON.stringify(audit)).not.toContain(body.password);
        expect(env.t.logs.text()).not.toContain(body.password);
      });

      it('should keep everything when the media server fails', async () => {
        const { row, messengerId } = await boundMember({ password: 'Before-Reset-2' });
        env.media.fail(500, /Password/, { method: 'POST' });
        const res = await internal('reset-password', { messengerId });
        expect(res.status).toBe(502);
        expect(await errorOf(res)).toMatchObject({ details: { system: 'media_server' } });
        const [after] = await env.t.context.db.select().from(users).where(eq(users.id, row.id));
        expect(after).toMatchObject({ mustChangePassword: false, tokenVersion: 0 });
        expect(env.mediaUser(row.username)!.password).toBe('Before-Reset-2');
      });

      it('should reset an admin locally, 404 an unbound id and allow 3 per hour', async () => {
        const { messengerId } = await boundMember({ admin: true });
        env.media.fail(500);
        expect((await internal('reset-password', { messengerId })).status).toBe(200);
        expect((await internal('reset-password', { messengerId })).status).toBe(200);
        expect((await internal('reset-password', { messengerId })).status).toBe(200);
        const limited = await internal('reset-password', { messengerId });
        expect(limited.status).toBe(429);
        expect(await errorOf(limited)).toMatchObject({ code: 'RATE_LIMITED' });
        const unknown = await internal('reset-password', { messengerId: freshMessengerId() });
        expect(unknown.status).toBe(404);
      });
    });
  },
);
