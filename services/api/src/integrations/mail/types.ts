export const SMTP_SECURITY_MODES = ['starttls', 'tls', 'none'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY_MODES)[number];

/** The email group (30-settings.md §4.5). */
export interface MailSettings {
  host: string;
  port: number;
  security: SmtpSecurity;
  /** Empty = no AUTH. */
  username: string;
  password: string;
  /** `addr@host` or `Name <addr@host>`; already resolved from `SMTP_USERNAME` when empty. */
  from: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header fields, e.g. `List-Unsubscribe` (RFC 2369, RFC 8058). */
  headers?: Record<string, string>;
}

/** What the server said about a sent message (nodemailer `sendMail`). */
export interface SentMail {
  messageId: string;
  accepted: string[];
  rejected: string[];
  /** The server's final reply line, e.g. `250 Ok: queued as 1`. */
  response: string;
}
