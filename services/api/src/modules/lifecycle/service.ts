// Admin tools of the lifecycle (docs/lifecycle.md): preview a notice kind with a draft template,
// and send its saved texts to oneself on one channel. The calling admin is the sample member.
import { DAY_MS } from '../../time/units.js';
import type {
  LifecyclePreview,
  LifecyclePreviewRequest,
  LifecycleTestReply,
  LifecycleTestRequest,
  Locale,
} from '@usher/contracts';
import { noticeTemplateKeys, type TemplateNoticeKind } from '@usher/contracts/values';
import { AppError } from '../../errors/app-error.js';
import { notConfigured } from '../../integrations/common.js';
import { IntegrationError } from '../../integrations/errors.js';
import { DEFINITIONS_BY_KEY } from '../../settings-store/definitions.js';
import { parseInput } from '../../settings-store/validate.js';
import type { ModuleContext } from '../context.js';
import { WARNING_DAYS } from './grace.js';
import { INACTIVITY_NOTICE_DAYS } from './inactivity.js';
import {
  daysLeft,
  deletionNotice,
  inactivityNotice,
  noticeMail,
  readReminderTexts,
  reminderNotice,
  type Notice,
  type ReminderTexts,
} from './messages.js';
import { sendWebhook, type WebhookEvent } from './webhook.js';
import { sampleMemberRow } from './queries.js';

type LifecycleContext = Pick<ModuleContext, 'db' | 'now' | 'settings' | 'integrations' | 'notify'>;
type Defaulted<T> = T & { kind: TemplateNoticeKind };

/** The sample end of a reminder's preview or test: three days from now. */
const SAMPLE_DAYS = 3;
/** Sample grace and idle days while the feature is off (0), so its texts still read naturally. */
const SAMPLE_GRACE_DAYS = 30;
const SAMPLE_IDLE_DAYS = 60;

/**
 * Checks a draft like a save would (`SETTING_INVALID` with `details: [{key, message}]`), so the
 * preview refuses an unknown placeholder with the same words as the PUT.
 */
function checkDraft(key: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = parseInput(DEFINITIONS_BY_KEY.get(key)!, value);
  if (!parsed.ok) {
    throw new AppError('SETTING_INVALID', `${key}: ${parsed.message}`, {
      details: [{ key, message: parsed.message }],
    });
  }
  return String(parsed.value);
}

async function sampleMember(ctx: LifecycleContext, userId: string) {
  const row = await sampleMemberRow(ctx.db, userId);
  if (!row) throw new AppError('NOT_FOUND', 'The calling account no longer exists');
  return row;
}

/** A kind rendered for the sample member: the preview's reply, and what a test sends. */
interface Sample {
  preview: LifecyclePreview;
  notice: Notice;
  /** The webhook's fields about the membership. */
  webhook: Pick<WebhookEvent, 'expiresAt' | 'daysLeft'>;
}

/**
 * The kind's texts filled in as the job would for the calling admin: a reminder 3 days before
 * the end; a deletion warning as the grace job sends it (3 days before the deletion, the end
 * `MEDIA_ACCOUNT_DELETE_AFTER_DAYS` before that); an inactivity warning after
 * `INACTIVITY_DISABLE_DAYS` idle days, the switch-off 7 days on.
 */
async function renderSample(
  ctx: LifecycleContext,
  texts: ReminderTexts,
  kind: TemplateNoticeKind,
  username: string,
  locale: Locale,
): Promise<Sample> {
  const now = ctx.now();
  const { notice, sample, webhook } = await sampleValues(ctx, texts, kind, username, locale, now);
  const preview = {
    kind,
    locale,
    subject: notice.subject,
    text: notice.text,
    sample: { username, siteName: texts.siteName, ...sample },
  } as LifecyclePreview; // `sample` matches `kind`: both come from the same case below
  return { notice, preview, webhook };
}

async function sampleValues(
  ctx: LifecycleContext,
  texts: ReminderTexts,
  kind: TemplateNoticeKind,
  username: string,
  locale: Locale,
  now: Date,
) {
  switch (kind) {
    case 'expiry_reminder': {
      const expiresAt = new Date(now.getTime() + SAMPLE_DAYS * DAY_MS);
      const left = daysLeft(expiresAt, now);
      return {
        notice: reminderNotice(texts, { username, expiresAt, locale }, now),
        sample: { daysLeft: left, expiresAt: expiresAt.toISOString(), renewUrl: texts.renewUrl },
        webhook: { expiresAt: expiresAt.toISOString(), daysLeft: left },
      };
    }
    case 'deletion_warning': {
      const grace =
        Number(await ctx.settings.store.get('MEDIA_ACCOUNT_DELETE_AFTER_DAYS')) ||
        SAMPLE_GRACE_DAYS;
      const deleteAt = new Date(now.getTime() + WARNING_DAYS * DAY_MS);
      const expiresAt = new Date(now.getTime() - Math.max(0, grace - WARNING_DAYS) * DAY_MS);
      return {
        notice: deletionNotice(texts, { username, expiresAt, deleteAt, locale }),
        sample: {
          expiresAt: expiresAt.toISOString(),
          deleteAt: deleteAt.toISOString(),
          renewUrl: texts.renewUrl,
        },
        webhook: { expiresAt: expiresAt.toISOString(), daysLeft: 0 },
      };
    }
    case 'inactivity_warning': {
      const days =
        Number(await ctx.settings.store.get('INACTIVITY_DISABLE_DAYS')) || SAMPLE_IDLE_DAYS;
      const disableAt = new Date(now.getTime() + INACTIVITY_NOTICE_DAYS * DAY_MS);
      return {
        notice: inactivityNotice(texts, { username, days, disableAt, locale }),
        sample: { days, disableAt: disableAt.toISOString() },
        webhook: { expiresAt: null, daysLeft: null },
      };
    }
  }
}

export async function previewNotice(
  ctx: LifecycleContext,
  callerId: string,
  input: Defaulted<LifecyclePreviewRequest>,
): Promise<LifecyclePreview> {
  const { kind, locale } = input;
  const keys = noticeTemplateKeys(kind, locale);
  const subject = checkDraft(keys.subject, input.subject);
  const text = checkDraft(keys.text, input.text);
  const saved = await readReminderTexts(ctx.settings.store);
  const texts: ReminderTexts = {
    ...saved,
    templates: {
      ...saved.templates,
      [kind]: {
        ...saved.templates[kind],
        [locale]: {
          subject: subject ?? saved.templates[kind][locale].subject,
          text: text ?? saved.templates[kind][locale].text,
        },
      },
    },
  };
  const member = await sampleMember(ctx, callerId);
  return (await renderSample(ctx, texts, kind, member.username, locale)).preview;
}

const unavailable = (message: string) => new AppError('REMINDER_CHANNEL_UNAVAILABLE', message);

/**
 * Sends a kind's saved texts to the calling admin on one channel, whatever `REMINDER_CHANNELS`
 * says (testing a channel before switching it on is the point). A failure answers with the
 * shared upstream errors; the webhook address never appears in one.
 */
export async function sendTestNotice(
  ctx: LifecycleContext,
  callerId: string,
  input: Defaulted<LifecycleTestRequest>,
): Promise<LifecycleTestReply> {
  const member = await sampleMember(ctx, callerId);
  const locale: Locale = input.locale ?? (member.locale === 'zh-CN' ? 'zh-CN' : 'en');
  const texts = await readReminderTexts(ctx.settings.store);
  const { notice, webhook } = await renderSample(ctx, texts, input.kind, member.username, locale);
  const reply = { kind: input.kind, channel: input.channel, locale, status: 'sent' as const };
  switch (input.channel) {
    case 'email': {
      if (!member.email) throw unavailable('Your account has no e-mail address');
      const mail = await ctx.integrations.mail.get();
      await mail.send(noticeMail(member.email, texts.siteName, notice));
      return reply;
    }
    case 'messenger': {
      if (member.messengerId === null) {
        throw unavailable('Your account is not linked to the messenger bot');
      }
      if (!ctx.notify.enabled) throw notConfigured('bot', 'notify', ['BOT_NOTIFY_URL']);
      const result = await ctx.notify.deliver('member', {
        notice: 'test',
        userId: callerId,
        messengerId: member.messengerId,
        locale,
        text: notice.text,
      });
      if (result.outcome !== 'sent') {
        throw new IntegrationError(
          'bot',
          'notify',
          'network',
          `The bot did not deliver (${result.outcome})`,
        );
      }
      return reply;
    }
    case 'webhook': {
      const url = await ctx.settings.store.getString('NOTIFY_WEBHOOK_URL');
      if (!url) throw notConfigured('webhook', 'notify', ['NOTIFY_WEBHOOK_URL']);
      const format = await ctx.settings.store.getString('NOTIFY_WEBHOOK_FORMAT');
      const result = await sendWebhook(url, format, notice, {
        event: 'test',
        userId: callerId,
        username: member.username,
        ...webhook,
        renewUrl: texts.renewUrl,
        occurredAt: ctx.now().toISOString(),
      });
      if (result.outcome === 'failed') {
        const why = result.status ? `answered ${result.status}` : `failed (${result.reason})`;
        throw new IntegrationError(
          'webhook',
          'notify',
          'network',
          `The notification webhook ${why}`,
        );
      }
      return reply;
    }
  }
}
