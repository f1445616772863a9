// The `membership_reminders` job (docs/lifecycle.md): reminds members before their membership
// ends, once per (member, membership end, threshold), over every channel the member can be
// reached on, in the member's language.
import { LOCALES, type Locale } from '@usher/contracts';
import { and, asc, eq, gt, lte, or } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { membershipReminders, users } from '../../db/schema/index.js';
import { IntegrationError } from '../../integrations/errors.js';
import type { MailAdapter } from '../../integrations/mail/adapter.js';
import type { JobDefinition, JobOutcome, JobRunContext } from '../../scheduler/scheduler.js';
import type { ModuleContext } from '../context.js';
import {
  daysLeft,
  noticeMail,
  readReminderTexts,
  reminderNotice,
  type Notice,
} from './messages.js';
import { sendWebhook, type WebhookFormat } from './webhook.js';

export const REMINDERS_JOB = 'membership_reminders';
/** `REMINDER_CRON` default: hourly at minute 15, off the hour the expiry check uses. */
export const REMINDERS_DEFAULT_CRON = '15 * * * *';
/** Members read per query: the users table is paged, never loaded whole. */
export const REMINDER_BATCH = 100;

const DAY_MS = 86_400_000;

export const REMINDER_CHANNELS = ['email', 'messenger', 'webhook'] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];
type ChannelResult = 'sent' | 'failed';

type RemindersContext = Pick<ModuleContext, 'db' | 'now' | 'settings' | 'integrations' | 'notify'>;

interface Candidate {
  id: string;
  username: string;
  email: string | null;
  messengerId: number | null;
  locale: string | null;
  expiresAt: Date;
}

/**
 * The threshold a member is due for: the smallest of `days` whose window has begun (the end is
 * at most that many days away). A member 2 days from the end with thresholds 7/3/1 is due for
 * 3 only — one reminder, not three at once — and, the end only coming closer, the 7 is never
 * due later. Null when no window has begun.
 */
export function dueThreshold(expiresAt: Date, now: Date, days: readonly number[]): number | null {
  const left = expiresAt.getTime() - now.getTime();
  if (left <= 0) return null;
  const open = days.filter((d) => left <= d * DAY_MS);
  return open.length ? Math.min(...open) : null;
}

const localeOf = (value: string | null): Locale =>
  (LOCALES as readonly string[]).includes(value ?? '') ? (value as Locale) : 'en';

/**
 * One page of members that may be due: role user, web login on, not switched off by an admin,
 * with a membership ending within the largest threshold. Keyset on (expires_at, id).
 */
async function candidates(
  ctx: RemindersContext,
  now: Date,
  horizon: Date,
  after: { expiresAt: Date; id: string } | null,
): Promise<Candidate[]> {
  const rows = await ctx.db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      messengerId: users.messengerId,
      locale: users.locale,
      expiresAt: users.expiresAt,
    })
    .from(users)
    .where(
      and(
        eq(users.role, 'user'),
        eq(users.isActive, true),
        eq(users.mediaAccessDisabled, false),
        gt(users.expiresAt, now),
        lte(users.expiresAt, horizon),
        after
          ? or(
              gt(users.expiresAt, after.expiresAt),
              and(eq(users.expiresAt, after.expiresAt), gt(users.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(asc(users.expiresAt), asc(users.id))
    .limit(REMINDER_BATCH);
  return rows as Candidate[];
}

/** What a run may use: the channels switched on and reachable at all. */
interface Channels {
  mail: MailAdapter | null;
  messenger: boolean;
  webhook: { url: string; format: WebhookFormat } | null;
}

async function openChannels(ctx: RemindersContext): Promise<Channels> {
  const store = ctx.settings.store;
  const wanted = new Set(await store.get('REMINDER_CHANNELS'));
  let mail: MailAdapter | null = null;
  if (wanted.has('email')) {
    try {
      mail = await ctx.integrations.mail.get();
    } catch (err) {
      // Email not configured (30-settings.md §5): the channel is simply unavailable.
      if (!(err instanceof IntegrationError && err.kind === 'not_configured')) throw err;
    }
  }
  const url = await store.getString('NOTIFY_WEBHOOK_URL');
  return {
    mail,
    messenger: wanted.has('messenger') && ctx.notify.enabled,
    webhook:
      wanted.has('webhook') && url
        ? { url, format: await store.getString('NOTIFY_WEBHOOK_FORMAT') }
        : null,
  };
}

/** The channels one member can be reached on. */
function channelsFor(member: Candidate, open: Channels): ReminderChannel[] {
  const list: ReminderChannel[] = [];
  if (open.mail && member.email) list.push('email');
  if (open.messenger && member.messengerId !== null) list.push('messenger');
  if (open.webhook) list.push('webhook');
  return list;
}

async function deliver(
  ctx: RemindersContext,
  open: Channels,
  member: Candidate,
  channel: ReminderChannel,
  notice: Notice,
  siteName: string,
  renewUrl: string,
  daysLeft: number,
): Promise<ChannelResult> {
  switch (channel) {
    case 'email':
      try {
        await open.mail!.send(noticeMail(member.email!, siteName, notice));
        return 'sent';
      } catch (err) {
        // An SMTP refusal or outage fails this channel only; the adapter logged and counted it.
        if (err instanceof IntegrationError) return 'failed';
        throw err;
      }
    case 'messenger': {
      const result = await ctx.notify.deliver('member', {
        notice: 'membership_reminder',
        userId: member.id,
        messengerId: member.messengerId!,
        locale: notice.locale,
        text: notice.text,
      });
      return result.outcome === 'sent' ? 'sent' : 'failed';
    }
    case 'webhook': {
      const result = await sendWebhook(open.webhook!.url, open.webhook!.format, notice, {
        event: 'membership.reminder',
        userId: member.id,
        username: member.username,
        expiresAt: member.expiresAt.toISOString(),
        daysLeft,
        renewUrl,
        occurredAt: ctx.now().toISOString(),
      });
      return result.outcome;
    }
  }
}

export interface ReminderSummary {
  [key: string]: number;
  checked: number;
  reminded: number;
  alreadyReminded: number;
  unreachable: number;
  failed: number;
}

/**
 * One run. For each member due for a threshold, the (member, end, threshold) row is claimed
 * first — `on conflict do nothing`, so a second run or replica finds it taken and sends nothing
 * — then the notice goes out on each channel. When every channel failed the claim is released,
 * so the next run tries again; once one channel delivered, the reminder counts as sent.
 */
export async function runReminders(
  ctx: RemindersContext,
  run: Pick<JobRunContext, 'signal' | 'logger'>,
): Promise<JobOutcome> {
  const store = ctx.settings.store;
  const days = (await store.get('REMINDER_DAYS')).map(Number).filter((d) => d >= 1 && d <= 60);
  const summary: ReminderSummary = {
    checked: 0,
    reminded: 0,
    alreadyReminded: 0,
    unreachable: 0,
    failed: 0,
  };
  if (days.length === 0)
    return { status: 'skipped', summary: { ...summary, reason: 'no reminder days' } };
  const open = await openChannels(ctx);
  const texts = await readReminderTexts(store);
  const now = ctx.now();
  const horizon = new Date(now.getTime() + Math.max(...days) * DAY_MS);

  let after: { expiresAt: Date; id: string } | null = null;
  for (;;) {
    const page = await candidates(ctx, now, horizon, after);
    for (const member of page) {
      if (run.signal.aborted) break;
      summary.checked += 1;
      const threshold = dueThreshold(member.expiresAt, now, days);
      if (threshold === null) continue;
      const channels = channelsFor(member, open);
      if (channels.length === 0) {
        summary.unreachable += 1;
        continue;
      }
      const claimId = uuidv7();
      const claimed = await ctx.db
        .insert(membershipReminders)
        .values({ id: claimId, userId: member.id, expiresAt: member.expiresAt, days: threshold })
        .onConflictDoNothing()
        .returning({ id: membershipReminders.id });
      if (claimed.length === 0) {
        summary.alreadyReminded += 1;
        continue;
      }
      const notice = reminderNotice(
        texts,
        { username: member.username, expiresAt: member.expiresAt, locale: localeOf(member.locale) },
        now,
      );
      const left = daysLeft(member.expiresAt, now);
      const results: Record<string, ChannelResult> = {};
      for (const channel of channels) {
        results[channel] = await deliver(
          ctx,
          open,
          member,
          channel,
          notice,
          texts.siteName,
          texts.renewUrl,
          left,
        );
      }
      if (Object.values(results).includes('sent')) {
        summary.reminded += 1;
        await ctx.db
          .update(membershipReminders)
          .set({ channels: results })
          .where(eq(membershipReminders.id, claimId));
      } else {
        summary.failed += 1;
        await ctx.db.delete(membershipReminders).where(eq(membershipReminders.id, claimId));
        run.logger.warn(
          { userId: member.id, days: threshold, channels: results },
          'reminder failed',
        );
      }
    }
    if (run.signal.aborted || page.length < REMINDER_BATCH) break;
    const last = page[page.length - 1]!;
    after = { expiresAt: last.expiresAt, id: last.id };
  }
  if (summary.reminded || summary.failed) run.logger.info(summary, 'membership reminders sent');
  return summary.reminded || summary.failed ? { summary } : { status: 'skipped', summary };
}

export function remindersJob(ctx: RemindersContext): JobDefinition {
  return {
    name: REMINDERS_JOB,
    description: 'Reminds members before their membership ends, once per threshold',
    schedule: REMINDERS_DEFAULT_CRON,
    scheduleSetting: 'REMINDER_CRON',
    run: (run) => runReminders(ctx, run),
  };
}
