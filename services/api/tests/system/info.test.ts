import { errorBodySchema, systemInfoSchema } from '@usher/contracts';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

describe(`GET /admin/system/info (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let token: string;
  let userToken: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = createTestApp(database.handle, {
      replicaId: 'info-replica',
      settingsEnv: {
        MEDIA_SERVER_URL: 'http://media.test:8096',
        MEDIA_SERVER_API_KEY: 'k'.repeat(32),
      },
    });
    const db = t.context.db;
    const admin = await aUser().admin().create(db);
    token = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
    const member = await aUser().create(db);
    userToken = (await t.context.tokens.sign({ sub: member.id, role: 'user', ver: 0 })).token;
    await aUser().expired().linkedTo('m-1', { mediaDisabled: true }).create(db);
    await aUser().expired().create(db);
    for (const status of ['pending', 'gave_up', 'gave_up', 'done']) {
      await db.execute(sql`insert into media_server_retry_queue
          (id, operation, media_user_id, origin, status, next_attempt_at)
        values (gen_random_uuid(), 'delete', ${`m-${status}-${Math.random()}`}, 'user_delete',
          ${status}, now())`);
    }
    await db.execute(sql`insert into job_runs (id, job_name, trigger, replica_id, status, started_at,
        finished_at, error)
      values (gen_random_uuid(), 'cleanup', 'manual', 'r', 'succeeded', '2026-01-01T00:00:00Z',
          '2026-01-01T00:00:05Z', null),
        (gen_random_uuid(), 'cleanup', 'schedule', 'r', 'failed', '2026-01-02T03:30:00Z',
          '2026-01-02T03:30:01Z', 'boom')`);
  });
  afterAll(async () => {
    await database.close();
  });

  it('should report versions, database, counts, integrations and the last run of each job', async () => {
    const res = await t.call('GET', '/api/v1/admin/system/info', { token });
    expect(res.status).toBe(200);
    const info = systemInfoSchema.parse(await res.json());
    expect(info).toMatchObject({
      version: t.config.version,
      nodeVersion: process.version,
      replicaId: 'info-replica',
      database: ENGINE,
      users: { total: 4, active: 1, expired: 2, mediaDisabled: 1, admins: 1 },
      retryQueue: { pending: 1, gaveUp: 2 },
      settings: { undecryptable: 0 },
      integrations: {
        mediaServer: 'configured',
        metadata: 'not_configured',
        email: 'not_configured',
        payments: 'not_configured',
        bot: 'not_configured',
      },
    });
    expect(info.databaseSizeBytes).toBeGreaterThan(0);
    expect(info.databaseVersion).toMatch(/^\d+/);
    expect(info.uptimeSeconds).toBeGreaterThanOrEqual(0);
    const byName = Object.fromEntries(info.jobs.map((j) => [j.name, j.lastRun]));
    expect(byName.cleanup).toEqual({
      status: 'failed',
      trigger: 'schedule',
      startedAt: '2026-01-02T03:30:00.000Z',
      finishedAt: '2026-01-02T03:30:01.000Z',
      error: 'boom',
    });
    expect(byName.expiry_check).toBeNull();
  });

  it('should refuse a member (403) and an anonymous caller (401)', async () => {
    const member = await t.call('GET', '/api/v1/admin/system/info', { token: userToken });
    expect(member.status).toBe(403);
    errorBodySchema.parse(await member.json());
    expect((await t.call('GET', '/api/v1/admin/system/info')).status).toBe(401);
  });
});
