// The claims of `member_notices` (docs/lifecycle.md), shared by the reminders and the
// announcements: a notice goes out at most once per (member, kind, ref, channel), whichever run,
// rerun or replica gets there first, and a failed one is tried again up to three times.
import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../../db/client.js';
import {
  memberNotices,
  NOTICE_MAX_ATTEMPTS,
  type NoticeChannel,
  type NoticeKind,
} from '../../db/schema/index.js';

/** Which notice, for whom, on which channel. */
export interface NoticeKey {
  userId: string;
  kind: NoticeKind;
  ref: string;
  channel: NoticeChannel;
  /** A reminder's membership end and threshold. */
  expiresAt?: Date;
  days?: number;
}

const row = (key: NoticeKey, now: Date) => ({
  id: uuidv7(),
  userId: key.userId,
  kind: key.kind,
  ref: key.ref,
  channel: key.channel,
  expiresAt: key.expiresAt ?? null,
  days: key.days ?? null,
  createdAt: now,
  updatedAt: now,
});

/**
 * Claims a notice for sending: a new row (`sending`, first try), or a `failed` one with tries
 * left — in one statement, so of two runs or replicas only one gets it. Null when it is taken:
 * sent, skipped, being sent, or failed three times.
 */
export async function claimNotice(db: Database, key: NoticeKey, now: Date): Promise<string | null> {
  const [claimed] = await db
    .insert(memberNotices)
    .values({ ...row(key, now), status: 'sending', attempts: 1 })
    .onConflictDoUpdate({
      target: [memberNotices.userId, memberNotices.kind, memberNotices.ref, memberNotices.channel],
      set: {
        status: 'sending',
        attempts: sql`${memberNotices.attempts} + 1`,
        detail: null,
        updatedAt: now,
      },
      setWhere: sql`${memberNotices.status} = 'failed' and ${memberNotices.attempts} < ${NOTICE_MAX_ATTEMPTS}`,
    })
    .returning({ id: memberNotices.id });
  return claimed?.id ?? null;
}

/** Records a channel that cannot reach the member; false when the row existed already. */
export async function recordSkipped(
  db: Database,
  key: NoticeKey,
  detail: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .insert(memberNotices)
    .values({ ...row(key, now), status: 'skipped', detail })
    .onConflictDoNothing()
    .returning({ id: memberNotices.id });
  return rows.length > 0;
}

export type DeliveryResult = { status: 'sent' } | { status: 'failed'; detail: string };

/** Marks a claimed notice sent or failed. */
export async function finishNotice(
  db: Database,
  id: string,
  result: DeliveryResult,
  now: Date,
): Promise<void> {
  await db
    .update(memberNotices)
    .set({
      status: result.status,
      detail: result.status === 'failed' ? result.detail : null,
      updatedAt: now,
    })
    .where(eq(memberNotices.id, id));
}

/** What a member's bot message came to: sent only when the bot says a delivery went out. */
export function botResult(reply: {
  outcome: string;
  deliveries: { status: string }[];
}): DeliveryResult {
  const delivered = (d: { status: string }) => ['sent', 'edited', 'unchanged'].includes(d.status);
  if (
    reply.outcome === 'sent' &&
    (reply.deliveries.length === 0 || reply.deliveries.some(delivered))
  ) {
    return { status: 'sent' };
  }
  const why = reply.deliveries.map((d) => d.status).join(', ') || reply.outcome;
  return { status: 'failed', detail: `the bot did not deliver (${why})` };
}
