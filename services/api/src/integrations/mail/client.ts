import nodemailer, { type SMTPTransportOptions } from 'nodemailer';
import type { MailSettings } from './types.js';

/** SMTP timeouts (50-integrations.md §0): connect 10 s, greeting 10 s, socket 30 s. */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
};

/** Overrides for a caller with its own bound (the settings center's connection test). */
export type SmtpTimeouts = Partial<Record<keyof typeof SMTP_TIMEOUTS, number>>;

/**
 * nodemailer options per `SMTP_SECURITY` (50-integrations.md §7). Certificates are always
 * verified: no setting turns that off. `none` must set `ignoreTLS`, because nodemailer upgrades
 * with STARTTLS whenever the server offers it, even without `requireTLS`.
 */
export function transportOptions(
  settings: MailSettings,
  timeouts: SmtpTimeouts = {},
): SMTPTransportOptions {
  const security =
    settings.security === 'tls'
      ? { secure: true }
      : settings.security === 'starttls'
        ? { secure: false, requireTLS: true }
        : { secure: false, ignoreTLS: true };
  return {
    host: settings.host,
    port: settings.port,
    ...security,
    ...(settings.username ? { auth: { user: settings.username, pass: settings.password } } : {}),
    ...SMTP_TIMEOUTS,
    ...timeouts,
    // One connection per message: mail is rare (codes, notices), a pool would only hold sockets.
    pool: false,
    // nodemailer would otherwise log message contents (verification codes) through its logger.
    logger: false,
  };
}

export type MailTransport = ReturnType<typeof createMailTransport>;

export function createMailTransport(settings: MailSettings, timeouts: SmtpTimeouts = {}) {
  return nodemailer.createTransport(transportOptions(settings, timeouts));
}
