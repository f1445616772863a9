import { eq } from 'drizzle-orm';
import { bootstrapAdmin } from '../../src/bootstrap.js';
import { auditLog, users } from '../../src/db/schema/index.js';
import { verifyPassword } from '../../src/security/passwords.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { memoryLogger } from '../support/logs.js';

const TEMP_LINE = /TEMPORARY PASSWORD for user "admin": ([A-Za-z0-9]{20}) \(shown once/;

/** Messages of the JSON log lines that carry the temporary password. */
const tempLines = (logs: ReturnType<typeof memoryLogger>) =>
  logs
    .lines()
    .map((l) => String(l.msg))
    .filter((m) => TEMP_LINE.test(m));

describe(`admin bootstrap (${ENGINE})`, () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.close();
  });

  it('should create admin once, log the temporary password once, and force a change', async () => {
    const logs = memoryLogger('error'); // the line must appear whatever LOG_LEVEL says
    const first = await bootstrapAdmin(database.handle.db, { logger: logs.logger });
    expect(first.created).toBe(true);
    const matches = tempLines(logs);
    expect(matches).toHaveLength(1);
    const password = TEMP_LINE.exec(matches[0]!)![1]!;

    const [admin] = await database.handle.db
      .select()
      .from(users)
      .where(eq(users.username, 'admin'));
    expect(admin).toMatchObject({
      role: 'admin',
      mustChangePassword: true,
      registeredVia: 'bootstrap',
      email: null,
      expiresAt: null,
    });
    expect(admin!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(admin!.passwordHash, password)).toBe(true);

    const restartLogs = memoryLogger();
    const second = await bootstrapAdmin(database.handle.db, { logger: restartLogs.logger });
    expect(second.created).toBe(false);
    expect(restartLogs.text()).not.toContain('TEMPORARY PASSWORD');
    const admins = await database.handle.db.select().from(users).where(eq(users.role, 'admin'));
    expect(admins).toHaveLength(1);
  });

  it('should use ADMIN_PASSWORD without printing it, and ignore it once an admin exists', async () => {
    const logs = memoryLogger();
    await bootstrapAdmin(database.handle.db, {
      adminPassword: 'First-Password-42',
      logger: logs.logger,
    });
    expect(logs.text()).not.toContain('TEMPORARY PASSWORD');
    expect(logs.text()).not.toContain('First-Password-42');
    expect(logs.text()).toContain('password from ADMIN_PASSWORD');
    const [admin] = await database.handle.db.select().from(users);
    expect(await verifyPassword(admin!.passwordHash, 'First-Password-42')).toBe(true);
    expect(admin!.mustChangePassword).toBe(true);

    const later = memoryLogger();
    await bootstrapAdmin(database.handle.db, {
      adminPassword: 'Other-Password-42',
      logger: later.logger,
    });
    expect(later.text()).toContain('ignored now');
    const [still] = await database.handle.db.select().from(users);
    expect(await verifyPassword(still!.passwordHash, 'First-Password-42')).toBe(true);
  });

  it('should create exactly one admin when two replicas bootstrap at once', async () => {
    const other = await database.connectAnother();
    const logs = memoryLogger();
    const outcomes = await Promise.all([
      bootstrapAdmin(database.handle.db, { logger: logs.logger }),
      bootstrapAdmin(other.db, { logger: logs.logger }),
    ]);
    expect(outcomes.filter((o) => o.created)).toHaveLength(1);
    expect(tempLines(logs)).toHaveLength(1);
    const audit = await database.handle.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'user.bootstrap_admin'));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toMatch(/[A-Za-z0-9]{20}"/);
  });
});
