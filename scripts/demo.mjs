// `npm run demo`: Usher against the testkit fakes with a seeded demo world (00-architecture.md
// decision 10). Installs what is missing, builds the API as `npm start` does, bundles the demo
// launcher (services/testkit/src/demo/launch.ts) into the git-ignored .cache/ and runs it: every
// fake on loopback, then the API on a fresh PGlite database at http://localhost:8080 (PORT
// overrides), until Ctrl-C. Only Node built-ins are imported up front: nothing may be installed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const startedAt = Date.now();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, opts = {}) => {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run(process.execPath, [join(root, 'scripts/ensure-deps.mjs')]);
process.stdout.write('Building the Usher API…\n');
run(process.execPath, ['build.mjs'], { cwd: join(root, 'services/api') });

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

process.stdout.write('Starting the fakes and the Usher API…\n');
const { runDemo } = await import(pathToFileURL(launcher).href);
await runDemo({ root, startedAt });
