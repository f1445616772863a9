import { rmSync } from 'node:fs';
import {
  createServer as createHttpServer,
  request as httpRequest,
  type Server as HttpServer,
} from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import {
  loginResponseSchema,
  settingsTestReplySchema,
  tokenResponseSchema,
} from '@usher/contracts';
import { eventually, startFakeMediaServer } from '@usher/testkit';
import {
  bundleApi,
  freePort,
  startApi,
  tempLines,
  temporaryPassword,
  waitForHealth,
} from '../support/api-process.js';
import { freshSecrets } from '../support/config.js';

/**
 * The real process: bundled like the image (`main.js` + `drizzle/`), started with a minimal
 * environment on the embedded database, the way `npm start` and the container run it.
 */
let dir: string;

beforeAll(async () => {
  dir = await bundleApi('main-test-');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = (env: Record<string, string>, args: string[] = []) => startApi(dir, env, args);

/** Whether a fresh TCP connection to the port is accepted (a new connection, never a pooled one). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A media server that holds every request until `open()`, then passes it to `target`: a slow
 * upstream the test controls, so a request to the API stays in flight as long as needed.
 */
async function gatedProxy(target: string) {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  let arrive!: () => void;
  const arrived = new Promise<void>((r) => (arrive = r));
  const server: HttpServer = createHttpServer((req, res) => {
    arrive();
    void opened.then(() => {
      const upstream = httpRequest(
        `${target}${req.url ?? '/'}`,
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (reply) => {
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
        },
      );
      req.pipe(upstream);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, open, arrived, close: () => new Promise((r) => server.close(r)) };
}

describe('API process (embedded PGlite)', () => {
  it('should refuse to start, exit 1 and name each broken rule without printing values', async () => {
    const secrets = freshSecrets();
    const port = await freePort();
    const started = start({
      ...secrets,
      JWT_SECRET: 'change-me',
      INTERNAL_API_SECRET: secrets.CONFIG_ENCRYPTION_KEY!,
      DATABASE_PASSWORD: '',
      PORT: String(port),
      PGLITE_DATA_DIR: join(dir, 'never'),
    });
    expect(await started.exited).toBe(1);
    const err = started.err();
    expect(err).toContain('JWT_SECRET: rule "not-example"');
    expect(err).toContain('JWT_SECRET: rule "length"');
    expect(err).toContain('INTERNAL_API_SECRET: rule "mutually-different"');
    expect(err).toContain('DATABASE_PASSWORD: rule "present"');
    expect(err + started.out()).not.toContain(secrets.CONFIG_ENCRYPTION_KEY!);
    expect(err).not.toContain('change-me');
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });

  it('should start, print the temporary password once, survive a restart, and stop on SIGTERM', async () => {
    const env = {
      ...freshSecrets(),
      PORT: String(await freePort()),
      PGLITE_DATA_DIR: join(dir, 'db'),
      LOG_LEVEL: 'warn',
    };
    const first = start(env);
    expect(await waitForHealth(Number(env.PORT), first)).toBe(200);
    const password = temporaryPassword(first.out());
    const login = await fetch(`http://127.0.0.1:${env.PORT}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    expect(login.status).toBe(200);
    expect(
      ((await login.json()) as { user: { mustChangePassword: boolean } }).user.mustChangePassword,
    ).toBe(true);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = start(env);
    expect(await waitForHealth(Number(env.PORT), second)).toBe(200);
    expect(tempLines(second.out())).toEqual([]);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);

    const reset = start(env, ['reset-admin-password']);
    expect(await reset.exited).toBe(0);
    expect(tempLines(reset.out())).toHaveLength(1);
    expect(reset.out()).not.toContain(password);
  }, 60_000); // three process starts, each migrating a fresh embedded database

  it('should listen on HOST and drop a client whose headers take longer than 10 s', async () => {
    const env = {
      ...freshSecrets(),
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      PGLITE_DATA_DIR: join(dir, 'host-db'),
    };
    const started = start(env);
    expect(await waitForHealth(Number(env.PORT), started)).toBe(200);
    expect(started.out()).toMatch(/"host":"127\.0\.0\.1".*"msg":"Usher API listening"/);

    // A client that sends half a request line and then nothing (slowloris).
    const socket = connect(Number(env.PORT), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const opened = Date.now();
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    let reply = '';
    socket.on('data', (d: Buffer) => (reply += d.toString()));
    await new Promise((r) => socket.once('close', r));
    const heldMs = Date.now() - opened;
    expect(heldMs).toBeGreaterThanOrEqual(9_000);
    expect(heldMs).toBeLessThan(14_000);
    expect(reply).toContain('408');

    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  }, 60_000);

  it('should finish an in-flight request on SIGTERM while refusing new connections, then exit 0', async () => {
    const mediaKey = 'UsherTestKey0123456789abcdef';
    const media = await startFakeMediaServer({ flavour: 'jellyfin', apiKey: mediaKey, seed: true });
    const slow = await gatedProxy(media.url);
    const port = await freePort();
    const adminPassword = 'first-Admin-pass-1234';
    const started = start({
      ...freshSecrets(),
      PORT: String(port),
      PGLITE_DATA_DIR: join(dir, 'drain-db'),
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: 'warn',
    });
    try {
      expect(await waitForHealth(port, started)).toBe(200);
      const api = `http://127.0.0.1:${port}/api/v1`;
      const post = (path: string, body: unknown, token?: string, method = 'POST') =>
        fetch(`${api}${path}`, {
          method,
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(body),
        });
      const login = loginResponseSchema.parse(
        await (await post('/auth/login', { username: 'admin', password: adminPassword })).json(),
      );
      // The first sign-in must change the password before admin routes open.
      const changed = await post(
        '/me/password',
        { currentPassword: adminPassword, newPassword: 'second-Admin-pass-5678' },
        login.token,
        'PUT',
      );
      expect(changed.status).toBe(200);
      const { token } = tokenResponseSchema.parse(await changed.json());

      // A connection test against the held media server: in flight until the gate opens.
      const inFlight = post(
        '/admin/settings/media_server/test',
        {
          values: {
            MEDIA_SERVER_KIND: 'jellyfin',
            MEDIA_SERVER_URL: slow.url,
            MEDIA_SERVER_API_KEY: mediaKey,
          },
        },
        token,
      );
      await slow.arrived;

      started.child.kill('SIGTERM');
      // No new connections while draining.
      await eventually(async () => expect(await accepts(port)).toBe(false));
      expect(started.child.exitCode).toBeNull(); // still serving the held request

      slow.open();
      const res = await inFlight;
      expect(res.status).toBe(200);
      // Its keep-alive connection ends with it, so nothing can be sent on it afterwards.
      expect(res.headers.get('connection')).toBe('close');
      const reply = settingsTestReplySchema.parse(await res.json());
      expect(reply.checks.find((c) => c.target === 'server')).toMatchObject({ status: 'ok' });
      expect(reply.ok).toBe(true);

      const exitStarted = Date.now();
      expect(await started.exited).toBe(0);
      // Exits once drained, not after the 25 s drain limit or an idle keep-alive timeout.
      expect(Date.now() - exitStarted).toBeLessThan(2500);
    } finally {
      if (started.child.exitCode === null) started.child.kill('SIGKILL');
      slow.open();
      await Promise.all([slow.close(), media.close()]);
    }
  }, 60_000);
});
