import { inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { settings } from '../../db/schema/index.js';
import { queryRows } from '../../db/sql.js';

/**
 * Reads the few runtime settings the public site needs, with the settings-center precedence
 * (stored row > env var of the same name > default, 30-settings.md §1).
 *
 * Drift on purpose: this is a narrow reader until the typed settings registry lands (settings
 * center issue); it only reads plain values and only checks presence for sensitive keys.
 */
const DEFAULTS: Record<string, string> = {
  SITE_NAME: 'Usher',
  REGISTRATION_MODE: 'invite',
  MEDIA_SERVER_KIND: 'emby',
  TMDB_IMAGE_BASE: 'https://image.tmdb.org/t/p',
};

const KEYS = [
  ...Object.keys(DEFAULTS),
  'SMTP_HOST',
  'SMTP_PORT',
  'SMTP_FROM',
  'SMTP_USERNAME',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
];

export interface PublicSite {
  siteName: string;
  registrationMode: 'open' | 'invite';
  emailEnabled: boolean;
  paymentsEnabled: boolean;
  mediaServerKind: 'emby' | 'jellyfin';
  version: string;
  setupPending: boolean;
  tmdbImageBase: string;
}

export async function readPublicSite(
  db: Database,
  env: Record<string, string | undefined>,
  version: string,
): Promise<PublicSite> {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.key, KEYS));
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  const get = (key: string): string => stored.get(key) ?? env[key] ?? DEFAULTS[key] ?? '';
  const sender = get('SMTP_FROM') || (get('SMTP_USERNAME').includes('@') ? 'username' : '');
  const [setup] = await queryRows<{ pending: boolean }>(
    db,
    sql`select exists(select 1 from users where registered_via = 'bootstrap'
          and must_change_password and last_login_at is null) as pending`,
  );
  const mode = get('REGISTRATION_MODE');
  const kind = get('MEDIA_SERVER_KIND');
  return {
    siteName: get('SITE_NAME'),
    registrationMode: mode === 'open' ? 'open' : 'invite',
    emailEnabled: Boolean(get('SMTP_HOST') && get('SMTP_PORT') && sender),
    paymentsEnabled: Boolean(get('STRIPE_SECRET_KEY') && get('STRIPE_WEBHOOK_SECRET')),
    mediaServerKind: kind === 'jellyfin' ? 'jellyfin' : 'emby',
    version,
    setupPending: setup?.pending ?? false,
    tmdbImageBase: get('TMDB_IMAGE_BASE').replace(/\/+$/, ''),
  };
}
