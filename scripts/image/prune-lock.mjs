// Writes DIR/package-lock.json for the manifest in DIR/package.json, cut out of the workspace's
// root package-lock.json (70-deploy.md §5: "a pruned lockfile").
//
//   node scripts/image/prune-lock.mjs DIR WORKSPACE_DIR
//
// Why not `npm install --package-lock-only` in DIR: that resolves the ranges again and could pick
// newer versions than the ones the test suite ran against. Cutting the root lock keeps exactly
// the tested versions (and their integrity hashes), so `npm ci` in the image is reproducible.
// Uses only Node built-ins: it runs in the image's build stage.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, workspaceDir] = process.argv.slice(2);
if (!dir || !workspaceDir) {
  process.stderr.write('usage: prune-lock.mjs DIR WORKSPACE_DIR (e.g. services/api)\n');
  process.exit(2);
}

const rootLock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const entries = rootLock.packages ?? {};

/**
 * Node's lookup over lockfile paths: from `from`, try `from/node_modules/name`, then each parent
 * folder's node_modules, up to the root. Returns the lock key or undefined.
 */
function resolve(from, name) {
  let base = from;
  for (;;) {
    const key = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (entries[key]) return key;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut >= 0 ? base.slice(0, cut) : '';
  }
}

// Walk the dependency graph from the workspace's own entry. `optional` records whether a package
// is reachable only through optional edges (npm skips those when the platform does not match).
const reached = new Map(); // lock key → { optional: boolean }
const queue = [];
function visit(from, deps, optional) {
  for (const name of Object.keys(deps ?? {})) {
    const key = resolve(from, name);
    if (!key) {
      if (optional) continue;
      throw new Error(`${name} (needed by ${from || 'the manifest'}) is not in package-lock.json`);
    }
    const seen = reached.get(key);
    if (seen && (seen.optional === false || optional)) continue;
    reached.set(key, { optional });
    queue.push(key);
  }
}

visit(workspaceDir, manifest.dependencies, false);
visit(workspaceDir, manifest.optionalDependencies, true);
while (queue.length > 0) {
  const key = queue.shift();
  const entry = entries[key];
  const optional = reached.get(key).optional;
  visit(key, entry.dependencies, optional);
  visit(key, entry.optionalDependencies, true);
  // npm installs peers too; a peer marked optional in peerDependenciesMeta may be absent.
  const peerMeta = entry.peerDependenciesMeta ?? {};
  for (const name of Object.keys(entry.peerDependencies ?? {})) {
    visit(key, { [name]: '*' }, optional || peerMeta[name]?.optional === true);
  }
}

const packages = {
  '': {
    name: manifest.name,
    version: manifest.version,
    ...(manifest.dependencies ? { dependencies: manifest.dependencies } : {}),
    ...(manifest.optionalDependencies
      ? { optionalDependencies: manifest.optionalDependencies }
      : {}),
  },
};
for (const [key, { optional }] of [...reached].sort(([a], [b]) => a.localeCompare(b))) {
  // A package nested under the workspace folder would have to move to the top level, where it
  // could shadow a hoisted copy that others rely on. Refuse rather than write a wrong tree.
  if (!key.startsWith('node_modules/')) {
    throw new Error(`${key} is nested under the workspace; hoisting it is not supported`);
  }
  // Workspace packages are bundled into main.js; a link here means the manifest lists one.
  if (entries[key].link) throw new Error(`${key} is a workspace link; bundle it instead`);
  // The root lock's dev/peer flags describe the whole workspace; here everything is production.
  const entry = { ...entries[key] };
  for (const flag of ['dev', 'devOptional', 'peer', 'optional']) delete entry[flag];
  packages[key] = optional ? { ...entry, optional: true } : entry;
}

const lock = {
  name: manifest.name,
  version: manifest.version,
  lockfileVersion: 3,
  requires: true,
  packages,
};
writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2) + '\n');
process.stdout.write(`prune-lock: ${reached.size} packages locked for ${manifest.name}\n`);
