// The member's notice of a suspension for account sharing (docs/sharing.md): by mail and bot, in
// the member's language, claimed once per suspension like every other notice (`member_notices`).
import type { ModuleContext } from '../context.js';
import { readReminderTexts, sharingSuspensionNotice } from './messages.js';
import { localeOf, openChannels, sendToMember, type ChannelOutcome } from './reminders.js';
import { noticeMember } from './queries.js';

type NoticeContext = Pick<
  ModuleContext,
  'db' | 'now' | 'settings' | 'integrations' | 'notify' | 'config'
>;

/** Tells the member their access is paused until `until` and why; `ref` names the event. */
export async function sendSharingSuspensionNotice(
  ctx: NoticeContext,
  input: { userId: string; rule: string; until: Date; ref: string },
): Promise<ChannelOutcome[]> {
  const row = await noticeMember(ctx.db, input.userId);
  if (!row) return [];
  const now = ctx.now();
  const member = { ...row, expiresAt: row.expiresAt ?? now };
  const texts = await readReminderTexts(ctx.settings.store);
  const notice = sharingSuspensionNotice(texts, {
    username: member.username,
    rule: input.rule,
    until: input.until,
    locale: localeOf(member.locale),
  });
  const open = await openChannels(ctx, ['email', 'messenger']);
  return sendToMember(
    ctx,
    open,
    member,
    notice,
    texts,
    { kind: 'sharing_suspension', ref: input.ref },
    {
      daysLeft: 0,
      names: { notice: 'sharing_suspension', event: 'membership.sharing_suspension' },
      now,
    },
  );
}
