import type { SettingCheck } from '@usher/contracts';
import type { SettingsReader } from '../../../integrations/common.js';
import { IntegrationError } from '../../../integrations/errors.js';
import { createMediaServer } from '../../../integrations/media-server/factory.js';
import type { MediaServerConfig } from '../../../integrations/media-server/factory.js';
import { testMediaServerConnection } from '../../../integrations/media-server/probe.js';
import type { GroupTest } from './check.js';

async function mediaServerConfig(settings: SettingsReader): Promise<MediaServerConfig> {
  return {
    kind: (await settings.getString('MEDIA_SERVER_KIND')) === 'jellyfin' ? 'jellyfin' : 'emby',
    url: await settings.getString('MEDIA_SERVER_URL'),
    apiKey: await settings.getString('MEDIA_SERVER_API_KEY'),
    timeoutSeconds: await settings.get('MEDIA_SERVER_TIMEOUT_SECONDS'),
    timeZone:
      (await settings.getString('MEDIA_SERVER_TIMEZONE')) ||
      (await settings.getString('SCHEDULE_TIMEZONE')),
  };
}

const serverFailure = (
  message: string,
  reason: SettingCheck['reason'],
  latencyMs = 0,
): SettingCheck[] => [{ target: 'server', status: 'fail', message, reason, latencyMs }];

/** `server`, `libraries`, `playback_reporting`, `webhook` (30-settings.md §6), from the adapter. */
export const testMediaServer: GroupTest = async (ctx) => {
  const config = await mediaServerConfig(ctx.settings);
  let adapter;
  try {
    adapter = createMediaServer(config, ctx.deps);
  } catch (err) {
    // Missing URL or key is reported as the server check's result, like any other failure.
    if (!(err instanceof IntegrationError)) throw err;
    return serverFailure(err.message, err.kind);
  }
  const input = {
    memberLibraryIds: (await ctx.settings.get('MEMBER_LIBRARY_IDS')) ?? [],
    rankingLibraryIds: (await ctx.settings.get('RANKING_LIBRARY_IDS')) ?? [],
    webhookTokenPresent: (await ctx.settings.getString('MEDIA_SERVER_WEBHOOK_TOKEN')) !== '',
  };
  // The checks share the calls (server with its one GET retry, libraries, the playback query at
  // three times the timeout), so the group answers at the test's deadline (10 s) as a whole.
  const started = performance.now();
  return ctx.deadline.race(testMediaServerConnection(adapter, input), () =>
    serverFailure(
      ctx.deadline.timedOutMessage,
      'deadline',
      Math.round(performance.now() - started),
    ),
  );
};
