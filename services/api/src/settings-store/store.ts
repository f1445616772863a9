import { randomBytes } from 'node:crypto';
import type { SettingItem, SettingSource, SettingState, SettingValue } from '@usher/contracts';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.js';
import { queryRows } from '../db/sql.js';
import type { SettingsCipher } from './crypto.js';
import { maskSecret } from './crypto.js';
import {
  DEFINITIONS_BY_KEY,
  SETTING_DEFINITIONS,
  type KnownSettingDefinition,
  type SettingKey,
  type SettingStringOf,
  type SettingValueOf,
} from './definitions.js';
import type { SettingDefinition } from './types.js';
import { parseText } from './validate.js';

type StoredRow = {
  key: string;
  value: string;
  is_encrypted: boolean;
  updated_at: Date | string;
  updated_by: string | null;
  updated_by_name: string | null;
};

export interface Resolved {
  value: SettingValue;
  source: SettingSource;
  state: SettingState;
  stateReason?: string;
  row?: StoredRow;
}

/** How often a replica checks whether another replica changed a setting (30-settings.md §1). */
export const REFRESH_MS = 10_000;

/**
 * Resolves runtime settings — stored row > env var of the same name > code default — through a
 * per-replica cache. A write drops this replica's cache at once; other replicas notice within
 * `refreshMs` by comparing `max(updated_at)` and the row count, so no replica stays stale.
 */
export class SettingsStore {
  private rows: Map<string, StoredRow> | undefined;
  private version = '';
  private checkedAt = 0;
  /** Set by `invalidate`: the next read waits for fresh rows. */
  private mustReload = true;
  /** Bumped by `invalidate`, so a reload that started before it cannot clear it. */
  private generation = 0;
  private refreshing: Promise<Map<string, StoredRow>> | undefined;
  private readonly warnedEnv = new Set<string>();
  private readonly listeners: ((changed: string[]) => void)[] = [];

  constructor(
    private readonly db: Database,
    readonly cipher: SettingsCipher,
    /** Env fallbacks (each key's env var of the same name), captured at start. */
    readonly env: Record<string, string | undefined>,
    private readonly logger: Logger,
    private readonly refreshMs = REFRESH_MS,
  ) {}

  /** Called with the keys whose stored rows changed (on this or another replica). */
  onChange(listener: (changed: string[]) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Re-checks for changes every `refreshMs` even when nothing reads, so live settings with side
   * effects (the log level, schedules) follow a change made on another replica. Returns a stop.
   */
  watch(): () => void {
    const timer = setInterval(() => this.refreshInBackground(), this.refreshMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * Drops the cache so the next read waits for a reload. Prefer `reload()` after a write: a read
   * that has to wait inside an open transaction would hang on the embedded database.
   */
  invalidate(): void {
    this.generation += 1;
    this.mustReload = true;
    this.refreshing = undefined;
  }

  /** Reloads now (after a write on this replica), so later reads see the write without waiting. */
  async reload(): Promise<void> {
    this.invalidate();
    await this.refresh();
  }

  /**
   * The cached rows, stale-while-revalidate: only the first read (and the first after
   * `invalidate`) waits for the database. Once the cache is older than `refreshMs`, readers get
   * it at once and one background query checks for changes. Reads therefore never query the
   * database themselves, which matters inside transactions: on the embedded database (one
   * connection) a query outside an open transaction waits for it to end, so a read that queried
   * there would hang for good.
   */
  private load(): Promise<Map<string, StoredRow>> {
    if (this.rows && !this.mustReload) {
      if (Date.now() - this.checkedAt >= this.refreshMs) this.refreshInBackground();
      return Promise.resolve(this.rows);
    }
    return this.refresh();
  }

  /** A check nobody waits for (the timer, a stale read): a failure is logged, not thrown. */
  private refreshInBackground(): void {
    this.refresh().catch((err: unknown) =>
      this.logger.warn({ err: (err as Error).message }, 'settings refresh failed'),
    );
  }

  /** One check at a time per replica; concurrent callers share it. */
  private refresh(): Promise<Map<string, StoredRow>> {
    if (!this.refreshing) {
      const generation = this.generation;
      const running = this.fetch(generation).finally(() => {
        if (this.refreshing === running) this.refreshing = undefined;
      });
      this.refreshing = running;
    }
    return this.refreshing;
  }

  private async fetch(generation: number): Promise<Map<string, StoredRow>> {
    const startedAt = Date.now();
    const [stamp] = await queryRows<{ v: string }>(
      this.db,
      sql`select coalesce(max(updated_at)::text, '') || '/' || count(*)::text as v from settings`,
    );
    if (this.rows && !this.mustReload && stamp?.v === this.version) {
      this.checkedAt = startedAt;
      return this.rows;
    }
    const rows = await queryRows<StoredRow>(
      this.db,
      sql`select s.key, s.value, s.is_encrypted, s.updated_at, s.updated_by,
            u.username as updated_by_name
          from settings s left join users u on u.id = s.updated_by`,
    );
    const next = new Map(rows.map((r) => [r.key, r]));
    // A reload started before an invalidate may have read rows from before the write: it serves
    // its own callers but does not clear the invalidation.
    if (generation !== this.generation) return next;
    const previous = this.rows;
    this.rows = next;
    this.version = stamp?.v ?? '';
    this.checkedAt = startedAt;
    this.mustReload = false;
    if (previous) {
      const changed = [...new Set([...previous.keys(), ...next.keys()])].filter(
        (k) => previous.get(k)?.value !== next.get(k)?.value,
      );
      if (changed.length) for (const listener of this.listeners) listener(changed);
    }
    return next;
  }

  private fromEnvOrDefault(
    def: SettingDefinition,
    reason?: Pick<Resolved, 'state' | 'stateReason'>,
  ): Resolved {
    const raw = this.env[def.key];
    if (raw !== undefined && (raw !== '' || def.allowEmpty)) {
      const parsed = parseText(def, raw);
      if (parsed.ok)
        return {
          value: parsed.value,
          source: 'env',
          state: reason?.state ?? 'ok',
          stateReason: reason?.stateReason,
        };
      if (!this.warnedEnv.has(def.key)) {
        this.warnedEnv.add(def.key);
        this.logger.warn(
          { key: def.key, problem: parsed.message },
          'ignoring invalid setting in the environment',
        );
      }
      return {
        value: def.default,
        source: 'default',
        state: 'invalid',
        stateReason: `environment value ${parsed.message}`,
      };
    }
    const hasDefault = !(
      def.default === '' ||
      (Array.isArray(def.default) && def.default.length === 0)
    );
    return {
      value: def.default,
      source: hasDefault ? 'default' : 'unset',
      state: reason?.state ?? 'ok',
      stateReason: reason?.stateReason,
    };
  }

  /** The effective value of one key, with its source and state. */
  async resolve(key: SettingKey): Promise<Resolved> {
    const def = DEFINITIONS_BY_KEY.get(key);
    if (!def) throw new Error(`unknown setting ${key}`);
    const row = (await this.load()).get(key);
    if (!row) return this.fromEnvOrDefault(def);
    let text = row.value;
    let state: SettingState = 'ok';
    if (row.is_encrypted) {
      const decrypted = this.cipher.decrypt(key, row.value);
      // An undecryptable value counts as absent: env or default applies (§8).
      if (!decrypted.ok)
        return {
          ...this.fromEnvOrDefault(def, { state: 'undecryptable', stateReason: decrypted.reason }),
          row,
        };
      text = decrypted.value;
    } else if (def.sensitive) {
      state = 'plaintext';
    }
    const parsed = parseText(def, text);
    if (!parsed.ok)
      return {
        ...this.fromEnvOrDefault(def, {
          state: 'invalid',
          stateReason: `stored value ${parsed.message}`,
        }),
        row,
      };
    return { value: parsed.value, source: 'db', state, row };
  }

  /** The effective value of one key, typed from its definition (`SettingValueOf`). */
  async get<K extends SettingKey>(key: K): Promise<SettingValueOf<K>> {
    // `parseText` and the definition's default produce the value type of the key's setting type.
    return (await this.resolve(key)).value as SettingValueOf<K>;
  }

  async getString<K extends SettingKey>(key: K): Promise<SettingStringOf<K>> {
    return String(await this.get(key)) as SettingStringOf<K>;
  }

  /** Keys whose stored ciphertext cannot be read with the current key. */
  async undecryptable(): Promise<{ key: string; reason: string }[]> {
    const out: { key: string; reason: string }[] = [];
    for (const row of (await this.load()).values()) {
      if (!row.is_encrypted) continue;
      const result = this.cipher.decrypt(row.key, row.value);
      if (!result.ok) out.push({ key: row.key, reason: result.reason });
    }
    return out;
  }

  /** Every definition as the admin page shows it (never a sensitive value). */
  async items(): Promise<SettingItem[]> {
    return Promise.all(SETTING_DEFINITIONS.map((def) => this.item(def)));
  }

  async item(def: KnownSettingDefinition): Promise<SettingItem> {
    const resolved = await this.resolve(def.key);
    const hasValue =
      !(resolved.value === '' || (Array.isArray(resolved.value) && resolved.value.length === 0)) ||
      (resolved.source === 'db' && def.allowEmpty === true);
    const item: SettingItem = {
      key: def.key,
      group: def.group,
      label: def.label,
      description: def.description,
      type: def.type,
      ...(def.options ? { options: def.options.map((o) => ({ value: o, label: o })) } : {}),
      ...(def.min !== undefined ? { min: def.min } : {}),
      ...(def.max !== undefined ? { max: def.max } : {}),
      multiline: def.multiline ?? false,
      sensitive: def.sensitive ?? false,
      editable: true,
      allowEmpty: def.allowEmpty ?? false,
      apply: def.apply ?? 'live',
      source: resolved.source,
      hasValue,
      state: resolved.state,
      ...(resolved.stateReason ? { stateReason: resolved.stateReason } : {}),
      ...(def.fallbackHint ? { fallbackHint: def.fallbackHint } : {}),
    };
    if (def.sensitive) {
      if (hasValue) item.masked = maskSecret(String(resolved.value));
    } else {
      item.value = resolved.value;
      item.default = def.default;
    }
    if (resolved.row) {
      item.updatedAt = new Date(resolved.row.updated_at).toISOString();
      if (resolved.row.updated_by && resolved.row.updated_by_name) {
        item.updatedBy = { id: resolved.row.updated_by, username: resolved.row.updated_by_name };
      }
    }
    return item;
  }

  /**
   * First start (10-data.md §12): generates the media-server webhook token when neither a stored
   * row nor the env var exists. Safe when replicas race (insert … on conflict do nothing).
   */
  async ensureWebhookToken(): Promise<boolean> {
    const key = 'MEDIA_SERVER_WEBHOOK_TOKEN';
    if (this.env[key] !== undefined && this.env[key] !== '') return false;
    const token = randomBytes(32).toString('hex');
    const inserted = await queryRows(
      this.db,
      sql`insert into settings (key, value, is_encrypted, updated_at)
          values (${key}, ${this.cipher.encrypt(key, token)}, true, now())
          on conflict (key) do nothing returning key`,
    );
    await this.reload();
    return inserted.length === 1;
  }
}
