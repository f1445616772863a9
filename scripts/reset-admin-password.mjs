// `npm run reset-admin-password [-- --username NAME]` on a source install: a new temporary
// password for an administrator, printed once (docs/operations.md, "Lost the line?"). It runs the
// API's own command with the same .env and data folder as `npm start`. On the embedded database
// the command refuses while the API runs (the folder has one owner): stop `npm start` first.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiMain, apiProcess } from './lib/api-process.mjs';
import { embeddedDataDir, runningOwner } from './lib/running-usher.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, opts = {}) => {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

if (!existsSync(join(root, '.env'))) {
  process.stderr.write(
    `reset-admin-password: no .env in ${root}. Usher has not been started here yet: ` +
      '`npm start` creates it and prints the first TEMPORARY PASSWORD.\n',
  );
  process.exit(1);
}
// Said before anything is installed or built; the API's own check refuses the same way.
const dataDir = embeddedDataDir(root, process.env, readFileSync(join(root, '.env'), 'utf8'));
const owner = dataDir && runningOwner(dataDir);
if (owner) {
  process.stderr.write(
    `reset-admin-password: Usher is running on ${dataDir} (pid ${owner.pid}, since ` +
      `${owner.startedAt}). A reset now would be lost: stop it first (Ctrl-C where it runs, or ` +
      `\`kill ${owner.pid}\`), then run the command again.\n`,
  );
  process.exit(1);
}
run(process.execPath, [join(root, 'scripts/ensure-deps.mjs')]);
// Built only when missing: rebuilding would replace the files of an API that may be running.
if (!existsSync(apiMain(root))) {
  run(process.execPath, ['build.mjs'], { cwd: join(root, 'services/api') });
}
const api = apiProcess({ root, args: ['reset-admin-password', ...process.argv.slice(2)] });
const result = spawnSync(api.command, api.args, { cwd: api.cwd, stdio: 'inherit' });
process.exit(result.status ?? 1);
