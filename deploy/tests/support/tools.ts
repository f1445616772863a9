/**
 * Paths and external tools for the deployment checks. A check whose tool is missing is skipped
 * with the reason in its name; CI installs every tool first (scripts/tools/ensure-debian-tools,
 * scripts/tools/ensure-helm), so nothing is skipped there.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeWhen } from '@usher/testkit';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const CHART_DIR = join(ROOT, 'charts/usher');
export const COMPOSE_DIR = join(ROOT, 'compose');

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** An executable on PATH (plus /usr/sbin, where Debian puts nginx), or undefined. */
export function onPath(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin'];
  return dirs.map((d) => join(d, name)).find(isExecutable);
}

/** helm from scripts/tools/ensure-helm's cache first (the pinned version), then PATH. */
export function findHelm(): string | undefined {
  const cache = join(ROOT, '.cache/tools');
  try {
    for (const entry of readdirSync(cache)) {
      const candidate = join(cache, entry, 'helm');
      if (entry.startsWith('lambda-layer-kubectl') && isExecutable(candidate)) return candidate;
    }
  } catch {
    // No cache yet: fall through to PATH.
  }
  return onPath('helm');
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function run(cmd: string, args: string[], options: SpawnSyncOptions = {}): RunResult {
  const result = spawnSync(cmd, args, { encoding: 'utf8', timeout: 60_000, ...options });
  if (result.error) throw result.error;
  return {
    status: result.status,
    stdout: String(result.stdout ?? ''),
    stderr: String(result.stderr ?? ''),
  };
}

// A missing tool skips locally and fails on CI (`CI=true`); shared with the web e2e journeys.
export { describeWhen, toolsRequired } from '@usher/testkit';

/** `describe` with the tool's path, or (see describeWhen) a skip / CI failure naming the tool. */
export function describeWithTool(
  tool: string,
  path: string | undefined,
  title: string,
  body: (path: string) => void,
): void {
  describeWhen(
    path !== undefined,
    title,
    `${tool} (run scripts/tools/ensure-debian-tools / ensure-helm)`,
    () => body(path as string),
  );
}
