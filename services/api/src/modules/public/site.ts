import type { Database } from '../../db/client.js';
import type { SettingKey } from '../../settings-store/definitions.js';
import type { SettingsStore } from '../../settings-store/store.js';
import { paymentsEnabled } from '../payments/index.js';
import { readSsoSettings } from '../../integrations/oidc/index.js';
import { setupPending } from './queries.js';

export interface PublicSite {
  siteName: string;
  registrationMode: 'open' | 'invite';
  emailEnabled: boolean;
  paymentsEnabled: boolean;
  mediaServerKind: 'emby' | 'jellyfin';
  version: string;
  setupPending: boolean;
  tmdbImageBase: string;
  sso: { enabled: boolean; label: string; autoRedirect: boolean; passwordLogin: boolean };
}

/** What public pages need (20-api.md §4), from the settings center. */
export async function readPublicSite(
  db: Database,
  store: SettingsStore,
  version: string,
): Promise<PublicSite> {
  const get = (key: SettingKey) => store.getString(key);
  const username = await get('SMTP_USERNAME');
  const sender = (await get('SMTP_FROM')) || (username.includes('@') ? username : '');
  return {
    siteName: await get('SITE_NAME'),
    registrationMode: (await get('REGISTRATION_MODE')) === 'open' ? 'open' : 'invite',
    // 30-settings.md §5: host + port + a sender.
    emailEnabled: Boolean((await get('SMTP_HOST')) && (await get('SMTP_PORT')) && sender),
    // Only when a payment can really be taken: Stripe ready and a plan on sale.
    paymentsEnabled: await paymentsEnabled(db, store),
    mediaServerKind: (await get('MEDIA_SERVER_KIND')) === 'jellyfin' ? 'jellyfin' : 'emby',
    version,
    setupPending: await setupPending(db),
    tmdbImageBase: await get('TMDB_IMAGE_BASE'),
    sso: await siteSso(store),
  };
}

/** What the sign-in page needs to offer single sign-on (docs/sso.md). */
async function siteSso(store: SettingsStore): Promise<PublicSite['sso']> {
  const s = await readSsoSettings(store);
  return {
    enabled: s.active,
    label: s.label,
    autoRedirect: s.active && s.autoRedirect,
    passwordLogin: !s.active || s.passwordLoginSetting,
  };
}
