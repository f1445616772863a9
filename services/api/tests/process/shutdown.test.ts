// The graceful stop's last step before the pool closes (`finishWork`, src/shutdown.ts): it waits
// for work that outlived its reply — request background tasks, account mails — and gives up after
// its bound, saying how much it abandons. The real process's drain is in main.test.ts.
import { jest } from '@jest/globals';
import { createServer, Socket, type Server } from 'node:net';
import { startFakeSmtp, type FakeSmtp } from '@usher/testkit';
import { Background } from '../../src/modules/background.js';
import { FINISH_WORK_MS, finishWork } from '../../src/shutdown.js';
import { createTestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { memoryLogger } from '../support/logs.js';
import { aUser } from '../support/users.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Whether a promise has settled yet, read without waiting for it. */
function watch(promise: Promise<unknown>): { settled: boolean } {
  const state = { settled: false };
  void promise.finally(() => (state.settled = true));
  return state;
}

/** One turn of the event loop: long enough for a stop that does not wait to finish. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An SMTP address that accepts connections but holds them until `open()`, then relays them. */
async function heldSmtp(target: FakeSmtp) {
  const held = gate();
  const arrival = gate();
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    arrival.open();
    sockets.add(client);
    void held.opened.then(() => {
      const upstream = new Socket();
      sockets.add(upstream);
      upstream.connect(target.port, target.host);
      client.pipe(upstream).pipe(client);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    arrived: arrival.opened,
    open: held.open,
    close: async () => {
      held.open();
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe(`graceful stop: work after the reply (${ENGINE})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('should wait for a pending background task before the pool may close', async () => {
    const t = createTestApp(database.handle);
    const task = gate();
    let taskDone = false;
    t.context.background.run('held task', async () => {
      await task.opened;
      taskDone = true;
    });

    const stopping = finishWork(t.context);
    const stop = watch(stopping);
    await turn();
    expect(stop.settled).toBe(false);

    task.open();
    expect(await stopping).toEqual({ abandoned: 0 });
    expect(taskDone).toBe(true);
  });

  it('should wait for an account mail still being sent', async () => {
    const smtp = await startFakeSmtp({});
    const held = await heldSmtp(smtp);
    try {
      const t = createTestApp(database.handle, {
        settingsEnv: {
          SMTP_HOST: '127.0.0.1',
          SMTP_PORT: String(held.port),
          SMTP_SECURITY: 'none',
          SMTP_FROM: 'Usher <no-reply@usher.example>',
        },
      });
      await aUser().withEmail('stop-mail@example.org').create(t.context.db);
      const res = await t.call('POST', '/api/v1/auth/password/forgot', {
        body: { email: 'stop-mail@example.org' },
      });
      expect(res.status).toBe(202);
      await held.arrived; // the reset-code mail is on its way, held at the SMTP door
      expect(t.context.background.pending).toBe(1);

      const stopping = finishWork(t.context);
      const stop = watch(stopping);
      await turn();
      expect(stop.settled).toBe(false);

      held.open();
      expect(await stopping).toEqual({ abandoned: 0 });
      // Sent before the stop finished, not abandoned.
      expect(smtp.messages.map((m) => m.envelope.to)).toContainEqual(['stop-mail@example.org']);
    } finally {
      await held.close();
      await smtp.close();
    }
  });
});

describe('graceful stop: the bound', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should give up after FINISH_WORK_MS, jobs included, and log how many tasks it abandons', async () => {
    const logs = memoryLogger();
    const never = gate();
    let released = false;
    const background = new Background(logs.logger);
    background.run('stuck', () => never.opened);
    const work = {
      background,
      notify: {
        idle: () => never.opened,
        get pending() {
          return released ? 0 : 1;
        },
      },
      // A job that ignores its abort signal: the bound covers the scheduler's wait as well.
      scheduler: { stop: () => never.opened },
      logger: logs.logger,
    };

    const stopping = finishWork(work);
    const stop = watch(stopping);
    await jest.advanceTimersByTimeAsync(FINISH_WORK_MS - 1);
    expect(stop.settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);

    expect(await stopping).toEqual({ abandoned: 2 });
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'stopping with background work still running',
        abandoned: 2,
      }),
    );
    released = true;
    never.open();
  });

  it('should return at once when nothing is running', async () => {
    const logs = memoryLogger();
    const work = {
      background: new Background(logs.logger),
      notify: { idle: async () => undefined, pending: 0 },
      scheduler: { stop: async () => undefined },
      logger: logs.logger,
    };
    expect(await finishWork(work)).toEqual({ abandoned: 0 });
    expect(logs.text()).toBe('');
  });
});
