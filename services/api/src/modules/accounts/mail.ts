// The account mails (50-integrations.md §7): verification codes for sign-up, password reset and
// email change, and the "your email changed" notice to the old address. Text and HTML, in the
// reader's language (English unless the account or the browser says zh).
import type { Locale } from '@usher/contracts';
import type { MailMessage } from '../../integrations/mail/types.js';

export type CodePurpose = 'register' | 'reset' | 'change_email';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const PURPOSE_TEXT: Record<Locale, Record<CodePurpose, { subject: string; lead: string }>> = {
  en: {
    register: { subject: 'your sign-up code', lead: 'Use this code to finish signing up' },
    reset: { subject: 'your password reset code', lead: 'Use this code to set a new password' },
    change_email: {
      subject: 'confirm your new email address',
      lead: 'Use this code to confirm your new email address',
    },
  },
  'zh-CN': {
    register: { subject: '注册验证码', lead: '请使用以下验证码完成注册' },
    reset: { subject: '重置密码验证码', lead: '请使用以下验证码设置新密码' },
    change_email: { subject: '确认新的邮箱地址', lead: '请使用以下验证码确认新的邮箱地址' },
  },
};

function page(siteName: string, paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<p>${p}</p>`).join('');
  return `<!doctype html><html><body><h2>${escapeHtml(siteName)}</h2>${body}</body></html>`;
}

/** A verification-code mail. */
export function codeMail(input: {
  to: string;
  code: string;
  purpose: CodePurpose;
  ttlMinutes: number;
  siteName: string;
  locale: Locale;
}): MailMessage {
  const t = PURPOSE_TEXT[input.locale][input.purpose];
  const valid =
    input.locale === 'zh-CN'
      ? `验证码 ${input.ttlMinutes} 分钟内有效。如果这不是您本人的操作，请忽略此邮件。`
      : `The code is valid for ${input.ttlMinutes} minutes. ` +
        'If you did not ask for it, ignore this message.';
  return {
    to: input.to,
    subject: `${input.siteName}: ${t.subject}`,
    text: `${t.lead}:\n\n    ${input.code}\n\n${valid}\n`,
    html: page(input.siteName, [
      `${escapeHtml(t.lead)}:`,
      `<strong style="font-size:1.6em;letter-spacing:0.2em">${input.code}</strong>`,
      escapeHtml(valid),
    ]),
  };
}

/** The notice sent to the old address after an email change. */
export function emailChangedMail(input: {
  to: string;
  username: string;
  newEmail: string;
  siteName: string;
  locale: Locale;
}): MailMessage {
  const zh = input.locale === 'zh-CN';
  const subject = zh ? '您的邮箱地址已更改' : 'your email address was changed';
  const lines = zh
    ? [
        `账户 ${input.username} 的邮箱地址已更改为 ${input.newEmail}。`,
        '如果这不是您本人的操作，请立即联系管理员。',
      ]
    : [
        `The email address of the account ${input.username} was changed to ${input.newEmail}.`,
        'If you did not do this, contact the operator at once.',
      ];
  return {
    to: input.to,
    subject: `${input.siteName}: ${subject}`,
    text: `${lines.join('\n\n')}\n`,
    html: page(input.siteName, lines.map(escapeHtml)),
  };
}

/** `Accept-Language` → the mail language of someone without an account yet. */
export function localeFromHeader(header: string | undefined): Locale {
  const first = (header ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('zh') ? 'zh-CN' : 'en';
}

/** The language of a mail to someone without an account: the browser's `Accept-Language`. */
export function browserLocale(c: { req: { header(name: string): string | undefined } }): Locale {
  return localeFromHeader(c.req.header('accept-language'));
}
