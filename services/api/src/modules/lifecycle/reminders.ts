// The `expiry_reminders` job (docs/lifecycle.md): reminds members before their membership ends,
// once per (member, membership end, threshold, channel), over every channel switched on, in the
// member's language; `member_notices` holds the claims, results and retries.
import { DAY_MS } from '../../time/units.js';
import { LOCALES, type Locale } from '@usher/contracts';
import { type NoticeChannel } from '../../db/schema/index.js';
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
  type ReminderTexts,
} from './messages.js';
import {
  botResult,
  claimNotice,
  finishNotice,
  recordSkipped,
  type DeliveryResult,
  type NoticeKey,
} from './claims.js';
import { UNSUBSCRIBE_PAGE, UNSUBSCRIBE_ROUTE, unsubscribeSigner } from './unsubscribe.js';
import { sendWebhook, type WebhookEvent, type WebhookFormat } from './webhook.js';
import { reminderCandidates } from './queries.js';

export const REMINDERS_JOB = 'expiry_reminders';
/** `REMINDER_CRON` default: hourly at minute 15, off the hour the expiry check uses. */
export const REMINDERS_DEFAULT_CRON = '15 * * * *';
/** Members read per query: the users table is paged, never loaded whole. */
export const REMINDER_BATCH = 100;

export type ReminderChannel = NoticeChannel;

type RemindersContext = Pick<
  ModuleContext,
  'db' | 'now' | 'settings' | 'integrations' | 'notify' | 'config'
>;

/** The columns a notice to a member needs: who, where to reach them, what they allow. */
export { MEMBER_FIELDS } from './queries.js';

export interface Candidate {
  id: string;
  username: string;
  email: string | null;
  messengerId: number | null;
  locale: string | null;
  expiresAt: Date;
  notifyEmail: boolean;
  notifyMessenger: boolean;
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

/** A member's stored language, or English. */
export const localeOf = (value: string | null): Locale =>
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
  const rows = await reminderCandidates(ctx.db, now, horizon, after, REMINDER_BATCH);
  return rows as Candidate[];
}

/** What a run may use: the channels switched on, and whether each is configured. */
export interface Channels {
  wanted: ReminderChannel[];
  mail: MailAdapter | null;
  messenger: boolean;
  webhook: { url: string; format: WebhookFormat } | null;
}

/** The channels of `wanted` (default: `REMINDER_CHANNELS`), each with what it needs. */
export async function openChannels(
  ctx: RemindersContext,
  only?: ReminderChannel[],
): Promise<Channels> {
  const store = ctx.settings.store;
  const wanted = only ?? ((await store.get('REMINDER_CHANNELS')) as ReminderChannel[]);
  let mail: MailAdapter | null = null;
  if (wanted.includes('email')) {
    try {
      mail = await ctx.integrations.mail.get();
    } catch (err) {
      // Email not configured (30-settings.md §5): the channel is simply unavailable.
      if (!(err instanceof IntegrationError && err.kind === 'not_configured')) throw err;
    }
  }
  const url = await store.getString('NOTIFY_WEBHOOK_URL');
  return {
    wanted,
    mail,
    messenger: ctx.notify.enabled,
    webhook: url ? { url, format: await store.getString('NOTIFY_WEBHOOK_FORMAT') } : null,
  };
}

/**
 * Why a switched-on channel cannot reach this member, or null when it can. `member` reasons
 * (no address, not linked, opted out) are recorded as `skipped` and stay so for that reminder;
 * `config` reasons (the channel itself not configured) are not recorded, so a channel the
 * operator configures later still reaches the members whose reminder is open. The webhook is
 * the operator's channel: it carries every member's reminder.
 */
export function skipReason(
  member: Pick<Candidate, 'email' | 'messengerId' | 'notifyEmail' | 'notifyMessenger'>,
  channel: ReminderChannel,
  open: Pick<Channels, 'mail' | 'messenger' | 'webhook'>,
): { by: 'member' | 'config'; reason: string } | null {
  const byMember = (reason: string) => ({ by: 'member' as const, reason });
  const byConfig = (reason: string) => ({ by: 'config' as const, reason });
  switch (channel) {
    case 'email':
      if (!member.notifyEmail) return byMember('the member opted out of e-mail');
      if (!member.email) return byMember('the member has no e-mail address');
      return open.mail ? null : byConfig('e-mail (SMTP) is not configured');
    case 'messenger':
      if (!member.notifyMessenger) return byMember('the member opted out of bot messages');
      if (member.messengerId === null) return byMember('the member is not linked to the bot');
      return open.messenger ? null : byConfig('the bot is not configured (BOT_NOTIFY_URL)');
    case 'webhook':
      return open.webhook ? null : byConfig('NOTIFY_WEBHOOK_URL is not set');
  }
}

/** What a notice is called towards the bot and the webhook. */
export interface NoticeNames {
  notice: 'membership_reminder' | 'deletion_warning' | 'inactivity_warning' | 'sharing_suspension';
  event: WebhookEvent['event'];
}
const REMINDER_NAMES: NoticeNames = { notice: 'membership_reminder', event: 'membership.reminder' };

/** Sends one notice about a member's membership on one channel. */
export async function deliver(
  ctx: RemindersContext,
  open: Channels,
  member: Candidate,
  channel: ReminderChannel,
  notice: Notice,
  texts: ReminderTexts,
  daysLeft: number,
  names: NoticeNames = REMINDER_NAMES,
): Promise<DeliveryResult> {
  switch (channel) {
    case 'email':
      try {
        await open.mail!.send(
          noticeMail(member.email!, texts.siteName, notice, unsubscribeLinks(ctx, texts, member)),
        );
        return { status: 'sent' };
      } catch (err) {
        // An SMTP refusal or outage fails this channel only; the adapter logged and counted it.
        if (err instanceof IntegrationError) return { status: 'failed', detail: err.message };
        throw err;
      }
    case 'messenger': {
      const result = await ctx.notify.deliver('member', {
        notice: names.notice,
        userId: member.id,
        messengerId: member.messengerId!,
        locale: notice.locale,
        text: notice.text,
        ...(texts.renewUrl.startsWith('https://') ? { renewUrl: texts.renewUrl } : {}),
      });
      return botResult(result);
    }
    case 'webhook': {
      const result = await sendWebhook(open.webhook!.url, open.webhook!.format, notice, {
        event: names.event,
        userId: member.id,
        username: member.username,
        expiresAt: member.expiresAt.toISOString(),
        daysLeft,
        renewUrl: texts.renewUrl,
        occurredAt: ctx.now().toISOString(),
      });
      if (result.outcome === 'sent') return { status: 'sent' };
      const why = result.status ? `answered ${result.status}` : `failed (${result.reason})`;
      return { status: 'failed', detail: `the notification webhook ${why}` };
    }
  }
}

/** What one channel of a notice came to. */
export type ChannelOutcome =
  | { channel: ReminderChannel; outcome: 'sent' | 'skipped' | 'already' | 'unconfigured' }
  | { channel: ReminderChannel; outcome: 'failed'; detail: string };

/**
 * Sends one notice about a member's membership on every channel of `open`: a channel not
 * configured is left alone (not recorded), one that cannot reach the member is recorded
 * `skipped`, the others are claimed, sent and recorded (`member_notices`, docs/lifecycle.md).
 */
export async function sendToMember(
  ctx: RemindersContext,
  open: Channels,
  member: Candidate,
  notice: Notice,
  texts: ReminderTexts,
  key: Omit<NoticeKey, 'userId' | 'channel'>,
  options: { daysLeft: number; names?: NoticeNames; now: Date },
): Promise<ChannelOutcome[]> {
  const outcomes: ChannelOutcome[] = [];
  for (const channel of open.wanted) {
    const skip = skipReason(member, channel, open);
    if (skip?.by === 'config') {
      outcomes.push({ channel, outcome: 'unconfigured' });
      continue;
    }
    const full: NoticeKey = { ...key, userId: member.id, channel };
    if (skip) {
      const recorded = await recordSkipped(ctx.db, full, skip.reason, options.now);
      outcomes.push({ channel, outcome: recorded ? 'skipped' : 'already' });
      continue;
    }
    const id = await claimNotice(ctx.db, full, options.now);
    if (id === null) {
      outcomes.push({ channel, outcome: 'already' });
      continue;
    }
    const result = await deliver(
      ctx,
      open,
      member,
      channel,
      notice,
      texts,
      options.daysLeft,
      options.names,
    );
    await finishNotice(ctx.db, id, result, ctx.now());
    outcomes.push(
      result.status === 'sent'
        ? { channel, outcome: 'sent' }
        : { channel, outcome: 'failed', detail: result.detail },
    );
  }
  return outcomes;
}

/** The unsubscribe links of a reminder mail, when `PUBLIC_WEB_URL` makes them absolute. */
function unsubscribeLinks(ctx: RemindersContext, texts: ReminderTexts, member: Candidate) {
  if (!texts.baseUrl) return undefined;
  const token = unsubscribeSigner(ctx).token(member.id, 'email');
  return {
    page: `${texts.baseUrl}${UNSUBSCRIBE_PAGE}?token=${token}`,
    oneClick: `${texts.baseUrl}${UNSUBSCRIBE_ROUTE}?token=${token}`,
  };
}
export interface ReminderSummary {
  [key: string]: number;
  /** Members due for a threshold. */
  checked: number;
  /** Members reached on at least one channel by this run. */
  reminded: number;
  /** Deliveries by channel in this run: sent, failed, recorded as skipped. */
  sent: number;
  failed: number;
  skipped: number;
  /** Channels already sent, skipped or out of tries before this run. */
  alreadyDone: number;
  /** Member × channel pairs left for later because the channel is not configured. */
  unconfigured: number;
}

/** What a reminder row is about: the membership end and the threshold. */
export const reminderRef = (expiresAt: Date, days: number) => `${expiresAt.toISOString()}/${days}`;

/**
 * One run. For each member due for a threshold and each channel switched on: a channel that
 * cannot reach the member is recorded as `skipped`; otherwise the channel is claimed (a row in
 * `member_notices`, or a failed one with tries left) before anything is sent, then marked
 * `sent` or `failed`. A second run or replica finds the claim taken and sends nothing; a failed
 * channel is tried again by the next run, three tries in all.
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
    sent: 0,
    failed: 0,
    skipped: 0,
    alreadyDone: 0,
    unconfigured: 0,
  };
  const open = await openChannels(ctx);
  if (days.length === 0 || open.wanted.length === 0) {
    const reason = days.length === 0 ? 'no reminder days' : 'no reminder channels';
    return { status: 'skipped', summary: { ...summary, reason } };
  }
  const texts = await readReminderTexts(store);
  const now = ctx.now();
  const horizon = new Date(now.getTime() + Math.max(...days) * DAY_MS);

  let after: { expiresAt: Date; id: string } | null = null;
  for (;;) {
    const page = await candidates(ctx, now, horizon, after);
    for (const member of page) {
      if (run.signal.aborted) break;
      const threshold = dueThreshold(member.expiresAt, now, days);
      if (threshold === null) continue;
      summary.checked += 1;
      const notice = reminderNotice(
        texts,
        { username: member.username, expiresAt: member.expiresAt, locale: localeOf(member.locale) },
        now,
      );
      const outcomes = await sendToMember(
        ctx,
        open,
        member,
        notice,
        texts,
        {
          kind: 'expiry_reminder',
          ref: reminderRef(member.expiresAt, threshold),
          expiresAt: member.expiresAt,
          days: threshold,
        },
        { daysLeft: daysLeft(member.expiresAt, now), now },
      );
      let reached = false;
      for (const o of outcomes) {
        if (o.outcome === 'sent') {
          summary.sent += 1;
          reached = true;
        } else if (o.outcome === 'failed') {
          summary.failed += 1;
          run.logger.warn(
            { userId: member.id, days: threshold, channel: o.channel, detail: o.detail },
            'reminder not delivered',
          );
        } else if (o.outcome === 'already') summary.alreadyDone += 1;
        else summary[o.outcome] += 1;
      }
      if (reached) summary.reminded += 1;
    }
    if (run.signal.aborted || page.length < REMINDER_BATCH) break;
    const last = page[page.length - 1]!;
    after = { expiresAt: last.expiresAt, id: last.id };
  }
  const acted = summary.sent + summary.failed + summary.skipped;
  if (acted) run.logger.info(summary, 'expiry reminders');
  return acted ? { summary } : { status: 'skipped', summary };
}

export function remindersJob(ctx: RemindersContext): JobDefinition {
  return {
    name: REMINDERS_JOB,
    description: 'Reminds members before their membership ends, once per threshold and channel',
    schedule: REMINDERS_DEFAULT_CRON,
    scheduleSetting: 'REMINDER_CRON',
    run: (run) => runReminders(ctx, run),
  };
}
