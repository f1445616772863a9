import {
  createMail,
  missingMailSettings,
  readMailSettings,
} from '../../../integrations/mail/factory.js';
import { fail, fromProbe, ok, runCheck, type GroupTest } from './check.js';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * `smtp`: connect, TLS per `SMTP_SECURITY`, AUTH when a username is set (`verify()`). With `to`,
 * `test_message` also sends a message and reports what the server answered.
 */
export const testEmail: GroupTest = async (ctx) => {
  const settings = await readMailSettings(ctx.settings);
  const missing = missingMailSettings(settings);
  if (missing.length) {
    return [
      await runCheck('smtp', ctx, async () =>
        fail(`Not configured: set ${missing.join(', ')}`, 'not_configured'),
      ),
    ];
  }
  const timeouts = {
    connectionTimeout: ctx.timeoutMs,
    greetingTimeout: ctx.timeoutMs,
    socketTimeout: ctx.timeoutMs,
  };
  const mail = createMail(settings, ctx.deps, { timeouts });
  // The two checks run one after the other: the test's deadline bounds them together.
  const smtp = await runCheck('smtp', ctx, async () => fromProbe(await mail.probe()));
  if (!ctx.to) return [smtp];
  const to = ctx.to;
  const site = await ctx.settings.getString('SITE_NAME');
  const sent = await runCheck('test_message', ctx, async () => {
    if (smtp.status === 'fail') return fail('Not sent: the connection test failed', 'not_run');
    const info = await mail.send({
      to,
      subject: `${site}: test message`,
      text: `This is a test message from the ${site} settings center. Outgoing mail works.`,
      html:
        `<p>This is a test message from the <b>${escapeHtml(site)}</b> settings center. ` +
        'Outgoing mail works.</p>',
    });
    return ok(`Accepted for ${info.accepted.join(', ')} (${info.response})`);
  });
  return [smtp, sent];
};
