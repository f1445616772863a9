// `sharing_watch` on its schedule (docs/sharing.md): no timer while SHARING_ENABLED is off;
// switching it on arms the 30-second slots at once (the key re-arms the timers), and off again
// disarms them. The job is listed at /admin/jobs like every other.
import { sharingJobs } from '../../src/modules/sharing/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { SimulatedClock } from '../support/clock.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { scheduledSlots } from '../support/schedule.js';
import { aUser } from '../support/users.js';

describe(`sharing_watch on its schedule (${ENGINE})`, () => {
  let database: TestDatabase;
  let clock: SimulatedClock;
  let t: TestApp;
  const settle = () => t.context.scheduler.idle();
  const slots = () => scheduledSlots(database.handle.db, 'sharing_watch');
  const set = (enabled: boolean) =>
    t.context.settings.update(
      'sharing',
      { SHARING_ENABLED: enabled },
      { type: 'system', id: null, label: 'test' },
      { ip: null, requestId: 'test' },
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    clock = new SimulatedClock('2026-06-01T00:00:00Z');
    t = createTestApp(database.handle, {
      now: clock.now,
      schedulerClock: clock,
      jobs: (ctx) => sharingJobs(ctx),
    });
    await t.context.scheduler.start();
  }, 60_000);
  afterAll(async () => {
    await t.context.scheduler.stop(1000);
    await database.close();
  });

  it('should run every 30 s only while SHARING_ENABLED is on', async () => {
    await clock.advanceTo('2026-06-01T00:02:00Z', settle);
    expect(await slots()).toEqual([]);
    expect(t.context.scheduler.armedSlots().sharing_watch ?? null).toBeNull();

    await set(true);
    await settle();
    await clock.advanceTo('2026-06-01T00:03:40Z', settle);
    expect(await slots()).toEqual(['00:02:30', '00:03:00', '00:03:30']);

    await set(false);
    await settle();
    await clock.advanceTo('2026-06-01T00:06:00Z', settle);
    expect(await slots()).toHaveLength(3);
  });

  it('should be listed for admins with its schedule', async () => {
    const admin = await aUser().admin().create(t.context.db);
    const token = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
    const res = await t.call('GET', '/api/v1/admin/jobs', { token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { name: string; schedule: string }[] };
    expect(body.data.find((j) => j.name === 'sharing_watch')).toMatchObject({
      schedule: '*/30 * * * * *',
    });
  });
});
