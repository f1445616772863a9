import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  backupListSchema,
  errorBodySchema,
  jobRunSchema,
  runJobResponseSchema,
} from '@usher/contracts';
import { eventually } from '@usher/testkit';
import { and, eq } from 'drizzle-orm';
import { verifyBackup } from '../../src/backup/format.js';
import { auditLog } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { testConfig } from '../support/config.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

describe(`admin backups (${ENGINE})`, () => {
  let database: TestDatabase;
  let dir: string;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'usher-backups-'));
    t = createTestApp(database.handle, {
      config: testConfig({ BACKUP_DIR: join(dir, 'backups') }),
      settingsEnv: { BACKUP_KEEP: '2' },
    });
    const admin = await aUser().admin().create(t.context.db);
    token = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
  });
  afterAll(async () => {
    await t.context.scheduler.stop(1000);
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const list = async () => {
    const reply = await t.call('GET', '/api/v1/admin/backups', { token });
    expect(reply.status).toBe(200);
    return backupListSchema.parse(await reply.json());
  };
  const runNow = async () => {
    const reply = await t.call('POST', '/api/v1/admin/backups', { token });
    expect(reply.status).toBe(202);
    const { runId } = runJobResponseSchema.parse(await reply.json());
    return eventually(async () => {
      const run = jobRunSchema.parse(
        await (await t.call('GET', `/api/v1/admin/job-runs/${runId}`, { token })).json(),
      );
      expect(run.status).not.toBe('running');
      return run;
    });
  };

  it('should list no files and a job that is off until BACKUP_CRON is set', async () => {
    const body = await list();
    expect(body).toMatchObject({
      data: [],
      total: 0,
      directory: join(dir, 'backups'),
      keep: 2,
      job: { name: 'backup', scheduleSetting: 'BACKUP_CRON', schedule: '', enabled: false },
    });
    expect(body.job.disabledBy).toBe('BACKUP_CRON');
    expect(body.job.nextRunAt).toBeNull();
  });

  it('should write a checked backup file on "run now", list it and serve it to an admin', async () => {
    const run = await runNow();
    expect(run).toMatchObject({ jobName: 'backup', trigger: 'manual', status: 'succeeded' });
    const body = await list();
    expect(body.total).toBe(1);
    const file = body.data[0]!;
    expect(file.name).toMatch(/^usher-\d{8}T\d{6}\.\d{3}Z\.usher-backup\.gz$/);
    expect(run.summary).toMatchObject({ file: file.name, bytes: file.bytes, pruned: [] });

    const download = await t.call('GET', `/api/v1/admin/backups/${file.name}`, { token });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/gzip');
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${file.name}"`);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.length).toBe(file.bytes);
    const copy = join(dir, 'downloaded.gz');
    writeFileSync(copy, bytes);
    const { header } = await verifyBackup(copy);
    expect(header.tables.find((tb) => tb.name === 'users')!.rows).toBe(1);
    const audits = await t.context.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'backup.download'), eq(auditLog.targetId, file.name)));
    expect(audits).toHaveLength(1);
  });

  it('should keep the newest BACKUP_KEEP files', async () => {
    await runNow();
    const third = await runNow();
    expect(third.status).toBe('succeeded');
    const body = await list();
    expect(body.total).toBe(2);
    expect(readdirSync(join(dir, 'backups')).filter((n) => n.endsWith('.gz'))).toHaveLength(2);
    expect((third.summary as { pruned: string[] }).pruned).toHaveLength(1);
  });

  it('should answer 404 for a name that is not a listed backup file, whatever it looks like', async () => {
    writeFileSync(join(dir, 'backups', 'notes.txt'), 'not a backup');
    for (const name of [
      'usher-20200101T000000Z.usher-backup.gz',
      'notes.txt',
      '..%2F..%2Fetc%2Fpasswd',
      '%2e%2e',
    ]) {
      const reply = await t.call('GET', `/api/v1/admin/backups/${name}`, { token });
      expect(reply.status).toBe(404);
      const body = errorBodySchema.parse(await reply.json());
      expect(['BACKUP_NOT_FOUND', 'NOT_FOUND']).toContain(body.error.code);
    }
  });

  it('should arm the job when BACKUP_CRON is set', async () => {
    const other = createTestApp(database.handle, {
      config: testConfig({ BACKUP_DIR: join(dir, 'other') }),
      settingsEnv: { BACKUP_CRON: '0 4 * * *' },
    });
    const plan = await other.context.scheduler.plan('backup');
    expect(plan).toMatchObject({ enabled: true, schedule: '0 4 * * *', disabledBy: null });
    expect(plan.nextRunAt!.getUTCHours()).toBe(4);
  });
});
