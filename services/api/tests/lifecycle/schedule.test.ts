import { startFakeSmtp, type FakeSmtp } from '@usher/testkit';
import { lifecycleJobs } from '../../src/modules/lifecycle/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { SimulatedClock } from '../support/clock.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { scheduledSlots } from '../support/schedule.js';
import { aUser } from '../support/users.js';

const DAY = 86_400_000;

describe(`expiry_reminders on its schedule (${ENGINE})`, () => {
  let database: TestDatabase;
  let smtp: FakeSmtp;
  let clock: SimulatedClock;
  let t: TestApp;
  const settle = () => t.context.scheduler.idle();
  const slots = () => scheduledSlots(database.handle.db, 'expiry_reminders', 'minutes');

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startFakeSmtp({});
    clock = new SimulatedClock('2026-06-01T00:00:00Z');
    t = createTestApp(database.handle, {
      now: clock.now,
      schedulerClock: clock,
      jobs: (ctx) => lifecycleJobs(ctx),
      settingsEnv: {
        SMTP_HOST: smtp.host,
        SMTP_PORT: String(smtp.port),
        SMTP_SECURITY: 'none',
        SMTP_FROM: 'Usher <no-reply@usher.example>',
      },
    });
    await t.context.scheduler.start();
  }, 60_000); // a PGlite database migrates slowly while other suites share the cores
  afterAll(async () => {
    await t.context.scheduler.stop(1000);
    await database.close();
    await smtp.close();
  });

  it('should run at minute 15 by default, follow a saved REMINDER_CRON, and remind once', async () => {
    await aUser()
      .withEmail('due@example.org')
      .expiresAt(new Date(clock.now().getTime() + 2 * DAY))
      .create(t.context.db);

    await clock.advanceTo('2026-06-01T02:00:00Z', settle);
    expect(await slots()).toEqual(['00:15', '01:15']);
    expect(smtp.messages.filter((m) => m.envelope.to.includes('due@example.org'))).toHaveLength(1);

    await t.context.settings.update(
      'lifecycle',
      { REMINDER_CRON: '45 * * * *' },
      { type: 'system', id: null, label: 'test' },
      { ip: null, requestId: 'test' },
    );
    await settle();
    expect(t.context.scheduler.armedSlots().expiry_reminders?.toISOString()).toBe(
      '2026-06-01T02:45:00.000Z',
    );
    await clock.advanceTo('2026-06-01T04:00:00Z', settle);
    expect((await slots()).slice(2)).toEqual(['02:45', '03:45']);
    expect(smtp.messages).toHaveLength(1);
  });
});
