// `npm run usher -- <command> [...]` on a source install: the operator's `usher` tools
// (docs/operations.md "The usher command"), run by the API bundle with the same .env and data
// folder as `npm start`. `npm run reset-admin-password` is this script with that command.
// Commands that open the embedded database refuse while the API runs on it (the folder has one
// owner): stop `npm start` first.
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
const args = process.argv.slice(2);
const command = args[0] ?? 'help';
/** Commands that never open the database. */
const WITHOUT_DATA = new Set(['help', 'version']);

if (!WITHOUT_DATA.has(command)) {
  if (!existsSync(join(root, '.env'))) {
    process.stderr.write(
      `usher ${command}: no .env in ${root}. Usher has not been started here yet: ` +
        '`npm start` creates it (and prints the first TEMPORARY PASSWORD).\n',
    );
    process.exit(1);
  }
  // Said before anything is installed or built; the API's own check refuses the same way.
  const dataDir = embeddedDataDir(root, process.env, readFileSync(join(root, '.env'), 'utf8'));
  const owner = dataDir && runningOwner(dataDir);
  if (owner) {
    const lost = command === 'reset-admin-password' ? ' A reset now would be lost:' : '';
    process.stderr.write(
      `usher ${command}: Usher is running on ${dataDir} (pid ${owner.pid}, since ` +
        `${owner.startedAt}).${lost} stop it first (Ctrl-C where it runs, or ` +
        `\`kill ${owner.pid}\`), then run the command again.\n`,
    );
    process.exit(1);
  }
}
run(process.execPath, [join(root, 'scripts/ensure-deps.mjs')]);
// Built only when missing: rebuilding would replace the files of an API that may be running.
if (!existsSync(apiMain(root))) {
  run(process.execPath, ['build.mjs'], { cwd: join(root, 'services/api') });
}
const api = apiProcess({ root, args: args.length > 0 ? args : ['help'] });
const result = spawnSync(api.command, api.args, { cwd: api.cwd, stdio: 'inherit' });
process.exit(result.status ?? 1);
