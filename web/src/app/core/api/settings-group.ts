import type { SettingGroup } from '@usher/contracts';

/**
 * Where an admin fixes a missing configuration: `details.system` of a 503 NOT_CONFIGURED → the
 * `/admin/settings?group=` that holds its keys (60-web.md §1 "How the app treats errors").
 */
export function settingsGroupFor(system: string | null): SettingGroup | null {
  switch (system) {
    case 'media_server':
    case 'webhook':
    case 'playback_reporting':
      return 'media_server';
    case 'tmdb':
      return 'metadata';
    case 'automation':
      return 'automation';
    case 'smtp':
      return 'email';
    case 'stripe':
      return 'payment';
    case 'bot':
      return 'messenger';
    default:
      return null;
  }
}
