// `npm start`: the embedded default (00-architecture.md decision 10). Installs what is missing,
// creates .env with fresh secrets when absent, builds the API and runs it on PGlite at
// http://localhost:8080 (loopback only until HOST is set), serving the web app at / (built when missing or older than its sources,
// scripts/lib/web-app.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiProcess } from './lib/api-process.mjs';
import { startHost } from './lib/listen-host.mjs';
import { embeddedDataDir, runningOwner } from './lib/running-usher.mjs';
import { prepareWebApp } from './lib/web-app.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, opts = {}) => {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

const envFile = join(root, '.env');
// A second `npm start` on the same data stops here, before it installs or rebuilds anything the
// running API uses. Without .env nothing has run here yet.
const dataDir =
  existsSync(envFile) && embeddedDataDir(root, process.env, readFileSync(envFile, 'utf8'));
const owner = dataDir && runningOwner(dataDir);
if (owner) {
  process.stderr.write(
    `Usher is already running on ${dataDir} (pid ${owner.pid}, since ${owner.startedAt}): ` +
      `use that one, or stop it first (Ctrl-C where it runs, or \`kill ${owner.pid}\`).\n`,
  );
  process.exit(1);
}

run(process.execPath, [join(root, 'scripts/ensure-deps.mjs')]);

if (!existsSync(envFile)) {
  run('sh', [join(root, 'scripts/gen-secrets'), envFile]);
  process.stdout.write(
    'Created .env with fresh random secrets (keep it private; it is git-ignored).\n',
  );
}

run(process.execPath, ['build.mjs'], { cwd: join(root, 'services/api') });

const env = { ...process.env };
// Loopback until the operator sets HOST (scripts/lib/listen-host.mjs says why).
const host = startHost(process.env, readFileSync(envFile, 'utf8'));
if (host) {
  env.HOST = host;
  process.stdout.write(
    `Listening on ${host} only; set HOST (e.g. HOST=0.0.0.0 in .env) to open it.\n`,
  );
}
// One process gives the whole app: the web console is built on a fresh checkout (and again when
// its sources changed), and served from web/dist unless WEB_DIST_DIR names another build.
const webDist = prepareWebApp({ root, env });
if (webDist) env.WEB_DIST_DIR = webDist;

// The same process `npm run reset-admin-password` starts (scripts/lib/api-process.mjs).
const apiArgs = apiProcess({ root, args: process.argv.slice(2) });
const api = spawn(apiArgs.command, apiArgs.args, { cwd: apiArgs.cwd, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => api.kill(signal));
api.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
