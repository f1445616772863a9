// `npm start`: the embedded default (00-architecture.md decision 10). Installs what is missing,
// creates .env with fresh secrets when absent, builds the API and runs it on PGlite at
// http://localhost:8080, serving the web app at / (built on the first start).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, opts = {}) => {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run(process.execPath, [join(root, 'scripts/ensure-deps.mjs')]);

const envFile = join(root, '.env');
if (!existsSync(envFile)) {
  run('sh', [join(root, 'scripts/gen-secrets'), envFile]);
  process.stdout.write(
    'Created .env with fresh random secrets (keep it private; it is git-ignored).\n',
  );
}

run(process.execPath, ['build.mjs'], { cwd: join(root, 'services/api') });

const env = { ...process.env };
const webDist = join(root, 'web/dist/web/browser');
// One process gives the whole app: build the web console once on a fresh checkout.
if (!env.WEB_DIST_DIR && !existsSync(webDist) && existsSync(join(root, 'web/package.json'))) {
  process.stdout.write('Building the web app (first start only)...\n');
  run(process.execPath, [join(root, 'node_modules/nx/dist/bin/nx.js'), 'run', 'web:build'], {
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
  });
}
if (!env.WEB_DIST_DIR && existsSync(webDist)) env.WEB_DIST_DIR = webDist;

const api = spawn(
  process.execPath,
  ['--env-file', envFile, join(root, 'services/api/dist/main.js'), ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => api.kill(signal));
api.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
