import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import { findPart, parseAddresses, parseMime, decodeWords, type Address } from './mime.js';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from './self-signed.js';

/**
 * `none`: plain text only (STARTTLS not offered) · `starttls`: offers STARTTLS with a
 * self-signed certificate (`FAKE_SMTP_CERT`) · `tls`: TLS from the first byte, same cert.
 */
export type SmtpSecurity = 'none' | 'starttls' | 'tls';

export interface FakeSmtpOptions {
  security?: SmtpSecurity;
  /** Accepted credentials (AUTH PLAIN and LOGIN); anything else gets 535. */
  auth?: { user: string; pass: string };
  /** Whether MAIL FROM needs AUTH first (530 otherwise); default: true when `auth` is set. */
  requireAuth?: boolean;
  /**
   * Whether AUTH works on an unencrypted connection. smtp-server's default (false) answers 538
   * "Must issue a STARTTLS command first" while STARTTLS is offered; the fake defaults to true.
   */
  allowInsecureAuth?: boolean;
  /** Keep smtp-server's default onAuth, which refuses every login with 535 (a naive-setup trap). */
  defaultOnAuth?: boolean;
  /** Recipients refused at RCPT TO with 550. */
  rejectRecipients?: string[];
}

export interface CapturedMail {
  envelope: { from: string | null; to: string[] };
  /** The user who authenticated on the connection, if any. */
  authUser: string | null;
  /** Whether the connection was encrypted (TLS or after STARTTLS). */
  secure: boolean;
  raw: string;
  headers: Map<string, string[]>;
  messageId: string | null;
  from: Address[];
  to: Address[];
  cc: Address[];
  subject: string;
  text: string | null;
  html: string | null;
  receivedAt: Date;
}

export interface SmtpFaults {
  /** Delays the greeting banner by `ms` (greetingTimeout tests). */
  slow(ms: number): void;
  /** Answers MAIL FROM with `code` (default 451, a temporary failure) until cleared. */
  fail(code?: number): void;
  /** Stops listening (ECONNREFUSED) and drops open connections. */
  down(): Promise<void>;
  up(): Promise<void>;
  clear(): Promise<void>;
}

export interface FakeSmtp {
  readonly host: string;
  readonly port: number;
  readonly url: string;
  readonly security: SmtpSecurity;
  readonly messages: CapturedMail[];
  /** Every AUTH attempt, in order, with its outcome. */
  readonly logins: { user: string; method: string; ok: boolean }[];
  readonly faults: SmtpFaults;
  /** Resolves with the first captured (or next) message matching `match`. */
  waitForMessage(
    match?: (mail: CapturedMail) => boolean,
    timeoutMs?: number,
  ): Promise<CapturedMail>;
  /** The last message whose envelope includes `address`. */
  lastMessageTo(address: string): CapturedMail | undefined;
  reset(): void;
  close(): Promise<void>;
}

type Coded = Error & { responseCode: number };
const smtpError = (code: number, message: string): Coded =>
  Object.assign(new Error(message), { responseCode: code });

function capture(raw: string, session: SMTPServerSession): CapturedMail {
  const root = parseMime(raw);
  const header = (name: string) => root.headers.get(name)?.[0];
  const mailFrom = session.envelope.mailFrom;
  return {
    envelope: {
      from: mailFrom ? mailFrom.address : null,
      to: session.envelope.rcptTo.map((r) => r.address),
    },
    authUser: (session.user as string | undefined) ?? null,
    secure: session.secure,
    raw,
    headers: root.headers,
    messageId: header('message-id') ?? null,
    from: parseAddresses(header('from')),
    to: parseAddresses(header('to')),
    cc: parseAddresses(header('cc')),
    subject: decodeWords(header('subject') ?? ''),
    text: findPart(root, 'text/plain')?.text ?? null,
    html: findPart(root, 'text/html')?.text ?? null,
    receivedAt: new Date(),
  };
}

/** Starts an SMTP server on 127.0.0.1 that captures what nodemailer sends. */
export async function startFakeSmtp(options: FakeSmtpOptions = {}): Promise<FakeSmtp> {
  const security = options.security ?? 'none';
  const messages: CapturedMail[] = [];
  const logins: FakeSmtp['logins'] = [];
  const waiters = new Set<(mail: CapturedMail) => void>();
  const state = { slowMs: 0, failCode: null as number | null };
  // Delayed greetings must not outlive close(), or they hold the test process open.
  const greetings = new Set<NodeJS.Timeout>();
  const rejected = new Set((options.rejectRecipients ?? []).map((a) => a.toLowerCase()));
  const authOffered = options.auth !== undefined || options.defaultOnAuth === true;

  const config: SMTPServerOptions = {
    secure: security === 'tls',
    ...(security === 'none' ? {} : { key: SELF_SIGNED_KEY, cert: SELF_SIGNED_CERT }),
    logger: false,
    banner: 'fake-smtp ESMTP ready',
    disabledCommands: [
      ...(security === 'none' ? ['STARTTLS'] : []),
      ...(authOffered ? [] : ['AUTH']),
    ],
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: !(options.requireAuth ?? options.auth !== undefined),
    allowInsecureAuth: options.allowInsecureAuth ?? true,
    size: 25 * 1024 * 1024,
    onConnect(_session, callback) {
      if (state.slowMs === 0) return callback();
      const timer = setTimeout(() => {
        greetings.delete(timer);
        callback();
      }, state.slowMs);
      greetings.add(timer);
    },
    onMailFrom(_address, _session, callback) {
      if (state.failCode === null) return callback();
      callback(smtpError(state.failCode, 'Temporary local problem - please try later'));
    },
    onRcptTo(address, _session, callback) {
      if (!rejected.has(address.address.toLowerCase())) return callback();
      callback(smtpError(550, `<${address.address}>: Recipient address rejected: User unknown`));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = capture(Buffer.concat(chunks).toString('utf8'), session);
        messages.push(mail);
        for (const waiter of waiters) waiter(mail);
        callback(null, `Ok: queued as ${messages.length}`);
      });
    },
  };
  if (options.auth && !options.defaultOnAuth) {
    const expected = options.auth;
    config.onAuth = (auth, _session, callback) => {
      const ok = auth.username === expected.user && auth.password === expected.pass;
      logins.push({ user: auth.username ?? '', method: auth.method, ok });
      if (ok) return callback(null, { user: auth.username });
      callback(smtpError(535, 'Authentication credentials invalid'));
    };
  }

  const server = new SMTPServer(config);
  server.on('error', () => undefined);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.server.off('error', reject);
        resolve((server.server.address() as AddressInfo).port);
      });
    });
  const port = await listen(0);
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const timer of greetings) clearTimeout(timer);
      greetings.clear();
      if (!server.server.listening) return resolve();
      server.server.close(() => resolve());
      for (const connection of server.connections) connection.close();
    });

  const faults: SmtpFaults = {
    slow: (ms) => void (state.slowMs = ms),
    fail: (code = 451) => void (state.failCode = code),
    down: stop,
    async up() {
      if (!server.server.listening) await listen(port);
    },
    async clear() {
      state.slowMs = 0;
      state.failCode = null;
      await faults.up();
    },
  };

  return {
    host: '127.0.0.1',
    port,
    url: `smtp://127.0.0.1:${port}`,
    security,
    messages,
    logins,
    faults,
    waitForMessage(match = () => true, timeoutMs = 5000) {
      const existing = messages.find(match);
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching message within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = (mail: CapturedMail) => {
          if (!match(mail)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(mail);
        };
        waiters.add(waiter);
      });
    },
    lastMessageTo(address) {
      const wanted = address.toLowerCase();
      return messages.findLast((m) => m.envelope.to.some((to) => to.toLowerCase() === wanted));
    },
    reset() {
      messages.splice(0);
      logins.splice(0);
    },
    close: stop,
  };
}
