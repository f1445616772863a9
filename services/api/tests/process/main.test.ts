import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { freshSecrets } from '../support/config.js';

/**
 * The real process: bundled like the image (`main.js` + `drizzle/`), started with a minimal
 * environment on the embedded database, the way `npm start` and the container run it.
 */
const apiRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
let dir: string;

beforeAll(async () => {
  // Inside the workspace (git-ignored .cache) so the bundle's bare imports resolve from the
  // workspace's node_modules, as they do from the image's own node_modules.
  mkdirSync(join(apiRoot, '.cache'), { recursive: true });
  dir = mkdtempSync(join(apiRoot, '.cache', 'main-test-'));
  await build({
    entryPoints: [join(apiRoot, 'src/main.ts')],
    outfile: join(dir, 'main.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    // As build.mjs: npm packages stay external, workspace packages are bundled.
    external: Object.keys(
      (
        JSON.parse(readFileSync(join(apiRoot, 'package.json'), 'utf8')) as {
          dependencies: Record<string, string>;
        }
      ).dependencies,
    ),
    logLevel: 'silent',
  });
  cpSync(join(apiRoot, 'drizzle'), join(dir, 'drizzle'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

interface Started {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>, args: string[] = []): Started {
  let out = '';
  let err = '';
  const child = spawn(process.execPath, [join(dir, 'main.js'), ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, out: () => out, err: () => err, exited };
}

async function waitForHealth(port: number, started: Started): Promise<number> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      return res.status;
    } catch {
      // Not listening yet: migrations and bootstrap run before the port opens.
      await new Promise((r) => setTimeout(r, 200));
    }
    if (started.child.exitCode !== null) throw new Error(`exited early: ${started.err()}`);
  }
  throw new Error('API did not answer /health within 60 s');
}

const tempLines = (out: string) => out.split('\n').filter((l) => l.includes('TEMPORARY PASSWORD'));

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
    const lines = tempLines(first.out());
    expect(lines).toHaveLength(1);
    const password = /TEMPORARY PASSWORD for user \\"admin\\": ([A-Za-z0-9]{20})/.exec(
      lines[0]!,
    )![1]!;
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
  });
});
