/** One changed field of an audit entry: where it sits in `details`, before and after. */
export interface AuditChange {
  path: string;
  before: string;
  after: string;
}

/** Any other fact of an audit entry (`runId`, `keys`, `days`), as text. */
export interface AuditFact {
  path: string;
  value: string;
}

const MAX_DEPTH = 5;

const PAIRS: readonly (readonly [string, string])[] = [
  ['from', 'to'],
  ['before', 'after'],
  ['previous', 'next'],
  ['old', 'new'],
];

/** A value as the page shows it: strings bare, the rest as compact JSON, null as an em dash. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) {
    return value.length ? value.map((v) => valueText(v)).join(', ') : '[]';
  }
  return JSON.stringify(value);
}

function pairOf(node: Record<string, unknown>): readonly [string, string] | undefined {
  return PAIRS.find(
    ([a, b]) => Object.hasOwn(node, a) && Object.hasOwn(node, b) && Object.keys(node).length <= 3,
  );
}

/**
 * An audit entry's `details` made readable (60-web.md §4 "Audit log" row drawer): every
 * `{from, to}` (or `before/after`, `previous/next`, `old/new`) pair anywhere becomes a change row
 * named by its path; every other leaf becomes a fact.
 */
export function auditDetails(details: unknown): { changes: AuditChange[]; facts: AuditFact[] } {
  const changes: AuditChange[] = [];
  const facts: AuditFact[] = [];
  const walk = (node: unknown, path: string, depth: number) => {
    if (node !== null && typeof node === 'object' && !Array.isArray(node) && depth < MAX_DEPTH) {
      const record = node as Record<string, unknown>;
      const pair = pairOf(record);
      if (pair && path) {
        changes.push({
          path,
          before: valueText(record[pair[0]]),
          after: valueText(record[pair[1]]),
        });
        return;
      }
      for (const [key, value] of Object.entries(record)) {
        walk(value, path ? `${path}.${key}` : key, depth + 1);
      }
      return;
    }
    if (path) facts.push({ path, value: valueText(node) });
    else if (node !== null && node !== undefined) facts.push({ path: '', value: valueText(node) });
  };
  walk(details, '', 0);
  // `changes.X` reads better as `X` when every change sits under one `changes` object.
  if (changes.length && changes.every((c) => c.path.startsWith('changes.'))) {
    for (const c of changes) c.path = c.path.slice('changes.'.length);
  }
  return { changes, facts };
}
