/**
 * `helm template` / `helm lint` over charts/usher, and accessors for the rendered manifests.
 * Renders are cached per argument list: every describe of a value set reads the same output.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CHART_DIR, run, type RunResult } from './tools.js';

export const RELEASE = 't';
export const CI_SETS = readdirSync(join(CHART_DIR, 'ci'))
  .filter((f) => f.endsWith('-values.yaml'))
  .map((f) => f.replace(/-values\.yaml$/, ''))
  .sort();

// Loose on purpose: tests read manifests the way kubectl would, by key.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type Manifest = Record<string, any>;
export type Container = Record<string, any>;

export const ciFile = (set: string) => join(CHART_DIR, 'ci', `${set}-values.yaml`);

/** The arguments of 70-deploy.md §8's render command. */
const RENDER_ARGS = ['--kube-version', '1.31', '--api-versions', 'monitoring.coreos.com/v1'];

const cache = new Map<string, Manifest[]>();

export function helmTemplate(helm: string, args: string[]): RunResult {
  return run(helm, ['template', RELEASE, CHART_DIR, ...RENDER_ARGS, ...args]);
}

/** Renders a value set (plus extra `--set`s) and parses every document. Throws on failure. */
export function render(helm: string, set: string, extra: string[] = []): Manifest[] {
  const key = [set, ...extra].join('\0');
  const hit = cache.get(key);
  if (hit) return hit;
  const result = helmTemplate(helm, ['-f', ciFile(set), ...extra]);
  if (result.status !== 0) throw new Error(`helm template ${set} failed:\n${result.stderr}`);
  const docs = parseAllDocuments(result.stdout)
    .map((d) => d.toJSON() as Manifest | null)
    .filter((d): d is Manifest => d !== null && typeof d === 'object');
  cache.set(key, docs);
  return docs;
}

/** NOTES.txt as `helm install --dry-run=client` prints it (helm template does not render it). */
export function notes(helm: string, set: string, extra: string[] = []): string {
  const args = ['install', RELEASE, CHART_DIR, '-f', ciFile(set), ...extra, '--dry-run=client'];
  const result = run(helm, args);
  if (result.status !== 0)
    throw new Error(`helm install --dry-run ${set} failed:\n${result.stderr}`);
  const at = result.stdout.indexOf('NOTES:');
  return at >= 0 ? result.stdout.slice(at) : '';
}

export const ofKind = (docs: Manifest[], kind: string) => docs.filter((d) => d.kind === kind);

export function find(docs: Manifest[], kind: string, name: string): Manifest | undefined {
  return docs.find((d) => d.kind === kind && d.metadata?.name === name);
}

export function get(docs: Manifest[], kind: string, name: string): Manifest {
  const doc = find(docs, kind, name);
  if (!doc) throw new Error(`no ${kind} ${name} rendered`);
  return doc;
}

export const component = (d: Manifest): string =>
  d.metadata?.labels?.['app.kubernetes.io/component'] ?? '';

/**
 * Every pod spec with its owner: Deployments, the StatefulSet, the backup CronJob and bare Pods
 * (the test pod).
 */
export function pods(docs: Manifest[]): { owner: Manifest; spec: Manifest; meta: Manifest }[] {
  return docs.flatMap((d) => {
    if (d.kind === 'Deployment' || d.kind === 'StatefulSet') {
      return [{ owner: d, spec: d.spec.template.spec, meta: d.spec.template.metadata }];
    }
    if (d.kind === 'CronJob') {
      const template = d.spec.jobTemplate.spec.template;
      return [{ owner: d, spec: template.spec, meta: template.metadata }];
    }
    if (d.kind === 'Pod') return [{ owner: d, spec: d.spec, meta: d.metadata }];
    return [];
  });
}

export function containerOf(doc: Manifest): Container {
  const spec = doc.kind === 'Pod' ? doc.spec : doc.spec.template.spec;
  return spec.containers[0];
}

/** Env entries of a container keyed by name. */
export function envOf(c: Container): Map<string, Manifest> {
  return new Map((c.env ?? []).map((e: Manifest) => [e.name as string, e]));
}

/** Secret keys a pod spec reads through secretKeyRef (env and envFrom). */
export function secretKeysOf(spec: Manifest): string[] {
  return spec.containers.flatMap((c: Container) =>
    (c.env ?? [])
      .map((e: Manifest) => e.valueFrom?.secretKeyRef?.key as string | undefined)
      .filter((k: string | undefined): k is string => Boolean(k)),
  );
}

export const name = (component: string) => `${RELEASE}-${component}`;
