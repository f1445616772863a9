// The operator's notification webhook (`NOTIFY_WEBHOOK_URL`, docs/lifecycle.md): one POST per
// notice in the chosen format. The address is a secret (a Discord webhook URL carries its token
// in the path), so it is never logged, returned or put into an error message; failures are
// reported by kind and status only.
import type { Notice } from './messages.js';

export const WEBHOOK_FORMATS = ['json', 'discord', 'ntfy'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** What the webhook receives besides the text (the `json` format sends all of it). */
export interface WebhookEvent {
  event:
    | 'membership.reminder'
    | 'membership.deletion_warning'
    | 'membership.inactivity_warning'
    | 'membership.sharing_suspension'
    | 'test';
  userId: string;
  username: string;
  expiresAt: string | null;
  daysLeft: number | null;
  renewUrl: string;
  occurredAt: string;
}

export type WebhookOutcome =
  | { outcome: 'sent'; status: number }
  | { outcome: 'failed'; reason: 'http' | 'timeout' | 'network'; status?: number };

/** Discord refuses a `content` over 2000 characters. */
const DISCORD_LIMIT = 2000;

/** A header value ntfy reads as UTF-8 (RFC 2047 encoded word) when it is not plain ASCII. */
export function headerText(text: string): string {
  const oneLine = text.replace(/[\r\n]+/g, ' ').trim();
  // Printable ASCII is what a header may carry as is.
  if (/^[\x20-\x7e]*$/.test(oneLine)) return oneLine;
  return `=?UTF-8?B?${Buffer.from(oneLine, 'utf8').toString('base64')}?=`;
}

/** The request for one notice in one format (exported for the tests of each format). */
export function webhookRequest(
  format: WebhookFormat,
  notice: Notice,
  event: WebhookEvent,
): { headers: Record<string, string>; body: string } {
  switch (format) {
    case 'discord': {
      const content = `**${notice.subject}**\n${notice.text}`;
      return {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          content:
            content.length > DISCORD_LIMIT ? `${content.slice(0, DISCORD_LIMIT - 1)}…` : content,
          // Member names must not ping anyone.
          allowed_mentions: { parse: [] },
        }),
      };
    }
    case 'ntfy':
      return {
        headers: { 'content-type': 'text/plain; charset=utf-8', title: headerText(notice.subject) },
        body: notice.text,
      };
    case 'json':
      return {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ...event,
          locale: notice.locale,
          title: notice.subject,
          text: notice.text,
        }),
      };
  }
}

/** Sends one notice; resolves with the outcome, never rejects, never reveals the address. */
export async function sendWebhook(
  url: string,
  format: WebhookFormat,
  notice: Notice,
  event: WebhookEvent,
  timeoutMs = 10_000,
): Promise<WebhookOutcome> {
  const { headers, body } = webhookRequest(format, notice, event);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal, redirect: 'error' });
    // The body is not needed; reading it frees the connection.
    await response.arrayBuffer().catch(() => undefined);
    return response.ok
      ? { outcome: 'sent', status: response.status }
      : { outcome: 'failed', reason: 'http', status: response.status };
  } catch {
    // fetch rejects on network errors and on the timeout's abort; its message may name the
    // address, so only the kind of failure is kept.
    return { outcome: 'failed', reason: signal.aborted ? 'timeout' : 'network' };
  }
}
