// Admin tools of the lifecycle (docs/lifecycle.md): preview a reminder with a draft template,
// and send the saved reminder to oneself on one channel. The calling admin is the sample member.
import type {
  LifecyclePreview,
  LifecyclePreviewRequest,
  LifecycleTestReply,
  LifecycleTestRequest,
  Locale,
} from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import { notConfigured } from '../../integrations/common.js';
import { IntegrationError } from '../../integrations/errors.js';
import { DEFINITIONS_BY_KEY } from '../../settings-store/definitions.js';
import { parseInput } from '../../settings-store/validate.js';
import type { ModuleContext } from '../context.js';
import {
  daysLeft,
  noticeMail,
  readReminderTexts,
  reminderNotice,
  type ReminderTexts,
} from './messages.js';
import { sendWebhook } from './webhook.js';

type LifecycleContext = Pick<ModuleContext, 'db' | 'now' | 'settings' | 'integrations' | 'notify'>;

/** The sample end of a preview or test: three days from now. */
const SAMPLE_DAYS = 3;
const DAY_MS = 86_400_000;

const suffix = (locale: Locale) => (locale === 'zh-CN' ? 'ZH_CN' : 'EN');

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
  const [row] = await ctx.db
    .select({
      username: users.username,
      email: users.email,
      messengerId: users.messengerId,
      locale: users.locale,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw new AppError('NOT_FOUND', 'The calling account no longer exists');
  return row;
}

export async function previewReminder(
  ctx: LifecycleContext,
  callerId: string,
  input: LifecyclePreviewRequest,
): Promise<LifecyclePreview> {
  const subject = checkDraft(`REMINDER_SUBJECT_${suffix(input.locale)}`, input.subject);
  const text = checkDraft(`REMINDER_TEMPLATE_${suffix(input.locale)}`, input.text);
  const saved = await readReminderTexts(ctx.settings.store);
  const texts: ReminderTexts = {
    ...saved,
    templates: {
      ...saved.templates,
      [input.locale]: {
        subject: subject ?? saved.templates[input.locale].subject,
        text: text ?? saved.templates[input.locale].text,
      },
    },
  };
  const member = await sampleMember(ctx, callerId);
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + SAMPLE_DAYS * DAY_MS);
  const notice = reminderNotice(
    texts,
    { username: member.username, expiresAt, locale: input.locale },
    now,
  );
  return {
    kind: 'reminder',
    locale: input.locale,
    subject: notice.subject,
    text: notice.text,
    sample: {
      username: member.username,
      siteName: texts.siteName,
      daysLeft: daysLeft(expiresAt, now),
      expiresAt: expiresAt.toISOString(),
      renewUrl: texts.renewUrl,
    },
  };
}

const unavailable = (message: string) => new AppError('REMINDER_CHANNEL_UNAVAILABLE', message);

/**
 * Sends the saved reminder to the calling admin on one channel, whatever `REMINDER_CHANNELS`
 * says (testing a channel before switching it on is the point). A failure answers with the
 * shared upstream errors; the webhook address never appears in one.
 */
export async function sendTestReminder(
  ctx: LifecycleContext,
  callerId: string,
  input: LifecycleTestRequest,
): Promise<LifecycleTestReply> {
  const member = await sampleMember(ctx, callerId);
  const locale: Locale = input.locale ?? (member.locale === 'zh-CN' ? 'zh-CN' : 'en');
  const texts = await readReminderTexts(ctx.settings.store);
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + SAMPLE_DAYS * DAY_MS);
  const notice = reminderNotice(texts, { username: member.username, expiresAt, locale }, now);
  const reply = { channel: input.channel, locale, status: 'sent' as const };
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
        expiresAt: expiresAt.toISOString(),
        daysLeft: daysLeft(expiresAt, now),
        renewUrl: texts.renewUrl,
        occurredAt: now.toISOString(),
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
