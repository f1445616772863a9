// Redemption against the testkit media-server fake: the code
// moves the expiry and access sync flips the real policy's IsDisabled through the adapter.
import { redeemCodeSchema, redeemResponseSchema } from '@usher/contracts';
import { eq, sql } from 'drizzle-orm';
import {
  auditLog,
  jobRuns,
  mediaServerRetryQueue,
  redeemCodes,
  redemptions,
  users,
} from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { DAY, startWorld, type World } from '../users/helpers.js';
import { domainFlavours } from '../support/flavours.js';

// One flavour (support/flavours.ts): Emby (tests/journey redeems on both).
describe.each(domainFlavours('emby'))(
  `redeem with media access sync on %s (${ENGINE})`,
  (flavour) => {
    let w: World;

    beforeAll(async () => {
      w = await startWorld(flavour);
    });
    afterAll(async () => {
      await w.close();
    });
    afterEach(async () => {
      w.fake.clearFaults();
      await w.fake.up();
    });

    const newCode = async (days: number) => {
      const res = await w.t.call('POST', '/api/v1/admin/redeem-codes', {
        token: w.adminToken,
        body: { days },
      });
      expect(res.status).toBe(201);
      return redeemCodeSchema.parse(await res.json());
    };
    /** A member whose membership ended yesterday and whose media account is switched off. */
    const expiredMember = () =>
      w.linkedMember({ expiresAt: new Date(Date.now() - DAY), disabled: true });
    const redeem = async (member: Parameters<World['tokenFor']>[0], code: string) => {
      const res = await w.t.call('POST', '/api/v1/me/redeem', {
        token: await w.tokenFor(member),
        body: { code },
      });
      expect(res.status).toBe(200);
      return redeemResponseSchema.parse(await res.json());
    };
    /** Policy writes the fake received for one media user. */
    const policyWrites = (mediaUserId: string) =>
      w.fake.requests('/Policy').filter((r) => r.method === 'POST' && r.path.includes(mediaUserId));
    const queueFor = (mediaUserId: string) =>
      w.t.context.db
        .select()
        .from(mediaServerRetryQueue)
        .where(eq(mediaServerRetryQueue.mediaUserId, mediaUserId));

    it('should move the expiry and re-enable the disabled media account', async () => {
      const member = await expiredMember();
      const mediaId = member.mediaUserId!;
      const before = { ...w.policyOf(mediaId) };
      expect(before.IsDisabled).toBe(true);
      const code = await newCode(30);
      w.fake.clearRequests();

      const body = await redeem(member, code.code);

      expect(body).toMatchObject({
        days: 30,
        previousExpiresAt: member.expiresAt!.toISOString(),
        mediaSync: 'applied',
      });
      // Expired members restart from now, not from their old end.
      expect(Math.abs(new Date(body.expiresAt).getTime() - (Date.now() + 30 * DAY))).toBeLessThan(
        10_000,
      );
      // The whole policy is written back: only IsDisabled changes.
      expect(w.policyOf(mediaId)).toEqual({ ...before, IsDisabled: false });
      expect(policyWrites(mediaId)).toHaveLength(1);
      const row = await w.row(member.id);
      expect(row).toMatchObject({ mediaDisabled: false });
      expect(row!.expiresAt!.toISOString()).toBe(body.expiresAt);
      expect(await queueFor(mediaId)).toEqual([]);
    });

    it('should leave the media account off when an admin switched access off', async () => {
      const member = await expiredMember();
      await w.t.context.db
        .update(users)
        .set({ mediaAccessDisabled: true })
        .where(eq(users.id, member.id));
      const code = await newCode(7);
      w.fake.clearRequests();

      const body = await redeem(member, code.code);

      expect(body.mediaSync).toBe('none');
      expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(Date.now());
      expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(true);
      expect(policyWrites(member.mediaUserId!)).toEqual([]);
      expect((await w.row(member.id))!.mediaDisabled).toBe(true);
    });

    it('should keep the redemption and queue an enable when the media server is down', async () => {
      const member = await expiredMember();
      const mediaId = member.mediaUserId!;
      const code = await newCode(10);
      await w.fake.down();

      const body = await redeem(member, code.code);

      // The renewal stands: expiry, code use, redemption row and audit are committed.
      expect(body.mediaSync).toBe('queued');
      const row = await w.row(member.id);
      expect(row!.expiresAt!.toISOString()).toBe(body.expiresAt);
      expect(row!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 9 * DAY);
      const [used] = await w.t.context.db
        .select()
        .from(redeemCodes)
        .where(eq(redeemCodes.id, code.id));
      expect(used!.usedCount).toBe(1);
      const history = await w.t.context.db
        .select()
        .from(redemptions)
        .where(eq(redemptions.userId, member.id));
      expect(history).toMatchObject([{ code: code.code, kind: 'renew', days: 10 }]);
      const audits = await w.t.context.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(eq(auditLog.targetId, code.id));
      expect(audits.map((a) => a.action)).toContain('redeem.use');
      // Nothing reached the media server, so Usher still records the account as disabled...
      expect(row!.mediaDisabled).toBe(true);
      expect(w.policyOf(mediaId).IsDisabled).toBe(true);
      // ...and one enable waits in the retry queue.
      const queued = await queueFor(mediaId);
      expect(queued).toHaveLength(1);
      expect(queued[0]).toMatchObject({
        operation: 'enable',
        origin: 'renewal',
        status: 'pending',
        attempts: 0,
        userId: member.id,
      });

      // Once the server is back and the row is due, the retry worker finishes the job.
      await w.fake.up();
      await w.t.context.db
        .update(mediaServerRetryQueue)
        .set({ nextAttemptAt: sql`now() - interval '1 second'` })
        .where(eq(mediaServerRetryQueue.id, queued[0]!.id));
      const { runId, done } = await w.t.context.scheduler.runNow('media_server_retry');
      expect(await done).toBe('succeeded');
      const [run] = await w.t.context.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
      expect(run!.status).toBe('succeeded');
      expect(w.policyOf(mediaId).IsDisabled).toBe(false);
      expect((await w.row(member.id))!.mediaDisabled).toBe(false);
      expect((await queueFor(mediaId))[0]).toMatchObject({ status: 'done' });
    });

    it('should queue an enable when the media server refuses the policy write', async () => {
      const member = await expiredMember();
      const code = await newCode(3);
      w.fake.fail(500, /Policy/, { method: 'POST' });

      const body = await redeem(member, code.code);

      expect(body.mediaSync).toBe('queued');
      expect((await w.row(member.id))!.expiresAt!.toISOString()).toBe(body.expiresAt);
      expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(true);
      expect(await queueFor(member.mediaUserId!)).toMatchObject([
        { operation: 'enable', origin: 'renewal', status: 'pending' },
      ]);
    });
  },
);
