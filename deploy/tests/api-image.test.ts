/**
 * Container-equivalent smoke for the API image (70-deploy.md §8). Without a Docker engine, this
 * runs the image's own steps: scripts/image/assemble-api.sh (the build stage), then the runtime
 * stage's `npm ci` line read from Dockerfile.api, then `node main.js` with only the image's ENV
 * plus test secrets, as uid 1000 via setpriv, with the app tree owned by root (read-only for the
 * app) and only data/ writable, exactly the layout the Dockerfile creates.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import {
  accepts,
  exitWithin,
  freePort,
  start,
  testSecrets,
  waitForStatus,
  type Started,
} from './support/process.js';
import { ROOT, describeWhen, onPath } from './support/tools.js';

const APP_UID = 1000;
const DEV_ONLY = [
  'jest',
  'typescript',
  'nx',
  'drizzle-kit',
  'esbuild',
  'eslint',
  'prettier',
  'ts-node',
];
const DEV_SCOPES = ['@nx', '@swc', '@types', '@jest', '@angular', '@typescript-eslint'];

/** The runtime stage's install command, as Dockerfile.api states it. */
function runtimeInstallCommand(): string[] {
  const line = readFileSync(join(ROOT, 'Dockerfile.api'), 'utf8')
    .split('\n')
    .find((l) => /^RUN .*npm ci --omit=dev/.test(l));
  if (!line) throw new Error('Dockerfile.api has no `RUN … npm ci --omit=dev` line');
  return line.slice(line.indexOf('npm ci')).split(/\s+/);
}

function filesUnder(dir: string, skip: string[]): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((f) => !skip.some((s) => f.startsWith(s)))
    .sort();
}

const canDropPrivileges = process.getuid?.() === 0 && Boolean(onPath('setpriv'));

const describeSmoke = (title: string, body: () => void) =>
  describeWhen(canDropPrivileges, title, 'root and setpriv (to run as uid 1000)', body);

describeSmoke('API image, container-equivalent smoke', () => {
  let tmp: string;
  let app: string;
  let node: string;
  let port: number;
  let secrets: Record<string, string>;
  let appFilesBefore: string[];
  let server: Started | undefined;

  /** The image's ENV (NODE_ENV, PORT, PATH) plus what the test adds; nothing inherited. */
  const imageEnv = (extra: Record<string, string>) => ({
    NODE_ENV: 'production',
    PORT: String(port),
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    ...extra,
  });
  const asApp = (args: string[], env: Record<string, string>) =>
    start(
      'setpriv',
      [`--reuid=${APP_UID}`, `--regid=${APP_UID}`, '--clear-groups', '--', node, ...args],
      app,
      env,
    );
  const healthcheck = () =>
    spawnSync(
      'setpriv',
      [`--reuid=${APP_UID}`, `--regid=${APP_UID}`, '--clear-groups', '--', node, 'healthcheck.mjs'],
      {
        cwd: app,
        env: imageEnv({}),
        timeout: 10_000,
      },
    ).status;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'usher-api-image-'));
    chmodSync(tmp, 0o755);
    app = join(tmp, 'app');
    const assembled = spawnSync(join(ROOT, 'scripts/image/assemble-api.sh'), [app], {
      encoding: 'utf8',
      timeout: 180_000,
    });
    if (assembled.status !== 0) throw new Error(`assemble-api.sh failed:\n${assembled.stderr}`);
    const [npm, ...args] = runtimeInstallCommand();
    const installed = spawnSync(npm!, args, {
      cwd: app,
      encoding: 'utf8',
      timeout: 180_000,
      env: { ...process.env, npm_config_prefer_offline: 'true' },
    });
    if (installed.status !== 0) throw new Error(`${args.join(' ')} failed:\n${installed.stderr}`);
    // Dockerfile: `RUN chown 1000:1000 /app/data /app/data/backups && chmod 0750 …`; the rest
    // stays root's.
    for (const dir of ['data', 'data/backups']) {
      chownSync(join(app, dir), APP_UID, APP_UID);
      chmodSync(join(app, dir), 0o750);
    }
    // The Node binary lives under /root here, which uid 1000 cannot enter.
    mkdirSync(join(tmp, 'bin'));
    node = join(tmp, 'bin/node');
    try {
      linkSync(process.execPath, node);
    } catch {
      copyFileSync(process.execPath, node);
    }
    chmodSync(node, 0o755);
    port = await freePort();
    secrets = testSecrets();
    appFilesBefore = filesUnder(app, ['data/']);
  }, 300_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('should assemble main.js, drizzle/, healthcheck.mjs, smoke.mjs, the manifests and data/', () => {
    for (const f of [
      'main.js',
      'drizzle/meta/_journal.json',
      'healthcheck.mjs',
      'smoke.mjs',
      'package.json',
      'package-lock.json',
    ]) {
      expect(statSync(join(app, f)).isFile()).toBe(true);
    }
    expect(statSync(join(app, 'data')).isDirectory()).toBe(true);
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    const api = JSON.parse(readFileSync(join(ROOT, 'services/api/package.json'), 'utf8'));
    expect(manifest.dependencies).toEqual(api.dependencies);
    expect(manifest.devDependencies).toBeUndefined();
  });

  it('should run the operator command `usher` as the image links it (version, help, one-line refusals)', () => {
    const usher = (args: string[]) =>
      spawnSync(
        'setpriv',
        [
          `--reuid=${APP_UID}`,
          `--regid=${APP_UID}`,
          '--clear-groups',
          '--',
          'sh',
          join(app, 'usher'),
          ...args,
        ],
        {
          cwd: '/',
          env: imageEnv({ PATH: `${dirname(node)}:${imageEnv({}).PATH}` }),
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
    expect(statSync(join(app, 'data/backups')).isDirectory()).toBe(true);
    const version = usher(['version']);
    expect([version.status, version.stderr]).toEqual([0, '']);
    expect(version.stdout).toMatch(/^usher \S+ \(schema \d{4}_\w+\)\n$/);
    const help = usher([]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(
      /^usage: usher <command>\n[\s\S]*backup[\s\S]*restore FILE[\s\S]*check/,
    );
    // Without the secrets: the API's own rules, one line each, then the command's line.
    const refused = usher(['backup']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^config error: DATABASE_PASSWORD: rule "present" failed/m);
    expect(refused.stderr).toMatch(/^usher backup: the environment is not valid/m);
  });

  it('should install no devDependency (jest, typescript, @nx/*, drizzle-kit…)', () => {
    const top = readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.'));
    for (const dev of DEV_ONLY) expect(top).not.toContain(dev);
    for (const scope of DEV_SCOPES) expect(top).not.toContain(scope);
    expect(top).toContain('@node-rs'); // argon2 with its platform binary
  });

  it('should answer /health with 200 within 60 s as uid 1000', async () => {
    server = asApp(['main.js'], imageEnv(secrets));
    const status = await waitForStatus(`http://127.0.0.1:${port}/health`, 200, 60_000);
    expect({ status, log: status === 200 ? '' : server.output() }).toEqual({
      status: 200,
      log: '',
    });
  });

  it('should print exactly one TEMPORARY PASSWORD line, as JSON', () => {
    const lines = server!
      .output()
      .split('\n')
      .filter((l) => l.includes('TEMPORARY PASSWORD'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).msg).toMatch(/TEMPORARY PASSWORD for user "admin"/);
  });

  it('should write only to data/ (the app tree stays as root left it)', () => {
    expect(filesUnder(app, ['data/'])).toEqual(appFilesBefore);
    expect(statSync(join(app, 'data/db')).uid).toBe(APP_UID);
  });

  it('should pass node healthcheck.mjs while running', () => {
    expect(healthcheck()).toBe(0);
  });

  it('should pass smoke.mjs against the API and a stub web, and name the first failure', async () => {
    let web: Server | undefined;
    try {
      web = createServer((req, res) => {
        if (req.url === '/healthz') return void res.end('ok\n');
        if (req.url === '/')
          return void res.setHeader('content-type', 'text/html').end('<app-root></app-root>');
        // The nginx proxy path: forward to the real API.
        void fetch(`http://127.0.0.1:${port}${req.url}`).then(async (r) => {
          res
            .writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? '' })
            .end(await r.text());
        });
      });
      await new Promise<void>((r) => web!.listen(0, '127.0.0.1', r));
      const webPort = (web.address() as { port: number }).port;
      // Asynchronous: the stub web server lives in this process and must keep answering.
      const smoke = async (webUrl: string) => {
        const env = {
          SMOKE_API_URL: `http://127.0.0.1:${port}`,
          SMOKE_WEB_URL: webUrl,
          SMOKE_ATTEMPTS: '1',
        };
        const run = start(node, ['smoke.mjs'], app, env);
        return { code: await exitWithin(run, 60_000), output: run.output() };
      };
      const ok = await smoke(`http://127.0.0.1:${webPort}`);
      expect(ok.code).toBe(0);
      expect(ok.output).toContain(
        'smoke: ok: Web /api/v1/public/site returns 200 JSON (proxy to the API)',
      );
      expect(ok.output).toContain('smoke: all checks passed');
      const apiAsWeb = await smoke(`http://127.0.0.1:${port}`); // the API has no /healthz
      expect(apiAsWeb.code).toBe(1);
      expect(apiAsWeb.output).toContain('smoke: FAILED: Web /healthz returns 200');
    } finally {
      await new Promise((r) => (web ? web.close(r) : r(undefined)));
    }
  });

  it('should exit 0 within 25 s of SIGTERM, and healthcheck.mjs then exits 1', async () => {
    server!.child.kill('SIGTERM');
    expect(await exitWithin(server!, 25_000)).toBe(0);
    expect(healthcheck()).toBe(1);
  });

  it('should not print the temporary password again on the next start', async () => {
    server = asApp(['main.js'], imageEnv(secrets));
    expect(await waitForStatus(`http://127.0.0.1:${port}/health`, 200, 60_000)).toBe(200);
    server.child.kill('SIGTERM');
    expect(await exitWithin(server, 25_000)).toBe(0);
    expect(server.output()).not.toContain('TEMPORARY PASSWORD');
  });

  /** Starts with broken secrets; returns the exit code, the output and whether the port opened. */
  async function refusedStart(env: Record<string, string>) {
    const attempt = asApp(['main.js'], imageEnv(env));
    let opened = false;
    let ended = false;
    void attempt.exited.then(() => (ended = true));
    while (!ended) {
      opened = opened || (await accepts(port));
      await new Promise((r) => setTimeout(r, 50));
    }
    return { code: await attempt.exited, output: attempt.output(), opened };
  }

  it('should exit 1 naming the rule, and open no port, when a secret is missing', async () => {
    const { JWT_SECRET: _omitted, ...rest } = secrets;
    const result = await refusedStart(rest);
    expect(result).toMatchObject({ code: 1, opened: false });
    expect(result.output).toContain('JWT_SECRET: rule "present" failed');
  });

  it('should exit 1 naming the rule, without echoing the value, for a placeholder secret', async () => {
    const placeholder = 'your-database-password-goes-here-00';
    const result = await refusedStart({ ...secrets, DATABASE_PASSWORD: placeholder });
    expect(result).toMatchObject({ code: 1, opened: false });
    expect(result.output).toContain('DATABASE_PASSWORD: rule "not-example" failed');
    expect(result.output).not.toContain(placeholder);
  });
});
