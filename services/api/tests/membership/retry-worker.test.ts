import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { jobRuns, mediaServerRetryQueue, users, type RetryRow } from '../../src/db/schema/index.js';
import { queryRows } from '../../src/db/sql.js';
import { MAX_RETRIES, RETRY_DELAYS_SECONDS } from '../../src/modules/membership/retry-worker.js';
import { createTestApp } from '../support/app.js';
import { createTestDatabase, ENGINE } from '../support/database.js';
import { DAY, startWorld, type World } from '../users/helpers.js';
import { domainFlavours } from '../support/flavours.js';

// One flavour (support/flavours.ts): Emby.
describe.each(domainFlavours('emby'))(`media_server_retry job on %s (${ENGINE})`, (flavour) => {
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

  const runJob = async () => {
    const { runId, done } = await w.t.context.scheduler.runNow('media_server_retry');
    const status = await done;
    const [row] = await w.t.context.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
    return { status, summary: row!.summary as Record<string, number> };
  };
  const rowsFor = (mediaUserId: string) =>
    w.t.context.db
      .select()
      .from(mediaServerRetryQueue)
      .where(eq(mediaServerRetryQueue.mediaUserId, mediaUserId));
  const makeDue = (id: string) =>
    w.t.context.db
      .update(mediaServerRetryQueue)
      .set({ nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(mediaServerRetryQueue.id, id));
  /** Seconds from the database's now to the row's next attempt. */
  const dueIn = async (id: string) => {
    const [row] = await queryRows<{ s: number | string }>(
      w.t.context.db,
      sql`select extract(epoch from next_attempt_at - now()) as s
          from media_server_retry_queue where id = ${id}`,
    );
    return Number(row!.s);
  };
  /** A member whose expiry disable failed: a pending `disable` row, due in 30 s. */
  const failedDisable = async () => {
    const member = await w.linkedMember({ expiresAt: new Date(Date.now() - 1000) });
    w.fake.fail(503, /Policy/);
    expect(await w.t.context.accessSync(member.id, 'expiry')).toBe('queued');
    w.fake.clearFaults();
    const [row] = await rowsFor(member.mediaUserId!);
    return { member, row: row! };
  };

  it('should leave rows alone until due, then apply the change', async () => {
    const { member, row } = await failedDisable();
    const wait = await dueIn(row.id);
    expect(wait).toBeGreaterThan(25);
    expect(wait).toBeLessThanOrEqual(30);
    const early = await runJob();
    expect(early.status).toBe('skipped');
    expect((await rowsFor(member.mediaUserId!))[0]).toMatchObject({
      status: 'pending',
      attempts: 0,
    });

    await makeDue(row.id);
    const now = await runJob();
    expect(now).toMatchObject({ status: 'succeeded', summary: { due: 1, done: 1 } });
    expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(true);
    expect((await w.row(member.id))!.mediaDisabled).toBe(true);
    expect((await rowsFor(member.mediaUserId!))[0]).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('should back off 2 min, 10 min, 1 h, 6 h, 24 h and give up after the 6th failed retry', async () => {
    const { member, row } = await failedDisable();
    w.fake.fail(503, /Policy/);
    for (let retry = 1; retry <= MAX_RETRIES; retry++) {
      await makeDue(row.id);
      const result = await runJob();
      const [now] = await rowsFor(member.mediaUserId!);
      expect(now!.attempts).toBe(retry);
      if (retry < MAX_RETRIES) {
        expect(result.summary).toMatchObject({ retry: 1 });
        expect(now!.status).toBe('pending');
        const wait = await dueIn(row.id);
        const expected = RETRY_DELAYS_SECONDS[retry - 1]!;
        expect(wait).toBeGreaterThan(expected - 5);
        expect(wait).toBeLessThanOrEqual(expected);
      } else {
        expect(result.summary).toMatchObject({ gaveUp: 1 });
        expect(now!.status).toBe('gave_up');
        expect(now!.lastError).toBeTruthy();
      }
    }
    expect(RETRY_DELAYS_SECONDS).toEqual([120, 600, 3600, 21_600, 86_400]);
    const metrics = await w.t.context.metrics.registry.metrics();
    expect(metrics).toMatch(/usher_media_retry_gave_up_total\{operation="disable"\} 1/);
    const gaveUp = w.t.logs.lines().find((l) => String(l.msg).includes('gave up'));
    expect(gaveUp).toMatchObject({ level: 'error', retryId: row.id });
    // A row that gave up is never picked again.
    w.fake.clearFaults();
    await makeDue(row.id);
    expect((await runJob()).status).toBe('skipped');
    expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(false);
  });

  it('should recompute the desired state: a renewal after a failed disable enables', async () => {
    const { member, row } = await failedDisable();
    await w.fake.down();
    const renewed = await w.t.call('POST', `/api/v1/admin/users/${member.id}/extend`, {
      token: w.adminToken,
      body: { days: 30 },
    });
    expect(((await renewed.json()) as { mediaSync: string }).mediaSync).toBe('none');
    await w.fake.up();
    // Meanwhile the server drifted to disabled (e.g. the disable landed late).
    w.policyOf(member.mediaUserId!).IsDisabled = true;

    await makeDue(row.id);
    await runJob();
    expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(false);
    expect((await w.row(member.id))!.mediaDisabled).toBe(false);
    expect((await rowsFor(member.mediaUserId!))[0]).toMatchObject({ status: 'done' });
  });

  it('should complete access rows without a call when the user or the link is gone', async () => {
    const { member, row } = await failedDisable();
    await w.t.context.db.delete(users).where(eq(users.id, member.id));
    w.fake.clearRequests();
    await makeDue(row.id);
    expect((await runJob()).summary).toMatchObject({ done: 1 });
    expect(w.fake.requests('/Policy')).toEqual([]);
    expect((await rowsFor(member.mediaUserId!))[0]).toMatchObject({ status: 'done' });
  });

  it('should treat deletes as idempotent and never delete a media user linked again', async () => {
    const insert = async (mediaUserId: string): Promise<RetryRow> => {
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
    const unknown = await insert('f'.repeat(32));
    const relinked = await w.linkedMember();
    await insert(relinked.mediaUserId!);
    const result = await runJob();
    expect(result.summary).toMatchObject({ done: 2 });
    expect((await rowsFor(unknown.mediaUserId))[0]).toMatchObject({ status: 'done' });
    expect(w.fake.state.users.has(relinked.mediaUserId!)).toBe(true);
    expect((await rowsFor(relinked.mediaUserId!))[0]).toMatchObject({ status: 'done' });
  });

  it('should take at most 50 due rows per run', async () => {
    const values = Array.from({ length: 55 }, (_, i) => ({
      id: uuidv7(),
      operation: 'delete',
      mediaUserId: `${String(i).padStart(2, '0')}${'a'.repeat(30)}`,
      origin: 'register_cleanup',
      nextAttemptAt: new Date(Date.now() - DAY),
    }));
    await w.t.context.db.insert(mediaServerRetryQueue).values(values);
    expect((await runJob()).summary).toMatchObject({ due: 50, done: 50 });
    expect((await runJob()).summary).toMatchObject({ due: 5, done: 5 });
  });
});

describe(`media_server_retry without a media server (${ENGINE})`, () => {
  it('should record a skipped run and keep the rows', async () => {
    const database = await createTestDatabase();
    const t = createTestApp(database.handle);
    try {
      await t.context.db.insert(mediaServerRetryQueue).values({
        id: uuidv7(),
        operation: 'delete',
        mediaUserId: 'a'.repeat(32),
        origin: 'user_delete',
        nextAttemptAt: new Date(Date.now() - 1000),
      });
      const { done } = await t.context.scheduler.runNow('media_server_retry');
      expect(await done).toBe('skipped');
      const [row] = await t.context.db.select().from(mediaServerRetryQueue);
      expect(row).toMatchObject({ status: 'pending', attempts: 0 });
    } finally {
      await database.close();
    }
  });
});
