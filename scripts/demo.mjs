// `npm run demo`: Usher against the testkit fakes with a seeded demo world (00-architecture.md
// decision 10). Installs what is missing, builds the API and the bot as their packages do and the
// web app as `npm start` does (scripts/lib/web-app.mjs: only when missing or out of date), bundles
// the demo launcher (services/testkit/src/demo/launch.ts) into the git-ignored .cache/ and runs
// it: every fake on loopback, the API on a fresh PGlite database at http://localhost:8080 (PORT
// overrides) serving the web app, the bot on the fake Telegram, and Usher's own data seeded
// through the API, until Ctrl-C. DEMO_WEB=off serves the API only, DEMO_BOT=off leaves the bot
// out. Only Node built-ins are imported up front: nothing may be installed yet.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prepareWebApp } from './lib/web-app.mjs';

const startedAt = Date.now();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const withBot = process.env.DEMO_BOT !== 'off';
const withWeb = process.env.DEMO_WEB !== 'off';

const installed = spawnSync(process.execPath, [join(root, 'scripts/ensure-deps.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
if (installed.status !== 0) process.exit(installed.status ?? 1);

/** `node build.mjs` in a service folder, as its package's `build` script runs it. */
const buildService = (name) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['build.mjs'], {
      cwd: join(root, 'services', name),
      stdio: 'inherit',
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
process.stdout.write(withBot ? 'Building the Usher API and bot…\n' : 'Building the Usher API…\n');
// Two small esbuild bundles: side by side they cost little more than one.
const codes = await Promise.all([buildService('api'), ...(withBot ? [buildService('bot')] : [])]);
const failed = codes.find((code) => code !== 0);
if (failed !== undefined) process.exit(failed);

const webDist = withWeb ? prepareWebApp({ root }) : undefined;

// esbuild is a root devDependency, importable only once ensure-deps has run.
const { build, stop: stopEsbuild } = await import('esbuild');
const result = await build({
  entryPoints: [join(root, 'services/testkit/src/demo/launch.ts')],
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  // npm packages resolve from the workspace's node_modules, next to .cache/.
  packages: 'external',
  write: false,
  logLevel: 'warning',
});
// Its service process would otherwise idle next to the demo until exit.
await stopEsbuild();
const outDir = join(root, '.cache/demo');
mkdirSync(outDir, { recursive: true });
const launcher = join(outDir, 'launcher.mjs');
// Written aside and renamed, so two demos starting together never import a half-written file.
const partial = `${launcher}.${process.pid}.tmp`;
writeFileSync(partial, result.outputFiles[0].contents);
renameSync(partial, launcher);

process.stdout.write(
  withBot
    ? 'Starting the fakes, the Usher API and the bot…\n'
    : 'Starting the fakes and the Usher API…\n',
);
const { runDemo } = await import(pathToFileURL(launcher).href);
await runDemo({ root, startedAt, webDist: webDist ?? null, bot: withBot });
