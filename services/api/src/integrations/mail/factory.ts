import {
  notConfigured,
  PerSettings,
  type IntegrationDeps,
  type SettingsReader,
} from '../common.js';
import { MailAdapter } from './adapter.js';
import type { SmtpTimeouts } from './client.js';
import { SMTP_SECURITY_MODES, type MailSettings, type SmtpSecurity } from './types.js';

const isAddress = (text: string) => /^[^@\s<>]+@[^@\s<>]+$/.test(text);

/** Reads the email group (30-settings.md §4.5); `from` falls back to an address username. */
export async function readMailSettings(settings: SettingsReader): Promise<MailSettings> {
  const username = await settings.getString('SMTP_USERNAME');
  const security = await settings.getString('SMTP_SECURITY');
  return {
    host: await settings.getString('SMTP_HOST'),
    port: await settings.get('SMTP_PORT'),
    security: (SMTP_SECURITY_MODES as readonly string[]).includes(security)
      ? (security as SmtpSecurity)
      : 'starttls',
    username,
    password: await settings.getString('SMTP_PASSWORD'),
    from: (await settings.getString('SMTP_FROM')) || (isAddress(username) ? username : ''),
  };
}

/** Settings still missing for email to count as configured (30-settings.md §5). */
export function missingMailSettings(settings: MailSettings): string[] {
  const missing = settings.host ? [] : ['SMTP_HOST'];
  if (!settings.port) missing.push('SMTP_PORT');
  if (!settings.from) missing.push('SMTP_FROM (or an address in SMTP_USERNAME)');
  return missing;
}

export function createMail(
  settings: MailSettings,
  deps: IntegrationDeps = {},
  options: { timeouts?: SmtpTimeouts } = {},
): MailAdapter {
  const missing = missingMailSettings(settings);
  if (missing.length) throw notConfigured('smtp', 'configure', missing);
  return new MailAdapter(settings, deps, options);
}

/** The mail adapter for the current settings, rebuilt when they change. */
export class MailFactory {
  private readonly adapters: PerSettings<MailSettings, MailAdapter>;

  constructor(
    private readonly settings: SettingsReader,
    deps: IntegrationDeps = {},
  ) {
    this.adapters = new PerSettings((s) => new MailAdapter(s, deps));
  }

  async get(): Promise<MailAdapter> {
    const current = await readMailSettings(this.settings);
    const missing = missingMailSettings(current);
    if (missing.length) throw notConfigured('smtp', 'configure', missing);
    return this.adapters.get(current);
  }
}
