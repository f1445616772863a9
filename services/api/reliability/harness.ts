// The reliability suites' set-up: the media-request harness (database, app, fakes of TMDB, the
// media server, MoviePilot and the bot) with every secret setting given a recognisable value, and
// a recorder of every reply, so each suite can end by searching replies and logs for secrets.
import { errorBodySchema, ERROR_STATUS, type ErrorCode } from '@usher/contracts';
import { startHarness, type Harness } from '../tests/requests/harness.js';
import type { TestApp } from '../tests/support/app.js';

/** Values of secret settings no fake checks, so they can only surface by leaking. */
export const MARKER_SETTINGS: Record<string, string> = {
  SMTP_PASSWORD: 'MarkerSmtpPassword-7f3a9c1e',
  STRIPE_SECRET_KEY: 'sk_test_MarkerStripeKey7f3a9c1e5d',
  STRIPE_WEBHOOK_SECRET: 'whsec_MarkerWebhookSecret7f3a9c1e',
};

export interface ReliabilityEnv extends Harness {
  /** Every reply body the suite received (text), for the secrets search. */
  replies: string[];
  /** Sends through `app` (default the harness's) and records the reply. */
  send(
    method: string,
    path: string,
    options?: {
      token?: string;
      body?: unknown;
      headers?: Record<string, string>;
      rawBody?: string;
      app?: TestApp;
    },
  ): Promise<{ res: Response; text: string }>;
  /** Every secret the suite knows: env secrets, secret settings, passwords it used. */
  secrets(): string[];
  /** Passwords created during the suite (they must never show up either). */
  passwords: string[];
}

export async function reliabilityEnv(
  settings: Record<string, string> = {},
): Promise<ReliabilityEnv> {
  const h = await startHarness({ settings: { ...MARKER_SETTINGS, ...settings } });
  const replies: string[] = [];
  const passwords: string[] = [];
  const send: ReliabilityEnv['send'] = async (method, path, options = {}) => {
    const app = options.app ?? h.t;
    let res: Response;
    if (options.rawBody !== undefined) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      res = await app.app.request(path, {
        method: method.toUpperCase(),
        headers,
        body: options.rawBody,
      });
    } else {
      res = await app.call(method, path, options);
    }
    const text = await res.text();
    replies.push(text);
    return { res, text };
  };
  return {
    ...h,
    replies,
    passwords,
    send,
    secrets: () => {
      const c = h.t.config;
      return [
        c.JWT_SECRET,
        c.CONFIG_ENCRYPTION_KEY,
        c.INTERNAL_API_SECRET,
        c.DATABASE_PASSWORD,
        h.env.MEDIA_SERVER_API_KEY!,
        h.env.TMDB_API_KEY!,
        h.env.MOVIEPILOT_PASSWORD!,
        ...Object.values(MARKER_SETTINGS),
        ...passwords,
      ].filter((s) => s && s.length >= 8);
    },
  };
}

/**
 * Searches every reply and log line for every secret (and for password hashes). Returns the
 * findings as `secret-name-prefix in replies|logs` lines; empty is the only good answer.
 */
export function secretFindings(env: ReliabilityEnv, extraLogs: string[] = []): string[] {
  const logs = [env.t.logs.text(), ...extraLogs].join('\n');
  const replies = env.replies.join('\n');
  const findings: string[] = [];
  for (const secret of env.secrets()) {
    const label = `${secret.slice(0, 4)}…(${secret.length})`;
    if (replies.includes(secret)) findings.push(`${label} in replies`);
    if (logs.includes(secret)) findings.push(`${label} in logs`);
  }
  // 30-settings.md: admins see the webhook token in full (MEDIA_SERVER_WEBHOOK_URL), so it is
  // searched for in the logs only.
  const webhookToken = env.env.MEDIA_SERVER_WEBHOOK_TOKEN!;
  if (logs.includes(webhookToken)) findings.push('webhook token in logs');
  if (replies.includes('$argon2')) findings.push('password hash in replies');
  if (logs.includes('$argon2')) findings.push('password hash in logs');
  return findings;
}

/** Whether a reply is the shared error body, with a code whose status matches the reply. */
export function isErrorShape(res: Response, text: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON at all: outside the shape.
    return false;
  }
  const parsed = errorBodySchema.safeParse(json);
  if (!parsed.success) return false;
  const expected = ERROR_STATUS[parsed.data.error.code as ErrorCode];
  // A few codes answer another status on one route (AppError's `status` override); the status
  // class must still agree.
  return expected === res.status || Math.floor(expected / 100) === Math.floor(res.status / 100);
}

/** Fills path parameters. */
export const fillPath = (path: string, value: (name: string) => string) =>
  path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(value(name)));
