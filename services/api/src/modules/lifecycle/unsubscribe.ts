// The member's notice preferences (docs/lifecycle.md): `GET/PUT /me/notifications`, and the
// signed unsubscribe link of a reminder mail, which works without signing in — from the mail
// client's one-click button (RFC 8058) or from the web page the link in the text opens.
import type { NotificationPreferences, UnsubscribeReply } from '@usher/contracts';
import { createHmac, hkdfSync } from 'node:crypto';
import { accountActor, recordAudit } from '../../audit-log/audit.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors/app-error.js';
import { secretsEqual } from '../../http/guards.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { notificationSwitches, setNotificationSwitches, turnOffMail } from './queries.js';

/** The web page a mail's unsubscribe link opens (it posts to the route below). */
export const UNSUBSCRIBE_PAGE = '/unsubscribe';
/** The one-click target of `List-Unsubscribe`. */
export const UNSUBSCRIBE_ROUTE = '/api/v1/public/unsubscribe';

/** The channels a signed link can stop: reminder mails. */
type LinkChannel = 'email';

/**
 * Signs unsubscribe links: HMAC-SHA256 under HKDF(JWT_SECRET, `usher/unsubscribe/v1`) over the
 * member and the channel. No expiry — a link in an old mail must still work, and all it can do
 * is stop mails to that member — and nothing else is readable from it.
 */
export class UnsubscribeSigner {
  private readonly key: Uint8Array;

  constructor(jwtSecret: string) {
    this.key = new Uint8Array(hkdfSync('sha256', jwtSecret.trim(), '', 'usher/unsubscribe/v1', 32));
  }

  private mac(userId: string, channel: LinkChannel): string {
    return createHmac('sha256', this.key).update(`${userId}.${channel}`).digest('base64url');
  }

  /** `<userId>.<channel>.<mac>`. */
  token(userId: string, channel: LinkChannel): string {
    return `${userId}.${channel}.${this.mac(userId, channel)}`;
  }

  /** The member and channel a token was signed for, or null when it was not signed here. */
  verify(token: string): { userId: string; channel: LinkChannel } | null {
    const [userId, channel, mac, ...rest] = token.split('.');
    if (rest.length > 0 || !userId || channel !== 'email' || !mac) return null;
    return secretsEqual(mac, this.mac(userId, channel)) ? { userId, channel } : null;
  }
}

type PreferencesContext = Pick<ModuleContext, 'db' | 'now' | 'config'>;

const signers = new Map<string, UnsubscribeSigner>();
/** One signer per secret (a process has one; tests start apps with several). */
export function unsubscribeSigner(ctx: Pick<ModuleContext, 'config'>): UnsubscribeSigner {
  const secret = ctx.config.JWT_SECRET;
  let signer = signers.get(secret);
  if (!signer) {
    signer = new UnsubscribeSigner(secret);
    signers.set(secret, signer);
  }
  return signer;
}

export async function readPreferences(
  ctx: PreferencesContext,
  userId: string,
): Promise<NotificationPreferences> {
  const row = await notificationSwitches(ctx.db, userId);
  if (!row) throw new AppError('NOT_FOUND', 'The account no longer exists');
  return { email: row.email, messenger: row.messenger };
}

/** Saves both preferences; audited as `user.notifications` with before and after. */
export async function savePreferences(
  ctx: PreferencesContext,
  userId: string,
  input: NotificationPreferences,
  meta: RequestMeta,
): Promise<NotificationPreferences> {
  return withTransaction(ctx, async (tx) => {
    const row = await notificationSwitches(tx, userId, true);
    if (!row) throw new AppError('NOT_FOUND', 'The account no longer exists');
    await setNotificationSwitches(tx, userId, input, ctx.now());
    if (row.email !== input.email || row.messenger !== input.messenger) {
      await recordAudit(tx, {
        actor: accountActor({ ...row, id: userId }),
        action: 'user.notifications',
        target: { type: 'user', id: userId },
        details: {
          before: { email: row.email, messenger: row.messenger },
          after: input,
        },
        ip: meta.ip,
        requestId: meta.requestId,
      });
    }
    return input;
  });
}

/**
 * The signed link: stops reminder mails to its member. Idempotent (a second click, or the mail
 * client's one-click after the page, answers the same); a token not signed here is a 400 and
 * changes nothing.
 */
export async function unsubscribe(
  ctx: PreferencesContext,
  token: string,
  meta: RequestMeta,
): Promise<UnsubscribeReply> {
  const link = unsubscribeSigner(ctx).verify(token);
  if (!link) throw new AppError('UNSUBSCRIBE_LINK_INVALID', 'This unsubscribe link is not valid');
  await withTransaction(ctx, async (tx) => {
    const rows = await turnOffMail(tx, link.userId, ctx.now());
    if (rows.length > 0) {
      await recordAudit(tx, {
        actor: { type: 'user', id: link.userId, label: rows[0]!.username },
        action: 'user.notifications',
        target: { type: 'user', id: link.userId },
        details: { before: { email: true }, after: { email: false }, via: 'unsubscribe_link' },
        ip: meta.ip,
        requestId: meta.requestId,
      });
    }
  });
  // Already unsubscribed, or the member deleted since the mail went out: the same answer either
  // way, so the link tells nothing about the account.
  return { channel: 'email', subscribed: false };
}
