// The settings the account routes read (30-settings.md §4.1 registration, §4.5 email codes), read
// through the settings cache on every use so an edit applies at once.
import type { SettingsReader } from '../../integrations/common.js';
import { missingMailSettings, readMailSettings } from '../../integrations/mail/factory.js';
import { AppError } from '../../errors/app-error.js';

export interface RegistrationSettings {
  mode: 'open' | 'invite';
  trialDays: number;
  /** `EMAIL_VERIFICATION` AND email configured (30-settings.md §5). */
  emailVerification: boolean;
  /** Lower-case hosts; empty = any. */
  allowedDomains: string[];
}

export interface EmailCodeSettings {
  ttlMinutes: number;
  resendSeconds: number;
  dailyLimit: number;
  ipDailyLimit: number;
  siteName: string;
}

/** Whether email counts as configured: host, port and a sender (30-settings.md §5). */
export async function emailConfigured(settings: SettingsReader): Promise<boolean> {
  return missingMailSettings(await readMailSettings(settings)).length === 0;
}

/** 503 `NOT_CONFIGURED` (smtp) unless email is configured. */
export async function assertEmailConfigured(settings: SettingsReader): Promise<void> {
  if (!(await emailConfigured(settings))) {
    throw new AppError('NOT_CONFIGURED', 'Email is not configured on this site', {
      details: { system: 'smtp' },
    });
  }
}

export async function readRegistrationSettings(
  settings: SettingsReader,
): Promise<RegistrationSettings> {
  const verification = await settings.get('EMAIL_VERIFICATION');
  return {
    mode: (await settings.getString('REGISTRATION_MODE')) === 'open' ? 'open' : 'invite',
    trialDays: await settings.get('DEFAULT_TRIAL_DAYS'),
    emailVerification: verification && (await emailConfigured(settings)),
    allowedDomains: ((await settings.get('REGISTRATION_EMAIL_DOMAINS')) ?? []).map((d) =>
      d.toLowerCase(),
    ),
  };
}

export async function readEmailCodeSettings(settings: SettingsReader): Promise<EmailCodeSettings> {
  return {
    ttlMinutes: await settings.get('EMAIL_CODE_TTL_MINUTES'),
    resendSeconds: await settings.get('EMAIL_CODE_RESEND_SECONDS'),
    dailyLimit: await settings.get('EMAIL_CODE_DAILY_LIMIT'),
    ipDailyLimit: await settings.get('EMAIL_CODE_IP_DAILY_LIMIT'),
    siteName: await settings.getString('SITE_NAME'),
  };
}

/** `REGISTRATION_EMAIL_DOMAINS`: exact host match, empty list = any (also for email changes). */
export function assertDomainAllowed(email: string, allowed: string[]): void {
  if (allowed.length === 0) return;
  const host = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (!allowed.includes(host)) {
    throw new AppError('EMAIL_DOMAIN_NOT_ALLOWED', 'Addresses of this domain cannot be used here', {
      details: { allowedDomains: allowed },
    });
  }
}
