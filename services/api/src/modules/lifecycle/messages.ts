// The texts of the membership lifecycle (docs/lifecycle.md): the operator's templates from the
// `lifecycle` settings group, filled in per member and language, then shaped per channel (mail,
// messenger, webhook). Pure functions: the job and the admin preview share them.
import { DAY_MS } from '../../time/units.js';
import { formatWallClock, wallClock } from '@usher/contracts/time';
import type { Locale } from '@usher/contracts';
import { noticeTemplateKeys, type TemplateNoticeKind } from '@usher/contracts/values';
import type { MailMessage } from '../../integrations/mail/types.js';
import type { SettingsReader } from '../../integrations/common.js';
import { fillPlaceholders } from '../../settings-store/placeholders.js';

/**
 * The member page where a membership is renewed (web route `/console/renewal`, 60-web.md); the
 * reminder's link says where the member came from.
 */
export const RENEW_PATH = '/console/renewal?from=reminder';

/** One rendered notice: `subject` is the mail subject and the webhook title. */
export interface Notice {
  locale: Locale;
  subject: string;
  text: string;
}

/** What a reminder is about. */
export interface ReminderFacts {
  username: string;
  expiresAt: Date;
  locale: Locale;
}

/** A subject and a text. */
interface Words {
  subject: string;
  text: string;
}

/** One kind's words per language. */
type Templates = Record<Locale, Words>;

/** The settings the lifecycle notices need, read once per run. */
export interface ReminderTexts {
  siteName: string;
  /** `PUBLIC_WEB_URL` without a trailing slash; empty when it is not set. */
  baseUrl: string;
  renewUrl: string;
  timezone: string;
  /** The operator's texts of every notice kind (a default until an admin saves one). */
  templates: Record<TemplateNoticeKind, Templates>;
}

async function readTemplates(settings: SettingsReader, kind: TemplateNoticeKind) {
  const read = async (locale: Locale) => {
    const keys = noticeTemplateKeys(kind, locale);
    return {
      subject: await settings.getString(keys.subject),
      text: await settings.getString(keys.text),
    };
  };
  return { en: await read('en'), 'zh-CN': await read('zh-CN') };
}

export async function readReminderTexts(settings: SettingsReader): Promise<ReminderTexts> {
  const baseUrl = (await settings.getString('PUBLIC_WEB_URL')).replace(/\/+$/, '');
  return {
    siteName: await settings.getString('SITE_NAME'),
    baseUrl,
    // Without PUBLIC_WEB_URL the path alone still tells a member where to go.
    renewUrl: `${baseUrl}${RENEW_PATH}`,
    timezone: (await settings.getString('SCHEDULE_TIMEZONE')) || 'UTC',
    templates: {
      expiry_reminder: await readTemplates(settings, 'expiry_reminder'),
      deletion_warning: await readTemplates(settings, 'deletion_warning'),
      inactivity_warning: await readTemplates(settings, 'inactivity_warning'),
    },
  };
}

/** A template in one language, filled in with `values`. */
function fill(template: Words, locale: Locale, values: Record<string, string>): Notice {
  return {
    locale,
    subject: fillPlaceholders(template.subject, values),
    text: fillPlaceholders(template.text, values),
  };
}

/** The operator's template of one kind in one language, filled in with `values`. */
function render(
  texts: ReminderTexts,
  kind: TemplateNoticeKind,
  locale: Locale,
  values: Record<string, string>,
): Notice {
  return fill(texts.templates[kind][locale], locale, values);
}

/** Whole days left, rounded up: 6 days and 2 hours left is "7 days". At least 1. */
export function daysLeft(expiresAt: Date, now: Date): number {
  return Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / DAY_MS));
}

/** `2026-12-14 08:00 UTC`: the membership end in the business timezone, the same in both languages. */
export function formatInstant(at: Date, timezone: string): string {
  return `${formatWallClock(wallClock(at, timezone))} ${timezone}`;
}

export function reminderNotice(texts: ReminderTexts, facts: ReminderFacts, now: Date): Notice {
  return render(texts, 'expiry_reminder', facts.locale, {
    username: facts.username,
    siteName: texts.siteName,
    daysLeft: String(daysLeft(facts.expiresAt, now)),
    expiresAt: formatInstant(facts.expiresAt, texts.timezone),
    renewUrl: texts.renewUrl,
  });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Where a reminder mail lets the member stop them: a page to click, and RFC 8058 one-click. */
export interface UnsubscribeLinks {
  page: string;
  oneClick: string;
}

const UNSUBSCRIBE_WORDS: Record<Locale, string> = {
  en: 'Stop these e-mails',
  'zh-CN': '不再接收此类邮件',
};

/**
 * The notice as a mail: the text as written, and an HTML part with one paragraph per block.
 * With `links`, the `List-Unsubscribe` headers (one-click, RFC 8058) and a link in both parts.
 */
export function noticeMail(
  to: string,
  siteName: string,
  notice: Notice,
  links?: UnsubscribeLinks,
): MailMessage {
  const paragraphs = notice.text
    .split(/\n\s*\n/)
    .map((p) => `<p>${escapeHtml(p.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('');
  const words = UNSUBSCRIBE_WORDS[notice.locale];
  const footer = links
    ? `<hr><p><small><a href="${escapeHtml(links.page)}">${escapeHtml(words)}</a></small></p>`
    : '';
  return {
    to,
    subject: notice.subject,
    text: links ? `${notice.text}\n\n--\n${words}: ${links.page}\n` : `${notice.text}\n`,
    html: `<!doctype html><html><body><h2>${escapeHtml(siteName)}</h2>${paragraphs}${footer}</body></html>`,
    ...(links
      ? {
          headers: {
            'List-Unsubscribe': `<${links.oneClick}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        }
      : {}),
  };
}

/** What a deletion warning is about. */
export interface DeletionFacts {
  username: string;
  expiresAt: Date;
  deleteAt: Date;
  locale: Locale;
}

/** The warning before an expired member's media account is deleted (`DELETION_WARNING_*`). */
export function deletionNotice(texts: ReminderTexts, facts: DeletionFacts): Notice {
  return render(texts, 'deletion_warning', facts.locale, {
    username: facts.username,
    siteName: texts.siteName,
    expiresAt: formatInstant(facts.expiresAt, texts.timezone),
    deleteAt: formatInstant(facts.deleteAt, texts.timezone),
    renewUrl: texts.renewUrl,
  });
}

/** What an inactivity warning is about. */
export interface InactivityFacts {
  username: string;
  days: number;
  disableAt: Date;
  locale: Locale;
}

/** The warning before a member is switched off for inactivity (`INACTIVITY_WARNING_*`). */
export function inactivityNotice(texts: ReminderTexts, facts: InactivityFacts): Notice {
  return render(texts, 'inactivity_warning', facts.locale, {
    username: facts.username,
    siteName: texts.siteName,
    days: String(facts.days),
    disableAt: formatInstant(facts.disableAt, texts.timezone),
  });
}

const SHARING_SUSPENSION_TEXTS: Record<Locale, Words> = {
  en: {
    subject: '{siteName}: your access is paused until {until}',
    text:
      'Hi {username},\n\nyour {siteName} account played from more places or devices at once than ' +
      'your membership allows ({reason}). Your media access is paused until {until} and comes ' +
      'back by itself then.\n\nIf this was you, sorry for the trouble — an admin can see what ' +
      'was detected and lift the pause.',
  },
  'zh-CN': {
    subject: '{siteName}：你的观看权限暂停至 {until}',
    text:
      '{username}，你好：\n\n你的 {siteName} 账号同时在超出会员允许范围的地点或设备上播放（{reason}）。' +
      '你的媒体访问权限暂停至 {until}，届时会自动恢复。\n\n如果这些都是你本人，抱歉打扰——' +
      '管理员可以查看检测记录并解除暂停。',
  },
};

/** Why a member was suspended, in their language (the rule that fired). */
const SHARING_REASONS: Record<Locale, Record<string, string>> = {
  en: {
    streams: 'too many streams at once',
    networks: 'too many networks',
    devices: 'too many devices',
    travel: 'places too far apart in too little time',
  },
  'zh-CN': {
    streams: '同时播放的串流过多',
    networks: '使用的网络过多',
    devices: '使用的设备过多',
    travel: '短时间内出现在相距过远的地点',
  },
};

/** The notice of a suspension for account sharing (docs/sharing.md; fixed texts, both languages). */
export function sharingSuspensionNotice(
  texts: ReminderTexts,
  facts: { username: string; rule: string; until: Date; locale: Locale },
): Notice {
  const values = {
    username: facts.username,
    siteName: texts.siteName,
    until: formatInstant(facts.until, texts.timezone),
    reason: SHARING_REASONS[facts.locale][facts.rule] ?? facts.rule,
  };
  return fill(SHARING_SUSPENSION_TEXTS[facts.locale], facts.locale, values);
}
