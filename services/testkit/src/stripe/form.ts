// Decodes Stripe's form encoding (`line_items[0][price_data][currency]=usd`) into nested
// objects and arrays, as the `qs` parser Stripe documents does with indexed arrays. `qs` is not
// installed here, so this covers what stripe-node produces: bracketed keys of any depth, numeric
// segments as array indices and `key[]` pushes.
import { parseUrlEncodedPairs } from '../fake-server/body.js';

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

function segments(key: string): string[] {
  const first = key.indexOf('[');
  if (first <= 0) return [key];
  const parts = [key.slice(0, first)];
  const rest = key.slice(first);
  const pattern = /\[([^\]]*)\]/g;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = pattern.exec(rest)) !== null) {
    parts.push(match[1]!);
    consumed = pattern.lastIndex;
  }
  // Trailing junk after the last bracket becomes part of the last segment, as in qs.
  if (consumed < rest.length) parts[parts.length - 1] += rest.slice(consumed);
  return parts;
}

function assign(target: FormObject | FormValue[], path: string[], value: string) {
  let node: FormObject | FormValue[] = target;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    const last = i === path.length - 1;
    const index = segment === '' && Array.isArray(node) ? node.length : segment;
    const container = node as Record<string, FormValue>;
    if (last) {
      container[index] = value;
      return;
    }
    const nextIsIndex = /^\d+$/.test(path[i + 1]!) || path[i + 1] === '';
    if (typeof container[index] !== 'object') container[index] = nextIsIndex ? [] : {};
    node = container[index] as FormObject | FormValue[];
  }
}

export function parseStripeForm(text: string): FormObject {
  const out: FormObject = {};
  for (const [key, value] of parseUrlEncodedPairs(text)) assign(out, segments(key), value);
  return out;
}

/** A stable string for comparing two requests' parameters (Idempotency-Key reuse). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
