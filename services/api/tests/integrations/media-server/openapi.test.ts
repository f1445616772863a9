// Every request the adapters send must exist in the official OpenAPI description of its server:
// path, method, query parameter names (exact spelling) and JSON body fields. Skips, saying so in
// its title, when shared/data is not beside the repository.
import type { FakeMediaServer } from '@usher/testkit';
import { MEDIA_SEED_PASSWORDS } from '@usher/testkit';
import type { MediaServer } from '../../../src/integrations/media-server/port.js';
import { harness, type Mode } from './helpers.js';
import { OpenApi, openApiFile } from './openapi.js';

const FILES = {
  emby: 'emby-openapi-4.8.11.json',
  jellyfin12: 'jellyfin-openapi-12.0.0.json',
} as const;

/** Documented by the plugin, not by either server (shared/data/README.md). */
const PLUGIN_PATH = '/user_usage_stats/submit_custom_query';

/** Calls every port operation once, plus the fallbacks a healthy server reaches. */
async function exercise(adapter: MediaServer, fake: FakeMediaServer): Promise<void> {
  const seeded = fake.seeded;
  if (!seeded) throw new Error('needs the seeded library');
  const alice = seeded.users.alice?.id ?? '';
  await adapter.probe();
  await adapter.authenticate('alice', MEDIA_SEED_PASSWORDS.alice, { deviceId: 'usher-1' });
  const dave = await adapter.createUser('dave', 'dave-pass');
  await adapter.setPassword(dave.id, 'other-pass');
  await adapter.getUser(dave.id);
  const libs = await adapter.libraries();
  await adapter.updatePolicy(dave.id, { allLibraries: false, libraryIds: [libs[0]?.id ?? ''] });
  await adapter.deleteUser(dave.id);
  await adapter.listUsers();
  const sessions = await adapter.listSessions();
  const playing = sessions.find((s) => s.nowPlaying) ?? sessions[0];
  await adapter.sendSessionMessage(playing?.id ?? '', {
    header: 'Usher',
    text: 'Hi',
    timeoutMs: 5000,
  });
  await adapter.stopPlayback(playing?.id ?? '');
  const devices = await adapter.listDevices(alice);
  await adapter.logoutDevice(devices[0]?.key ?? '');
  await adapter.logoutDevice('no-such-device');
  await adapter.itemCounts(alice);
  await adapter.latestItems(alice, { types: ['Movie', 'Episode'], limit: 5 });
  await adapter.resumeItems(alice, 5);
  await adapter.items({ ids: [seeded.movies.dune.id], streams: true });
  await adapter.items({ parentId: seeded.libraries.movies.id, types: ['Movie'], limit: 2 });
  await adapter.episodes(seeded.series.severance.series.id, 1);
  await adapter.findByTmdbId(693134, 'Movie', 'Dune');
  await adapter.findByTmdbId(1, 'Movie', 'Nothing');
  await adapter.playbackQuery('SELECT COUNT(*) FROM PlaybackActivity');
}

describe.each(Object.entries(FILES) as [keyof typeof FILES, string][])(
  'media-server adapters against the official OpenAPI (%s)',
  (mode, name) => {
    const file = openApiFile(name);
    const boot = harness();
    const skipped = file ? undefined : `skipped: ../shared/data/${name} not found beside the repo`;
    (file ? it : it.skip)(
      skipped ?? 'should only send documented paths, methods, parameters and body fields',
      async () => {
        const spec = new OpenApi(file ?? '');
        const { adapter, fake } = await boot(mode as Mode);
        await exercise(adapter, fake);
        const requests = fake.requests().filter((r) => !r.path.endsWith(PLUGIN_PATH));
        expect(requests.length).toBeGreaterThan(20);
        const problems = requests.flatMap((r) =>
          spec.problems({
            method: r.method,
            path: mode === 'emby' ? r.path.replace(/^\/emby(?=\/)/, '') : r.path,
            query: r.query,
            body: r.body,
          }),
        );
        expect([...new Set(problems)]).toEqual([]);
        // Every port operation reached the server (the plugin call is checked elsewhere).
        expect(fake.requests().some((r) => r.path.endsWith(PLUGIN_PATH))).toBe(true);
      },
    );

    (file ? it : it.skip)(
      skipped ? `${skipped} (checker self-test)` : 'should flag what is not documented',
      () => {
        const spec = new OpenApi(file ?? '');
        const req = (method: string, path: string, query = {}, body?: unknown) =>
          spec.problems({ method, path, query, body });
        expect(req('GET', '/Sessions', { api_key: 'x' })).toHaveLength(1);
        expect(req('PUT', '/Sessions')).toEqual(['PUT /Sessions: no such path and method']);
        expect(req('GET', '/emby/Users/Query')).toHaveLength(1);
        if (mode === 'emby') {
          // Emby's create call has no password member (§8 risk 3).
          expect(req('POST', '/Users/New', {}, { Name: 'x', Password: 'y' })).toEqual([
            'POST /Users/New: body field Password is not documented',
          ]);
          expect(req('GET', '/Shows/1/Episodes', { IsMissing: 'false' })).toHaveLength(1);
        } else {
          expect(req('GET', '/Items', { Recursive: 'true' })).toHaveLength(1);
          expect(req('POST', '/Users/abc/Password')).toHaveLength(1);
        }
      },
    );
  },
);
