// Builds the adapter chosen by MEDIA_SERVER_KIND from the current settings (§0), and keeps it per
// settings digest so that a settings edit takes effect on the next call, without a restart.
import { PerSettings, type SettingsReader } from '../common.js';
import { IntegrationError } from '../errors.js';
import { MediaServerClient, type MediaServerConfig, type MediaServerDeps } from './client.js';
import { EmbyMediaServer } from './emby.js';
import { JellyfinMediaServer } from './jellyfin.js';
import type { MediaServer } from './port.js';

export type { MediaServerConfig, MediaServerDeps } from './client.js';

const DEFAULT_TIMEOUT_SECONDS = 10;

function notConfigured(message: string): IntegrationError {
  return new IntegrationError('media_server', 'configure', 'not_configured', message);
}

/** Reads the media_server group (30-settings.md §4.2); the zone falls back to SCHEDULE_TIMEZONE. */
export async function readMediaServerConfig(settings: SettingsReader): Promise<MediaServerConfig> {
  const zone = await settings.getString('MEDIA_SERVER_TIMEZONE');
  return {
    kind: (await settings.getString('MEDIA_SERVER_KIND')) === 'jellyfin' ? 'jellyfin' : 'emby',
    url: await settings.getString('MEDIA_SERVER_URL'),
    apiKey: await settings.getString('MEDIA_SERVER_API_KEY'),
    timeoutSeconds: await settings.get('MEDIA_SERVER_TIMEOUT_SECONDS'),
    timeZone: zone || (await settings.getString('SCHEDULE_TIMEZONE')),
  };
}

/** A new adapter; `not_configured` when the URL or the API key is missing or unusable. */
export function createMediaServer(
  config: MediaServerConfig,
  deps: MediaServerDeps = {},
): MediaServer {
  const url = (config.url ?? '').trim();
  const apiKey = (config.apiKey ?? '').trim();
  // The wording is the one the settings center shows for this group (its tests pin it).
  if (!url || !apiKey) {
    throw notConfigured(
      'The media server is not configured: set MEDIA_SERVER_URL and MEDIA_SERVER_API_KEY',
    );
  }
  if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) {
    throw notConfigured('MEDIA_SERVER_URL is not an http(s) address');
  }
  const timeoutSeconds =
    Number.isFinite(config.timeoutSeconds) && config.timeoutSeconds > 0
      ? config.timeoutSeconds
      : DEFAULT_TIMEOUT_SECONDS;
  const client = new MediaServerClient({ ...config, url, apiKey, timeoutSeconds }, deps);
  const timeZone = config.timeZone || 'UTC';
  return config.kind === 'jellyfin'
    ? new JellyfinMediaServer(client, deps, timeZone)
    : new EmbyMediaServer(client, deps, timeZone);
}

/**
 * The adapter for the current settings, rebuilt when they change and reused while they do not
 * (it keeps per-server state such as Jellyfin's TMDB map and Emby's list-users fallback).
 */
export class MediaServerFactory {
  private readonly adapters: PerSettings<MediaServerConfig, MediaServer>;

  constructor(
    private readonly settings: SettingsReader,
    deps: MediaServerDeps = {},
  ) {
    this.adapters = new PerSettings((config) => createMediaServer(config, deps));
  }

  async get(): Promise<MediaServer> {
    return this.adapters.get(await readMediaServerConfig(this.settings));
  }
}
