// Building adapters from settings (§0): NOT_CONFIGURED when incomplete, and one adapter per
// settings digest so an edit takes effect without a restart.
import type { SettingValue } from '@usher/contracts';
import { EmbyMediaServer } from '../../../src/integrations/media-server/emby.js';
import {
  createMediaServer,
  MediaServerFactory,
  readMediaServerConfig,
} from '../../../src/integrations/media-server/factory.js';
import { JellyfinMediaServer } from '../../../src/integrations/media-server/jellyfin.js';
import { API_KEY, failure, harness } from './helpers.js';

const config = {
  kind: 'jellyfin' as const,
  url: 'http://127.0.0.1:9',
  apiKey: API_KEY,
  timeoutSeconds: 10,
};

/** An in-memory settings reader, as the settings store answers. */
function settingsOf(values: Record<string, SettingValue>) {
  return {
    values,
    get: async <T extends SettingValue = SettingValue>(key: string) => values[key] as T,
    getString: async (key: string) => String(values[key] ?? ''),
  };
}

describe('media-server factory', () => {
  const boot = harness();

  it.each([
    [{ url: '' }, 'set MEDIA_SERVER_URL and MEDIA_SERVER_API_KEY'],
    [{ apiKey: '  ' }, 'set MEDIA_SERVER_URL and MEDIA_SERVER_API_KEY'],
    [{ url: 'jellyfin:8096' }, 'MEDIA_SERVER_URL is not an http(s) address'],
  ])('should refuse %j as not configured', async (override, message) => {
    const build = Promise.resolve().then(() => createMediaServer({ ...config, ...override }));
    const err = await failure(build);
    expect(err).toMatchObject({ kind: 'not_configured', system: 'media_server' });
    expect(err.message).toContain(message);
    expect(err.toAppError()).toMatchObject({ code: 'NOT_CONFIGURED', status: 503 });
  });

  it('should pick the adapter by kind, with UTC as the default zone', () => {
    const jf = createMediaServer(config);
    expect(jf).toBeInstanceOf(JellyfinMediaServer);
    expect(jf.timeZone).toBe('UTC');
    const emby = createMediaServer({ ...config, kind: 'emby', timeZone: 'Asia/Tokyo' });
    expect(emby).toBeInstanceOf(EmbyMediaServer);
    expect(emby.timeZone).toBe('Asia/Tokyo');
  });

  it('should read the media_server group, the zone falling back to the schedule zone', async () => {
    const settings = settingsOf({
      MEDIA_SERVER_KIND: 'jellyfin',
      MEDIA_SERVER_URL: 'http://jellyfin:8096',
      MEDIA_SERVER_API_KEY: API_KEY,
      MEDIA_SERVER_TIMEOUT_SECONDS: 12,
      MEDIA_SERVER_TIMEZONE: '',
      SCHEDULE_TIMEZONE: 'Europe/Paris',
    });
    await expect(readMediaServerConfig(settings)).resolves.toEqual({
      kind: 'jellyfin',
      url: 'http://jellyfin:8096',
      apiKey: API_KEY,
      timeoutSeconds: 12,
      timeZone: 'Europe/Paris',
    });
    settings.values['MEDIA_SERVER_TIMEZONE'] = 'Asia/Tokyo';
    settings.values['MEDIA_SERVER_KIND'] = 'emby';
    await expect(readMediaServerConfig(settings)).resolves.toMatchObject({
      kind: 'emby',
      timeZone: 'Asia/Tokyo',
    });
  });

  it('should reuse the adapter until a setting changes, then apply the edit', async () => {
    const { fake } = await boot('jellyfin12');
    const settings = settingsOf({
      MEDIA_SERVER_KIND: 'jellyfin',
      MEDIA_SERVER_URL: fake.url,
      MEDIA_SERVER_API_KEY: 'OldKey0123456789abcd',
      MEDIA_SERVER_TIMEOUT_SECONDS: 5,
      MEDIA_SERVER_TIMEZONE: 'UTC',
    });
    const factory = new MediaServerFactory(settings);
    const first = await factory.get();
    expect(await factory.get()).toBe(first);
    await expect(failure(first.listUsers())).resolves.toMatchObject({ kind: 'auth' });
    settings.values['MEDIA_SERVER_API_KEY'] = API_KEY;
    const edited = await factory.get();
    expect(edited).not.toBe(first);
    await expect(edited.listUsers()).resolves.toHaveLength(4);
  });

  it('should report missing settings on every call, not cache them', async () => {
    const factory = new MediaServerFactory(settingsOf({ MEDIA_SERVER_URL: 'http://x' }));
    await expect(failure(factory.get())).resolves.toMatchObject({ kind: 'not_configured' });
    await expect(failure(factory.get())).resolves.toMatchObject({ kind: 'not_configured' });
  });
});
