import { jobListSchema, jobRunSchema, runJobResponseSchema } from '@usher/contracts';
import { eventually } from '@usher/testkit';
import { and, eq, sql } from 'drizzle-orm';
import { jobRuns, mediaServerRetryQueue, users } from '../../src/db/schema/index.js';
import { queryRows } from '../../src/db/sql.js';
import type { MediaServer } from '../../src/integrations/media-server/port.js';
import { POLICY_APPLY_CONCURRENCY } from '../../src/modules/membership/policy-apply.js';
import { ENGINE } from '../support/database.js';
import { domainFlavours, type Flavour } from '../support/flavours.js';
import { aUser } from '../support/users.js';
import { startMediaWorld } from '../media/harness.js';
import { expectNoTransactionOpen } from '../users/held-calls.js';
import { DAY, startWorld, type World } from '../users/helpers.js';

const JOB = 'media_policy_apply';

/**
 * Counts the adapter's `updatePolicy` calls in flight (from the call to its answer) and, once
 * armed, holds every call after the first `passFirst` on one barrier the test opens.
 */
function policyFlight() {
  const state = { inFlight: 0, maxInFlight: 0, calls: 0, passFirst: Infinity };
  let open: () => void = () => undefined;
  let barrier: Promise<void> | null = null;
  return {
    state,
    arm(passFirst: number) {
      Object.assign(state, { inFlight: 0, maxInFlight: 0, calls: 0, passFirst });
      barrier = new Promise<void>((r) => (open = r));
    },
    release() {
      state.passFirst = Infinity;
      barrier = null;
      open();
    },
    wrap: (server: MediaServer): MediaServer =>
      new Proxy(server, {
        get(target, prop) {
          if (prop === 'updatePolicy') {
            return async (...args: Parameters<MediaServer['updatePolicy']>) => {
              state.calls += 1;
              state.inFlight += 1;
              state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
              try {
                if (barrier && state.calls > state.passFirst) await barrier;
                return await target.updatePolicy(...args);
              } finally {
                state.inFlight -= 1;
              }
            };
          }
          const value: unknown = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
  };
}

/** The server field of `MEMBER_STREAM_LIMIT` (50-integrations.md §1.5). */
const streamField = (flavour: Flavour) =>
  flavour === 'emby' ? 'SimultaneousStreamLimit' : 'MaxActiveSessions';

// One flavour (support/flavours.ts): Jellyfin, whose policy POST also needs the provider ids.
describe.each(domainFlavours('jellyfin'))(`media_policy_apply job on %s (${ENGINE})`, (flavour) => {
  let w: World;
  const flight = policyFlight();
  let limit = 3;

  beforeAll(async () => {
    w = await startWorld(flavour, { wrapMediaServer: flight.wrap });
  });
  afterAll(async () => {
    flight.release();
    await w.close();
  });
  afterEach(() => {
    flight.release();
    w.fake.clearFaults();
  });

  /** A new template: another stream limit each time, downloads on. */
  const changeTemplate = async () => {
    limit += 1;
    const res = await w.t.call('PUT', '/api/v1/admin/settings/media_server', {
      token: w.adminToken,
      body: { values: { MEMBER_STREAM_LIMIT: limit, MEMBER_ALLOW_DOWNLOADS: true } },
    });
    expect(res.status).toBe(200);
    return limit;
  };
  const runJob = async () => {
    const { runId, done } = await w.t.context.scheduler.runNow(JOB);
    const status = await done;
    return { status, run: await runOf(runId) };
  };
  const runOf = async (runId: string) =>
    (await w.t.context.db.select().from(jobRuns).where(eq(jobRuns.id, runId)))[0]!;
  /** Linked member rows, and those of them pointing at the server's administrator. */
  const linkedCount = async () => {
    const admin = w.fake.seeded!.users['admin']!.id;
    const [row] = await queryRows<{ n: number; admins: number }>(
      w.t.context.db,
      sql`select count(*)::int as n, (count(*) filter (where media_user_id = ${admin}))::int as admins
          from users where role = 'user' and media_user_id is not null`,
    );
    return { total: row!.n, admins: row!.admins };
  };
  const policyRetries = (mediaUserId: string) =>
    w.t.context.db
      .select()
      .from(mediaServerRetryQueue)
      .where(
        and(
          eq(mediaServerRetryQueue.mediaUserId, mediaUserId),
          eq(mediaServerRetryQueue.operation, 'policy'),
        ),
      );

  it('should be listed in GET /admin/jobs as manual only', async () => {
    const res = await w.t.call('GET', '/api/v1/admin/jobs', { token: w.adminToken });
    expect(res.status).toBe(200);
    const jobs = jobListSchema.parse(await res.json()).data;
    expect(jobs.find((j) => j.name === JOB)).toMatchObject({
      enabled: false,
      disabledBy: 'manual only',
      nextRunAt: null,
      running: false,
    });
    // Every job of the seed's table (30-settings.md §9) is listed, this one included.
    expect(jobs.map((j) => j.name)).toEqual(
      expect.arrayContaining([
        'expiry_check',
        'payments_expire',
        'media_server_retry',
        'calendar_sync',
        'ranking_daily',
        'ranking_weekly',
        'devices_enforce_blacklist',
        'cleanup',
        'media_policy_apply',
        'media_quality_scan',
      ]),
    );
  });

  it('should write a changed template to every linked member, keeping the derived IsDisabled', async () => {
    const active = await w.linkedMember({ expiresAt: new Date(Date.now() + 30 * DAY) });
    // Expired while its media account was still on: the job must not re-enable it, it disables.
    const expired = await w.linkedMember({ expiresAt: new Date(Date.now() - DAY) });
    const expiredOff = await w.linkedMember({
      expiresAt: new Date(Date.now() - DAY),
      disabled: true,
    });
    // Switched off by an admin (desired disabled) while the server still has it on.
    const switchedOff = await w.linkedMember({ expiresAt: new Date(Date.now() + 30 * DAY) });
    await w.t.context.db
      .update(users)
      .set({ mediaAccessDisabled: true })
      .where(eq(users.id, switchedOff.id));
    const unlinked = await aUser().named(`unlinked_${flavour}`).create(w.t.context.db);
    // A member row pointing at the server's administrator: never written.
    const serverAdmin = w.fake.seeded!.users['admin']!.id;
    await aUser().named(`linked_admin_${flavour}`).linkedTo(serverAdmin).create(w.t.context.db);
    const adminBefore = structuredClone(w.policyOf(serverAdmin));
    const streams = await changeTemplate();
    expect(w.policyOf(active.mediaUserId!)[streamField(flavour)]).not.toBe(streams);

    const started = await w.t.call('POST', `/api/v1/admin/jobs/${JOB}/run`, {
      token: w.adminToken,
      body: {},
    });
    expect(started.status).toBe(202);
    const { runId } = runJobResponseSchema.parse(await started.json());
    const run = await eventually(async () => {
      const res = await w.t.call('GET', `/api/v1/admin/job-runs/${runId}`, {
        token: w.adminToken,
      });
      const body = jobRunSchema.parse(await res.json());
      expect(body.status).not.toBe('running');
      return body;
    });

    const { total, admins } = await linkedCount();
    expect(admins).toBe(1);
    expect(run.status).toBe('succeeded');
    expect(run.summary).toEqual({
      progress: { membersTotal: total, membersDone: total },
      applied: total - 1,
      skipped: 1,
      queued: 0,
      failed: 0,
    });
    for (const member of [active, expired, expiredOff, switchedOff]) {
      expect(w.policyOf(member.mediaUserId!)).toMatchObject({
        [streamField(flavour)]: streams,
        EnableContentDownloading: true,
        IsAdministrator: false,
        IsHidden: true,
        EnableContentDeletion: false,
      });
    }
    expect(w.policyOf(active.mediaUserId!).IsDisabled).toBe(false);
    expect(w.policyOf(expired.mediaUserId!).IsDisabled).toBe(true);
    expect(w.policyOf(expiredOff.mediaUserId!).IsDisabled).toBe(true);
    expect(w.policyOf(switchedOff.mediaUserId!).IsDisabled).toBe(true);
    expect((await w.row(switchedOff.id))!.mediaDisabled).toBe(true);
    expect((await w.row(expired.id))!.mediaDisabled).toBe(true);
    expect((await w.row(active.id))!.mediaDisabled).toBe(false);
    expect(w.policyOf(serverAdmin)).toEqual(adminBefore);
    expect(w.policyOf(serverAdmin).IsAdministrator).toBe(true);
    const { password: _password, ...unlinkedRow } = unlinked;
    expect(await w.row(unlinked.id)).toEqual(unlinkedRow);
  });

  it(`should keep at most ${POLICY_APPLY_CONCURRENCY} writes in flight, with no transaction open, and report progress`, async () => {
    for (let i = 0; i < 10; i++) await w.linkedMember();
    const streams = await changeTemplate();
    const { total, admins } = await linkedCount();
    expect(total).toBeGreaterThan(POLICY_APPLY_CONCURRENCY + 2);
    // Two writes go through; every later one waits at the server until released.
    flight.arm(2);

    const { runId, done } = await w.t.context.scheduler.runNow(JOB);

    const running = await eventually(async () => {
      expect(flight.state.inFlight).toBe(POLICY_APPLY_CONCURRENCY);
      const run = await runOf(runId);
      expect(run.summary).toEqual({ progress: { membersTotal: total, membersDone: 2 } });
      return run;
    });
    expect(running.status).toBe('running');
    await expectNoTransactionOpen(w);
    expect(flight.state.calls).toBe(2 + POLICY_APPLY_CONCURRENCY);
    flight.release();
    expect(await done).toBe('succeeded');
    expect(flight.state.maxInFlight).toBe(POLICY_APPLY_CONCURRENCY);
    const finished = await runOf(runId);
    expect(finished.summary).toMatchObject({
      progress: { membersTotal: total, membersDone: total },
      applied: total - admins,
      skipped: admins,
      queued: 0,
    });
    const members = await w.t.context.db.select().from(users).where(eq(users.role, 'user'));
    const linked = members.filter(
      (m) => m.mediaUserId && m.mediaUserId !== w.fake.seeded!.users['admin']!.id,
    );
    expect(linked).toHaveLength(total - admins);
    for (const m of linked) expect(w.policyOf(m.mediaUserId!)[streamField(flavour)]).toBe(streams);
  });

  it('should queue a failed write for the retry worker and still apply the others', async () => {
    const ok = await w.linkedMember();
    const broken = await w.linkedMember();
    const streams = await changeTemplate();
    const brokenBefore = w.policyOf(broken.mediaUserId!)[streamField(flavour)];
    w.fake.fail(503, new RegExp(`${broken.mediaUserId}/Policy`, 'i'), { method: 'POST' });

    const first = await runJob();

    const { total, admins } = await linkedCount();
    expect(first.status).toBe('succeeded');
    expect(first.run.summary).toMatchObject({
      progress: { membersTotal: total, membersDone: total },
      applied: total - admins - 1,
      skipped: admins,
      queued: 1,
      failed: 0,
    });
    expect(w.policyOf(ok.mediaUserId!)[streamField(flavour)]).toBe(streams);
    expect(w.policyOf(broken.mediaUserId!)[streamField(flavour)]).toBe(brokenBefore);
    expect((await w.row(broken.id))!.mediaDisabled).toBe(false);
    const [queued] = await policyRetries(broken.mediaUserId!);
    expect(queued).toMatchObject({
      operation: 'policy',
      origin: 'policy_apply',
      status: 'pending',
      userId: broken.id,
      attempts: 0,
    });
    // Another run while the server still refuses: the same pending row, not a second one.
    await runJob();
    expect(await policyRetries(broken.mediaUserId!)).toHaveLength(1);

    // The server recovers: the retry worker writes the template (as it is now) when due.
    w.fake.clearFaults();
    await w.t.context.db
      .update(mediaServerRetryQueue)
      .set({ nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(mediaServerRetryQueue.id, queued!.id));
    const retry = await w.t.context.scheduler.runNow('media_server_retry');
    expect(await retry.done).toBe('succeeded');
    expect(w.policyOf(broken.mediaUserId!)).toMatchObject({
      [streamField(flavour)]: streams,
      EnableContentDownloading: true,
      IsDisabled: false,
    });
    expect((await policyRetries(broken.mediaUserId!))[0]).toMatchObject({
      status: 'done',
      attempts: 1,
    });
  });
});

describe(`media_policy_apply without a media server (${ENGINE})`, () => {
  it('should be skipped, saying why, and write nothing', async () => {
    const world = await startMediaWorld('emby', { configured: false });
    try {
      const member = await world.member('alice');
      const before = structuredClone(world.fake.state.users.get(member.mediaUserId!)!.policy);
      const { runId, done } = await world.t.context.scheduler.runNow(JOB);
      expect(await done).toBe('skipped');
      const [run] = await world.t.context.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
      expect(run!.summary).toEqual({ reason: 'media server not configured' });
      expect(world.fake.state.users.get(member.mediaUserId!)!.policy).toEqual(before);
      expect(world.fake.requests('/Policy')).toHaveLength(0);
    } finally {
      await world.close();
    }
  });
});
