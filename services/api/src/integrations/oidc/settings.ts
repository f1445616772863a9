// The `sso` settings group (docs/sso.md), read once per use like every other group.
import type { SettingsReader } from '../common.js';

export const CALLBACK_PATH = '/api/v1/auth/oidc/callback';

export interface SsoSettings {
  /** Whether single sign-on is switched on and has what it needs (issuer, client, web address). */
  active: boolean;
  switchedOn: boolean;
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  label: string;
  autoRedirect: boolean;
  allowRegistration: boolean;
  groupsClaim: string;
  adminGroups: string[];
  /** `OIDC_PASSWORD_LOGIN` as set (whether it applies depends on `active`). */
  passwordLoginSetting: boolean;
  linkByVerifiedEmail: boolean;
  /** Public address of the web app, without a trailing slash ('' when unset). */
  webUrl: string;
  /** `PUBLIC_WEB_URL` + the callback path: what is registered at the provider. */
  redirectUri: string;
}

export async function readSsoSettings(settings: SettingsReader): Promise<SsoSettings> {
  const str = async (key: Parameters<SettingsReader['get']>[0]) => String(await settings.get(key));
  const bool = async (key: Parameters<SettingsReader['get']>[0]) =>
    Boolean(await settings.get(key));
  const webUrl = (await str('PUBLIC_WEB_URL')).replace(/\/+$/, '');
  const switchedOn = await bool('OIDC_ENABLED');
  const issuer = await str('OIDC_ISSUER_URL');
  const clientId = await str('OIDC_CLIENT_ID');
  return {
    active: switchedOn && issuer !== '' && clientId !== '' && webUrl !== '',
    switchedOn,
    issuer,
    discoveryUrl: await str('OIDC_DISCOVERY_URL'),
    clientId,
    clientSecret: await str('OIDC_CLIENT_SECRET'),
    scopes: await str('OIDC_SCOPES'),
    label: await str('OIDC_BUTTON_LABEL'),
    autoRedirect: await bool('OIDC_AUTO_REDIRECT'),
    allowRegistration: await bool('OIDC_ALLOW_REGISTRATION'),
    groupsClaim: await str('OIDC_GROUPS_CLAIM'),
    adminGroups: (await settings.get('OIDC_ADMIN_GROUPS')) as string[],
    passwordLoginSetting: await bool('OIDC_PASSWORD_LOGIN'),
    linkByVerifiedEmail: await bool('OIDC_LINK_BY_VERIFIED_EMAIL'),
    webUrl,
    redirectUri: webUrl ? `${webUrl}${CALLBACK_PATH}` : '',
  };
}

/**
 * Whether a password signs this account in: always, unless single sign-on works and
 * `OIDC_PASSWORD_LOGIN` is off — then only the bootstrap admin keeps it, as a break-glass.
 */
export function passwordLoginAllowed(
  s: Pick<SsoSettings, 'active' | 'passwordLoginSetting'>,
  row: { registeredVia: string },
): boolean {
  return !s.active || s.passwordLoginSetting || row.registeredVia === 'bootstrap';
}
