import {
  SETTING_GROUPS,
  type SettingGroup,
  type SettingItem,
  type SettingValue,
} from '@usher/contracts';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { recordAudit, type AuditActor } from '../audit-log/audit.js';
import type { Config } from '../config/env.js';
import type { Database } from '../db/client.js';
import { AppError } from '../errors/app-error.js';
import { assertSecretsReentered } from './binding.js';
import { DEFINITIONS_BY_KEY, type SettingKey } from './definitions.js';
import { draftSettings } from './draft.js';
import type { SettingsStore } from './store.js';
import { GROUP_LABELS, TESTABLE_GROUPS } from './types.js';
import { parseInput } from './validate.js';

const READ_ONLY_KEYS = new Set([
  'MEDIA_SERVER_WEBHOOK_URL',
  'OIDC_REDIRECT_URI',
  'DATABASE_URL',
  'DATABASE_PASSWORD',
  'JWT_SECRET',
  'CONFIG_ENCRYPTION_KEY',
  'INTERNAL_API_SECRET',
  'ADMIN_PASSWORD',
  'BOT_NOTIFY_URL',
  'PORT',
  'TRUST_PROXY_HOPS',
  'DATABASE_POOL_MAX',
  'STRIPE_API_BASE',
]);

function readOnlyItem(
  group: SettingGroup,
  key: string,
  label: string,
  value: string | number | null,
  description = '',
): SettingItem {
  return {
    key,
    group,
    label,
    description,
    type: typeof value === 'number' ? 'integer' : 'string',
    multiline: false,
    sensitive: false,
    editable: false,
    allowEmpty: true,
    apply: 'restart',
    source: 'env',
    hasValue: value !== null && value !== '',
    value,
    state: 'ok',
  };
}

/** The API side of the settings center: listing, validated writes, read-only deployment view. */
export class SettingsService {
  constructor(
    private readonly db: Database,
    readonly store: SettingsStore,
    private readonly config: Config,
    private readonly meta: { replicaId: string; logger: Logger },
  ) {}

  private deploymentItems(): SettingItem[] {
    const c = this.config;
    const set = (v: string | undefined) => (v ? 'set' : 'not set');
    let database = `embedded (PGlite, ${c.PGLITE_DATA_DIR})`;
    if (c.DATABASE_URL) {
      const url = new URL(c.DATABASE_URL);
      database = `${url.protocol}//${url.host}${url.pathname}`;
    }
    return [
      readOnlyItem('deployment', 'DATABASE_URL', 'Database', database),
      readOnlyItem(
        'deployment',
        'DATABASE_PASSWORD',
        'Database password',
        set(c.DATABASE_PASSWORD),
      ),
      readOnlyItem('deployment', 'JWT_SECRET', 'JWT root key', set(c.JWT_SECRET)),
      readOnlyItem(
        'deployment',
        'CONFIG_ENCRYPTION_KEY',
        'Settings encryption key',
        `set (key id ${this.store.cipher.keyId})`,
        'The key id changes when the key changes; stored secrets then need re-entering',
      ),
      readOnlyItem(
        'deployment',
        'INTERNAL_API_SECRET',
        'Internal API secret',
        set(c.INTERNAL_API_SECRET),
      ),
      readOnlyItem('deployment', 'ADMIN_PASSWORD', 'Initial admin password', set(c.ADMIN_PASSWORD)),
      readOnlyItem(
        'deployment',
        'BOT_NOTIFY_URL',
        'Bot notify URL',
        c.BOT_NOTIFY_URL ?? '',
        'Empty = bot events off',
      ),
      readOnlyItem('deployment', 'PORT', 'API port', c.PORT),
      readOnlyItem('deployment', 'TRUST_PROXY_HOPS', 'Trusted proxy hops', c.TRUST_PROXY_HOPS),
      readOnlyItem('deployment', 'DATABASE_POOL_MAX', 'Database pool size', c.DATABASE_POOL_MAX),
      readOnlyItem(
        'deployment',
        'STRIPE_API_BASE',
        'Stripe API base',
        this.store.env.STRIPE_API_BASE || 'https://api.stripe.com',
        'Override for tests and the demo only',
      ),
      readOnlyItem('deployment', 'VERSION', 'Version', c.version),
      readOnlyItem('deployment', 'REPLICA_ID', 'Replica', this.meta.replicaId),
    ];
  }

  /** The webhook address admins paste into the media server: shown in full on purpose (§4.2). */
  private async webhookUrlItem(): Promise<SettingItem> {
    const token = await this.store.getString('MEDIA_SERVER_WEBHOOK_TOKEN');
    const base = await this.store.getString('PUBLIC_WEB_URL');
    const value = token ? `${base}/api/v1/webhooks/media-server?token=${token}` : '';
    return readOnlyItem(
      'media_server',
      'MEDIA_SERVER_WEBHOOK_URL',
      'Webhook URL',
      value,
      'Paste into the media server (Emby notifications or the Jellyfin webhook plugin)',
    );
  }

  /** The redirect URI to register at the identity provider (docs/sso.md), read-only. */
  private async redirectUriItem(): Promise<SettingItem> {
    const base = (await this.store.getString('PUBLIC_WEB_URL')).replace(/\/+$/, '');
    return readOnlyItem(
      'sso',
      'OIDC_REDIRECT_URI',
      'Redirect URI',
      base ? `${base}/api/v1/auth/oidc/callback` : '',
      'Register this address at the provider; it follows the public web address',
    );
  }

  async list() {
    const items = await this.store.items();
    const webhook = await this.webhookUrlItem();
    const redirectUri = await this.redirectUriItem();
    const undecryptable = await this.store.undecryptable();
    const groups = SETTING_GROUPS.map((group) => {
      const own =
        group === 'deployment' ? this.deploymentItems() : items.filter((i) => i.group === group);
      if (group === 'media_server') own.splice(5, 0, webhook);
      if (group === 'sso') own.splice(1, 0, redirectUri);
      return {
        group,
        label: GROUP_LABELS[group],
        testable: TESTABLE_GROUPS.has(group),
        items: own,
      };
    });
    return {
      groups,
      encryption: {
        keyId: this.store.cipher.keyId,
        undecryptable: undecryptable.map((u) => u.key),
      },
    };
  }

  async groupItems(group: SettingGroup): Promise<SettingItem[]> {
    return (await this.list()).groups.find((g) => g.group === group)!.items;
  }

  /**
   * Writes the given keys of one group in one transaction (all or nothing). `null` deletes the
   * stored value (fallback to env/default); sensitive values are encrypted; the audit row names
   * the keys and shows old → new only for non-sensitive ones.
   */
  async update(
    group: string,
    values: Record<string, SettingValue | null>,
    actor: AuditActor,
    request: { ip: string | null; requestId: string },
  ): Promise<SettingItem[]> {
    if (!(SETTING_GROUPS as readonly string[]).includes(group)) {
      throw new AppError('SETTING_GROUP_NOT_FOUND', `No settings group ${group.slice(0, 40)}`);
    }
    if (group === 'deployment') {
      throw new AppError('SETTING_READ_ONLY', 'Deployment variables are set in the environment');
    }
    const errors: { key: string; message: string }[] = [];
    const writes: {
      key: SettingKey;
      stored: string | null;
      sensitive: boolean;
      value: SettingValue | null;
    }[] = [];
    for (const [key, input] of Object.entries(values)) {
      const def = DEFINITIONS_BY_KEY.get(key);
      if (!def || def.group !== group) {
        if (READ_ONLY_KEYS.has(key)) {
          throw new AppError('SETTING_READ_ONLY', `${key} is read-only`, { details: { key } });
        }
        throw new AppError(
          'SETTING_UNKNOWN_KEY',
          `${key.slice(0, 64)} is not a setting of ${group}`,
          {
            details: { key: key.slice(0, 64) },
          },
        );
      }
      if (input === null) {
        writes.push({ key: def.key, stored: null, sensitive: def.sensitive ?? false, value: null });
        continue;
      }
      const parsed = parseInput(def, input);
      if (!parsed.ok) errors.push({ key, message: parsed.message });
      else
        writes.push({
          key: def.key,
          stored: parsed.stored,
          sensitive: def.sensitive ?? false,
          value: parsed.value,
        });
    }
    if (errors.length) {
      throw new AppError('SETTING_INVALID', 'Some values are not valid', { details: errors });
    }
    // A stored secret is paired with its destination: moving it needs the secret again.
    const rebound = await assertSecretsReentered(
      group,
      values,
      this.store,
      draftSettings(this.store, group, values),
    );
    const before = new Map(
      await Promise.all(writes.map(async (w) => [w.key, await this.store.get(w.key)] as const)),
    );
    await this.db.transaction(async (tx) => {
      for (const w of writes) {
        if (w.stored === null) {
          await tx.execute(sql`delete from settings where key = ${w.key}`);
          continue;
        }
        const value = w.sensitive ? this.store.cipher.encrypt(w.key, w.stored) : w.stored;
        await tx.execute(sql`
          insert into settings (key, value, is_encrypted, updated_by, updated_at)
          values (${w.key}, ${value}, ${w.sensitive}, ${actor.id}, now())
          on conflict (key) do update set value = excluded.value,
            is_encrypted = excluded.is_encrypted, updated_by = excluded.updated_by,
            updated_at = excluded.updated_at`);
      }
      const changes = Object.fromEntries(
        writes.map((w) => [
          w.key,
          w.sensitive
            ? { changed: true, cleared: w.stored === null }
            : { from: before.get(w.key) ?? null, to: w.value },
        ]),
      );
      await recordAudit(tx, {
        actor,
        action: 'settings.update',
        target: { type: 'setting', id: group },
        details: {
          keys: writes.map((w) => w.key),
          changes,
          // Which secrets now go to a new destination (re-entered in this very change).
          ...(rebound.length ? { rebound } : {}),
        },
        ip: request.ip,
        requestId: request.requestId,
      });
    });
    await this.store.reload();
    return this.groupItems(group as SettingGroup);
  }
}
