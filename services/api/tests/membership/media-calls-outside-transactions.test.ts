// No media-server call inside a transaction (docs/architecture.md, "Media access sync"): the
// forced sync behind `POST /admin/users/:id/media-sync` and the retry worker's deletes call the
// server between short transactions, and the per-user media lock refuses to join an open one.
// The calls are held on a promise the test controls, so nothing really sleeps.
import { eq, sql } from 'drizzle-orm';
import { userMediaSyncResponseSchema } from '@usher/contracts';
import { v7 as uuidv7 } from 'uuid';
import { jobRuns, mediaServerRetryQueue, type RetryRow } from '../../src/db/schema/index.js';
import { withMediaLock } from '../../src/modules/membership/index.js';
import { createTestDatabase, ENGINE } from '../support/database.js';
import { callGate, expectNoTransactionOpen, within } from '../users/held-calls.js';
import { DAY, startWorld, type World } from '../users/helpers.js';
import { domainFlavours } from '../support/flavours.js';

// One flavour (support/flavours.ts): Jellyfin.
describe.each(domainFlavours('jellyfin'))(
  `media-server calls outside transactions on %s (${ENGINE})`,
  (flavour) => {
    const gate = callGate();
    let w: World;

    beforeAll(async () => {
      w = await startWorld(flavour, { wrapMediaServer: gate.wrapServer });
    });
    afterAll(async () => {
      await w.close();
    });
    afterEach(() => {
      gate.releaseAll();
      w.fake.clearFaults();
    });

    describe('POST /admin/users/:id/media-sync', () => {
      const forceSync = (id: string, body: { policy?: boolean }) =>
        w.t.call('POST', `/api/v1/admin/users/${id}/media-sync`, { token: w.adminToken, body });

      it('should hold no transaction while the media server answers', async () => {
        const member = await w.linkedMember({ expiresAt: new Date(Date.now() - DAY) });
        const held = gate.holdPolicy(member.mediaUserId!, true);
        const reply = forceSync(member.id, {});
        const call = await within(held, 3000, 'the forced disable call');
        try {
          expect(call.patch).toEqual({ disabled: true });
          await expectNoTransactionOpen(w);
          // The write was declared and committed before the call.
          expect((await w.row(member.id))!.mediaDisabled).toBe(true);
        } finally {
          call.release();
        }
        const res = await within(reply, 3000, 'the forced sync after its call');
        expect(res.status).toBe(200);
        expect(userMediaSyncResponseSchema.parse(await res.json())).toMatchObject({
          mediaSync: 'applied',
          user: { mediaDisabled: true },
        });
        expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(true);
        expect(await w.actions(member.id)).toContain('user.media_sync');
      }, 15_000);

      it('should hold no transaction while the policy template is written', async () => {
        const member = await w.linkedMember();
        w.policyOf(member.mediaUserId!).IsHidden = false;
        const held = gate.holdPolicy(member.mediaUserId!, false);
        const reply = forceSync(member.id, { policy: true });
        const call = await within(held, 3000, 'the policy call');
        try {
          expect(call.patch).toMatchObject({ disabled: false, allowRemoteAccess: true });
          await expectNoTransactionOpen(w);
        } finally {
          call.release();
        }
        const res = await within(reply, 3000, 'the forced sync after its call');
        expect(res.status).toBe(200);
        expect(w.policyOf(member.mediaUserId!)).toMatchObject({
          IsDisabled: false,
          IsHidden: true,
        });
      }, 15_000);

      it('should end enabled when a renewal commits while the forced disable is in flight', async () => {
        const member = await w.linkedMember({ expiresAt: new Date(Date.now() - 60_000) });
        const held = gate.holdPolicy(member.mediaUserId!, true);
        const reply = forceSync(member.id, {});
        const call = await within(held, 3000, 'the forced disable call');
        try {
          const renewal = await within(
            w.t.call('POST', `/api/v1/admin/users/${member.id}/extend`, {
              token: w.adminToken,
              body: { days: 30 },
            }),
            3000,
            'the renewal during the forced disable',
          );
          expect(renewal.status).toBe(200);
          expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(false);
        } finally {
          call.release();
        }
        // The stale disable lands last; the re-check sees the renewal and enables again.
        const res = await within(reply, 3000, 'the forced sync after its call');
        expect(res.status).toBe(200);
        expect(userMediaSyncResponseSchema.parse(await res.json())).toMatchObject({
          mediaSync: 'applied',
          user: { mediaDisabled: false },
        });
        expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(false);
        expect((await w.row(member.id))!.mediaDisabled).toBe(false);
      }, 15_000);
    });

    describe('media_server_retry deletes', () => {
      const queueDelete = async (mediaUserId: string): Promise<RetryRow> => {
        const [row] = await w.t.context.db
          .insert(mediaServerRetryQueue)
          .values({
            id: uuidv7(),
            operation: 'delete',
            mediaUserId,
            origin: 'user_delete',
            nextAttemptAt: new Date(Date.now() - 1000),
          })
          .returning();
        return row!;
      };
      const orphan = async () => {
        const server = await w.t.context.integrations.mediaServer.get();
        const media = await server.createUser(
          `orphan_${Math.random().toString(36).slice(2, 9)}`,
          'pw-1',
        );
        return { mediaUserId: media.id, row: await queueDelete(media.id) };
      };
      const queueRow = async (id: string) =>
        (
          await w.t.context.db
            .select()
            .from(mediaServerRetryQueue)
            .where(eq(mediaServerRetryQueue.id, id))
        )[0]!;
      const runJob = () => w.t.context.scheduler.runNow('media_server_retry');
      const summaryOf = async (runId: string) =>
        (await w.t.context.db.select().from(jobRuns).where(eq(jobRuns.id, runId)))[0]!.summary;

      it('should hold no transaction or row lock while the delete call waits', async () => {
        const { mediaUserId, row } = await orphan();
        const held = gate.holdDelete(mediaUserId);
        const { runId, done } = await runJob();
        const call = await within(held, 3000, 'the delete call');
        try {
          await expectNoTransactionOpen(w);
          // The queue row is not locked either: another transaction takes it at once.
          await within(
            w.t.context.db.transaction((tx) =>
              tx.execute(
                sql`select id from media_server_retry_queue where id = ${row.id} for update nowait`,
              ),
            ),
            1000,
            'locking the queue row during the call',
          );
        } finally {
          call.release();
        }
        expect(await within(done, 5000, 'the retry run')).toBe('succeeded');
        expect(await summaryOf(runId)).toMatchObject({ done: 1 });
        expect(await queueRow(row.id)).toMatchObject({ status: 'done', attempts: 1 });
        expect(w.fake.state.users.has(mediaUserId)).toBe(false);
      }, 15_000);

      it('should count a failed delete as one failed retry', async () => {
        const { mediaUserId, row } = await orphan();
        w.fake.fail(503, /Users/, { method: 'DELETE' });
        const { runId, done } = await runJob();
        expect(await within(done, 5000, 'the retry run')).toBe('succeeded');
        expect(await summaryOf(runId)).toMatchObject({ retry: 1 });
        expect(await queueRow(row.id)).toMatchObject({ status: 'pending', attempts: 1 });
        expect(w.fake.state.users.has(mediaUserId)).toBe(true);
      }, 15_000);

      it('should leave a row completed meanwhile as it is', async () => {
        const { mediaUserId, row } = await orphan();
        const held = gate.holdDelete(mediaUserId);
        const { runId, done } = await runJob();
        const call = await within(held, 3000, 'the delete call');
        try {
          await w.t.context.db
            .update(mediaServerRetryQueue)
            .set({ status: 'done', lastError: 'completed elsewhere' })
            .where(eq(mediaServerRetryQueue.id, row.id));
        } finally {
          call.release();
        }
        expect(await within(done, 5000, 'the retry run')).toBe('succeeded');
        expect(await summaryOf(runId)).toMatchObject({ skipped: 1 });
        expect(await queueRow(row.id)).toMatchObject({
          status: 'done',
          attempts: 0,
          lastError: 'completed elsewhere',
        });
      }, 15_000);
    });
  },
);

describe(`withMediaLock (${ENGINE})`, () => {
  it('should refuse an open transaction and run nothing in it', async () => {
    const database = await createTestDatabase();
    try {
      const db = database.handle.db;
      let ran = false;
      await db.transaction(async (tx) => {
        await expect(
          withMediaLock(tx, uuidv7(), async () => {
            ran = true;
          }),
        ).rejects.toThrow(/withMediaLock was handed an open transaction/);
      });
      expect(ran).toBe(false);
      expect(await withMediaLock(db, uuidv7(), async () => 'ran')).toBe('ran');
    } finally {
      await database.close();
    }
  });
});
