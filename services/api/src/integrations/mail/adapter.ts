import type { Logger } from 'pino';
import { probing, type IntegrationDeps, type ProbeResult } from '../common.js';
import { IntegrationError, redact, type IntegrationErrorKind } from '../errors.js';
import type { IntegrationMetrics, Outcome } from '../../metrics/integrations.js';
import { createMailTransport, type MailTransport, type SmtpTimeouts } from './client.js';
import type { MailMessage, MailSettings, SentMail } from './types.js';

/** What nodemailer attaches to its errors. */
type MailFailure = Error & { code?: string; responseCode?: number; response?: string };

const MODE_LABEL = { tls: 'TLS', starttls: 'STARTTLS', none: 'no TLS' } as const;

const KIND_BY_CODE: Record<string, IntegrationErrorKind> = {
  EAUTH: 'auth',
  ENOAUTH: 'auth',
  EENVELOPE: 'rejected',
  ETIMEDOUT: 'timeout',
  ECONNECTION: 'network',
  ESOCKET: 'network',
  EDNS: 'network',
  ETLS: 'tls',
};

/** SMTP has no HTTP status; the metric's outcome vocabulary is mapped as closely as it goes. */
const OUTCOME_BY_KIND: Partial<Record<IntegrationErrorKind, Outcome>> = {
  auth: 'http_4xx',
  rejected: 'http_4xx',
  timeout: 'timeout',
};

/**
 * Mail through nodemailer (50-integrations.md §7): one connection per message, errors mapped
 * from nodemailer's codes, and probe messages that name the `SMTP_SECURITY` mode to switch to
 * when TLS is the problem.
 */
export class MailAdapter {
  private readonly transport: MailTransport;
  private readonly metrics: IntegrationMetrics | undefined;
  private readonly logger: Logger | undefined;

  constructor(
    readonly settings: MailSettings,
    deps: IntegrationDeps = {},
    options: { timeouts?: SmtpTimeouts } = {},
  ) {
    this.transport = createMailTransport(settings, options.timeouts);
    this.metrics = deps.metrics;
    this.logger = deps.logger;
  }

  private get where(): string {
    return `${this.settings.host}:${this.settings.port}`;
  }

  /** Sends one message; any refused recipient makes it `rejected`. */
  async send(message: MailMessage): Promise<SentMail> {
    const info = await this.measure('send', () =>
      this.transport.sendMail({ from: this.settings.from, ...message }),
    );
    const sent: SentMail = {
      messageId: info.messageId,
      accepted: info.accepted.map(String),
      rejected: info.rejected.map(String),
      response: info.response,
    };
    if (sent.rejected.length > 0) {
      throw new IntegrationError(
        'smtp',
        'send',
        'rejected',
        `The mail server refused ${sent.rejected.join(', ')}`,
        undefined,
        sent.response,
      );
    }
    return sent;
  }

  /** Connects, negotiates TLS per the mode and logs in when a username is set (`verify()`). */
  probe(): Promise<ProbeResult> {
    return probing(async () => {
      await this.measure('probe', () => this.transport.verify());
      const login = this.settings.username ? `, login accepted for ${this.settings.username}` : '';
      return {
        ok: true,
        message: `Connected to ${this.where} (${MODE_LABEL[this.settings.security]})${login}`,
        details: [],
      };
    });
  }

  private async measure<T>(operation: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const labels = { system: 'smtp' as const, operation };
    const record = (outcome: Outcome) => {
      this.metrics?.requests.inc({ ...labels, outcome });
      this.metrics?.duration.observe(labels, (performance.now() - started) / 1000);
    };
    try {
      const result = await run();
      record('ok');
      return result;
    } catch (err) {
      // nodemailer reports every SMTP failure by rejecting; each becomes an IntegrationError.
      const mapped = this.mapError(err as MailFailure, operation);
      record(OUTCOME_BY_KIND[mapped.kind] ?? 'network');
      this.logger?.warn(
        {
          system: 'smtp',
          operation,
          code: (err as MailFailure).code,
          response: mapped.upstreamMessage,
        },
        `smtp ${operation} failed`,
      );
      throw mapped;
    }
  }

  /** nodemailer's error → kind and a message that never holds the password. */
  private mapError(err: MailFailure, operation: string): IntegrationError {
    const secrets = [this.settings.password];
    const code = err.code ?? '';
    const detail = redact(err.message ?? '', secrets);
    const response = err.response ? redact(err.response, secrets) : undefined;
    const reply = response ?? (err.responseCode ? String(err.responseCode) : detail);
    const kind = KIND_BY_CODE[code] ?? 'network';
    const fail = (k: IntegrationErrorKind, message: string) =>
      new IntegrationError('smtp', operation, k, message, err.responseCode, response ?? detail);

    const tlsHint = this.tlsHint(code, detail);
    if (tlsHint) return fail('tls', tlsHint);
    switch (kind) {
      case 'auth':
        return fail(kind, `The mail server refused the login (${reply})`);
      case 'rejected':
        return fail(kind, `The mail server refused the message (${reply})`);
      case 'timeout':
        return fail(kind, `The mail server at ${this.where} did not answer in time`);
      default:
        return fail(kind, `The mail server at ${this.where} is unreachable (${reply})`);
    }
  }

  /** The TLS caveats of §7, each with the setting that fixes it; null when TLS is not at fault. */
  private tlsHint(code: string, detail: string): string | null {
    const { security, port } = this.settings;
    if (/certificate|self[- ]signed|unable to verify/i.test(detail)) {
      return (
        `The mail server's TLS certificate is not trusted (${detail}). Give the server a ` +
        'certificate from a public authority, or on a trusted LAN set SMTP_SECURITY to none.'
      );
    }
    if (security === 'tls' && /wrong version number|packet length|unknown protocol/i.test(detail)) {
      return (
        `Port ${port} does not speak TLS from the first byte (${detail}); it probably ` +
        'expects STARTTLS: set SMTP_SECURITY to starttls (usually port 587).'
      );
    }
    if (security !== 'tls' && port === 465 && code === 'ETIMEDOUT') {
      return (
        'No greeting from port 465, which expects TLS from the first byte: ' +
        'set SMTP_SECURITY to tls.'
      );
    }
    if (security === 'starttls' && code === 'ETLS') {
      return (
        `The mail server does not offer STARTTLS (${detail}). Enable it on the server, or on a ` +
        'trusted LAN set SMTP_SECURITY to none.'
      );
    }
    return null;
  }
}
