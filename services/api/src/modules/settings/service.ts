import type { InternalSettings } from '@usher/contracts';
import type { SettingKey } from '../../settings-store/definitions.js';
import type { ModuleContext } from '../context.js';

/** What the bot may know: non-sensitive messenger and display settings (20-api.md §7). */
export async function internalSettings(ctx: ModuleContext): Promise<InternalSettings> {
  const store = ctx.settings.store;
  const text = async (key: SettingKey) => (await store.getString(key)) || null;
  const adminChatId = await text('MESSENGER_ADMIN_CHAT_ID');
  const approverIds = (await store.get('MESSENGER_APPROVER_IDS')) ?? [];
  const approverFallback =
    approverIds.length > 0 || !adminChatId
      ? 'none'
      : adminChatId.startsWith('-')
        ? 'admin_group'
        : 'admin_user';
  return {
    adminChatId,
    groupChatId: await text('MESSENGER_GROUP_CHAT_ID'),
    approverIds,
    approverFallback,
    welcomeTemplate: await text('MESSENGER_WELCOME_TEMPLATE'),
    groupLink: await text('MESSENGER_GROUP_LINK'),
    timezone: await store.getString('SCHEDULE_TIMEZONE'),
    tmdbImageBase: await store.getString('TMDB_IMAGE_BASE'),
    webUrl: await text('PUBLIC_WEB_URL'),
    siteName: await store.getString('SITE_NAME'),
  };
}
