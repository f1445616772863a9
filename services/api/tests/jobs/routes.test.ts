import {
  errorBodySchema,
  jobListSchema,
  jobRunSchema,
  pageOf,
  runJobResponseSchema,
} from '@usher/contracts';
import { eventually } from '@usher/testkit';
import { and, eq } from 'drizzle-orm';
import { auditLog } from '../../src/db/schema/index.js';
import { JobScheduler } from '../../src/scheduler/scheduler.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { memoryLogger } from '../support/logs.js';
import { aUser } from '../support/users.js';

describe(`admin job routes (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let token: string;
  let adminId: string;
  let release: () => void = () => undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    const scheduler = new JobScheduler({
      db: database.handle.db,
      logger: memoryLogger().logger,
      replicaId: 'r1',
    });
    scheduler.register({
      name: 'probe',
      description: 'waits until released',
      schedule: '0 3 * * *',
      run: async (ctx) => {
        await new Promise<void>((r) => (release = r));
        return { summary: { params: ctx.params } };
      },
    });
    t = createTestApp(database.handle, { scheduler });
    const admin = await aUser().admin().create(t.context.db);
    adminId = admin.id;
    token = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
  });
  afterAll(async () => {
    release();
    await t.context.scheduler.stop(1000);
    await database.close();
  });

  const get = (path: string) => t.call('GET', path, { token });

  it('should run a job, refuse a second run with 409, and report the run until it ends', async () => {
    const started = await t.call('POST', '/api/v1/admin/jobs/probe/run', {
      token,
      body: { params: { dryRun: true } },
    });
    expect(started.status).toBe(202);
    const { runId } = runJobResponseSchema.parse(await started.json());

    const second = await t.call('POST', '/api/v1/admin/jobs/probe/run', { token, body: {} });
    expect(second.status).toBe(409);
    expect(errorBodySchema.parse(await second.json()).error.code).toBe('JOB_RUNNING');

    const list = jobListSchema.parse(await (await get('/api/v1/admin/jobs')).json());
    expect(list.data).toEqual([
      expect.objectContaining({
        name: 'probe',
        schedule: '0 3 * * *',
        running: true,
        lastRun: expect.objectContaining({ id: runId, status: 'running' }),
      }),
    ]);
    expect(new Date(list.data[0]!.nextRunAt!).getUTCHours()).toBe(3);

    release();
    const run = await eventually(async () => {
      const current = jobRunSchema.parse(
        await (await get(`/api/v1/admin/job-runs/${runId}`)).json(),
      );
      expect(current.status).not.toBe('running');
      return current;
    });
    expect(run).toMatchObject({
      status: 'succeeded',
      trigger: 'manual',
      triggeredBy: adminId,
      params: { dryRun: true },
      summary: { params: { dryRun: true } },
    });

    const runs = pageOf(jobRunSchema).parse(
      await (await get('/api/v1/admin/jobs/probe/runs?pageSize=5')).json(),
    );
    expect(runs).toMatchObject({ total: 1, page: 1, pageSize: 5 });
    const audit = await t.context.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'job.run'), eq(auditLog.actorId, adminId)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ targetType: 'job', targetId: 'probe' });
  });

  it('should answer JOB_NOT_FOUND and JOB_RUN_NOT_FOUND for unknown names and ids', async () => {
    const job = await t.call('POST', '/api/v1/admin/jobs/nope/run', { token, body: {} });
    expect(job.status).toBe(404);
    expect(errorBodySchema.parse(await job.json()).error).toMatchObject({
      code: 'JOB_NOT_FOUND',
      message: 'No job named nope',
    });
    expect((await get('/api/v1/admin/jobs/nope/runs')).status).toBe(404);
    for (const id of ['not-a-uuid', '01937a4e-8c5b-7cc1-9a56-6a0b2f2b3c4d']) {
      const res = await get(`/api/v1/admin/job-runs/${id}`);
      expect(res.status).toBe(404);
      expect(errorBodySchema.parse(await res.json()).error.code).toBe('JOB_RUN_NOT_FOUND');
    }
    const badPage = await get('/api/v1/admin/jobs/probe/runs?pageSize=101');
    expect(badPage.status).toBe(400);
  });
});
