import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { jobRuns, mediaServerRetryQueue, users } from '../../src/db/schema/index.js';
import { runExpiryCheck } from '../../src/modules/membership/expiry.js';
import { createTestApp } from '../support/app.js';
import { createTestDatabase, ENGINE } from '../support/database.js';
import { memoryLogger } from '../support/logs.js';
import { aUser } from '../support/users.js';
import { DAY, startWorld, type World } from '../users/helpers.js';
import { domainFlavours } from '../support/flavours.js';

const run = { signal: new AbortController().signal, logger: memoryLogger().logger };

// One flavour (support/flavours.ts): Jellyfin (tests/journey runs expiry_check on both).
describe.each(domainFlavours('jellyfin'))(`expiry_check job on %s (${ENGINE})`, (flavour) => {
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
    const { runId, done } = await w.t.context.scheduler.runNow('expiry_check');
    const status = await done;
    const [row] = await w.t.context.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
    return { status, summary: row!.summary as Record<string, number> };
  };
  /** Policy writes the fake received for one media user. */
  const policyWrites = (mediaUserId: string) =>
    w.fake.requests('/Policy').filter((r) => r.method === 'POST' && r.path.includes(mediaUserId));

  it('should disable exactly the expired, still-enabled members, and change nothing on a second run', async () => {
    const past = new Date(Date.now() - 60_000);
    const expired = await w.linkedMember({ expiresAt: past });
    const expired2 = await w.linkedMember({ expiresAt: new Date(Date.now() - 3 * DAY) });
    const active = await w.linkedMember({ expiresAt: new Date(Date.now() + DAY) });
    const forever = await w.linkedMember({ expiresAt: null });
    const already = await w.linkedMember({ expiresAt: past, disabled: true });
    const unlinked = await aUser().expiresAt(past).create(w.t.context.db);
    const adminMedia = await w.linkedMember({ expiresAt: null });
    await w.t.context.db.update(users).set({ role: 'admin' }).where(eq(users.id, adminMedia.id));
    w.fake.clearRequests();

    const first = await runJob();
    expect(first.status).toBe('succeeded');
    expect(first.summary).toMatchObject({ checked: 2, disabled: 2, queued: 0 });
    for (const m of [expired, expired2]) {
      expect(w.policyOf(m.mediaUserId!).IsDisabled).toBe(true);
      expect((await w.row(m.id))!.mediaDisabled).toBe(true);
      expect(policyWrites(m.mediaUserId!)).toHaveLength(1);
    }
    for (const m of [active, forever, adminMedia]) {
      expect(w.policyOf(m.mediaUserId!).IsDisabled).toBe(false);
      expect(policyWrites(m.mediaUserId!)).toHaveLength(0);
    }
    expect(policyWrites(already.mediaUserId!)).toHaveLength(0);
    expect((await w.row(unlinked.id))!.mediaDisabled).toBe(false);

    w.fake.clearRequests();
    const second = await runJob();
    expect(second).toMatchObject({ status: 'skipped', summary: { checked: 0, disabled: 0 } });
    expect(w.fake.requests('/Policy')).toEqual([]);
  });

  it('should disable each member once when two replicas run at the same time', async () => {
    const members = await Promise.all(
      [1, 2, 3].map(() => w.linkedMember({ expiresAt: new Date(Date.now() - 1000) })),
    );
    w.fake.clearRequests();
    // Straight to the routine, past the job lease: the per-user lock alone must hold.
    const [a, b] = await Promise.all([
      runExpiryCheck(w.t.context, run),
      runExpiryCheck(w.t.context, run),
    ]);
    const disabled = (a.summary!.disabled as number) + (b.summary!.disabled as number);
    expect(disabled).toBe(3);
    for (const m of members) {
      expect(policyWrites(m.mediaUserId!)).toHaveLength(1);
      expect(w.policyOf(m.mediaUserId!).IsDisabled).toBe(true);
    }
  });

  it('should queue failures once and leave queued members to the retry worker', async () => {
    const member = await w.linkedMember({ expiresAt: new Date(Date.now() - 1000) });
    await w.fake.down();
    const first = await runJob();
    expect(first.summary).toMatchObject({ checked: 1, queued: 1, disabled: 0 });
    const queue = () =>
      w.t.context.db
        .select()
        .from(mediaServerRetryQueue)
        .where(eq(mediaServerRetryQueue.mediaUserId, member.mediaUserId!));
    const [row] = await queue();
    expect(row).toMatchObject({ operation: 'disable', origin: 'expiry', status: 'pending' });

    const second = await runJob();
    expect(second.summary).toMatchObject({ checked: 0, waiting: 1 });
    expect(await queue()).toEqual([row]);
  });
});

describe(`expiry_check without a media server (${ENGINE})`, () => {
  it('should record a skipped run', async () => {
    const database = await createTestDatabase();
    const t = createTestApp(database.handle);
    try {
      await aUser()
        .linkedTo(uuidv7().replace(/-/g, ''))
        .expiresAt(new Date(Date.now() - DAY))
        .create(t.context.db);
      const { runId, done } = await t.context.scheduler.runNow('expiry_check');
      expect(await done).toBe('skipped');
      const [row] = await t.context.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
      expect(row!.summary).toEqual({ reason: 'media server not configured' });
    } finally {
      await database.close();
    }
  });
});
