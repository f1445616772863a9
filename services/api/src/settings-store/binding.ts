import type { SettingValue } from '@usher/contracts';
import { AppError } from '../errors/app-error.js';
import type { SettingsReader } from './reader.js';
import { SETTING_DEFINITIONS, type SettingKey } from './definitions.js';

/** A secret and the settings that say where it is sent (30-settings-style pairs, docs/settings.md). */
export interface SecretBinding {
  group: string;
  secret: SettingKey;
  destinations: readonly SettingKey[];
}

/** Every secret bound to its destination, from the registry's `boundTo`. */
export const SECRET_BINDINGS: readonly SecretBinding[] = SETTING_DEFINITIONS.flatMap((d) =>
  'boundTo' in d && d.boundTo
    ? [
        {
          group: d.group,
          secret: d.key as SettingKey,
          destinations: d.boundTo as readonly SettingKey[],
        },
      ]
    : [],
);

/** A secret whose destination a draft changes, with the destination keys that changed. */
export interface Rebinding {
  secret: SettingKey;
  changed: SettingKey[];
}

function same(a: SettingValue, b: SettingValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The group's secrets whose destination differs between `current` (what is stored, or the env
 * fallback) and `next` (the draft overlaid on it).
 */
export async function rebindings(
  group: string,
  current: SettingsReader,
  next: SettingsReader,
): Promise<Rebinding[]> {
  const found: Rebinding[] = [];
  for (const b of SECRET_BINDINGS) {
    // A secret and its destinations share a group (a test in tests/settings checks it).
    if (b.group !== group) continue;
    const changed: SettingKey[] = [];
    for (const key of b.destinations) {
      if (!same(await current.get(key), await next.get(key))) changed.push(key);
    }
    if (changed.length) found.push({ secret: b.secret, changed });
  }
  return found;
}

/**
 * Refuses a draft that would send a stored secret somewhere the operator did not pair it with.
 * For each secret whose destination the draft changes:
 * - a secret that resolves to nothing after the draft is not sent, so it needs nothing;
 * - a secret the draft carries again (a new value) goes with its new destination;
 * - `null` for the secret and for every destination that moved reverts the whole pair to the
 *   deployment's environment (or the defaults): the operator's own pair, so it passes;
 * - anything else is refused with `SECRET_REENTRY_REQUIRED`, `details.keys` (the secrets to type
 *   again) and `details.changed` (the destination keys that moved) — never a value.
 * Returns the secrets that now go to a new destination, for the audit row.
 */
export async function assertSecretsReentered(
  group: string,
  values: Record<string, SettingValue | null>,
  current: SettingsReader,
  next: SettingsReader,
): Promise<Rebinding[]> {
  const given = (key: string) => (Object.hasOwn(values, key) ? values[key] : undefined);
  const rebound: Rebinding[] = [];
  const missing: Rebinding[] = [];
  for (const r of await rebindings(group, current, next)) {
    if ((await next.getString(r.secret)) === '') continue;
    const secret = given(r.secret);
    const revertsPair = secret === null && r.changed.every((k) => given(k) === null);
    if (typeof secret === 'string' || revertsPair) rebound.push(r);
    else missing.push(r);
  }
  if (missing.length) {
    const keys = missing.map((m) => m.secret);
    const changed = [...new Set(missing.flatMap((m) => m.changed))];
    throw new AppError(
      'SECRET_REENTRY_REQUIRED',
      `${changed.join(', ')} changed: enter ${keys.join(', ')} again to use it there`,
      { details: { keys, changed } },
    );
  }
  return rebound;
}
