// The official @jellyfin/sdk as a second, independent client of the Jellyfin flavour: where the
// SDK and the fake disagree on paths, parameter spelling, auth headers or shapes, the fake is
// wrong (Usher's own adapter is the first client and could share the fake's mistakes).
import { Jellyfin } from '@jellyfin/sdk';
import type { Api } from '@jellyfin/sdk';
import { getAuthenticationApi } from '@jellyfin/sdk/lib/utils/api/authentication-api.js';
import { getDeviceApi } from '@jellyfin/sdk/lib/utils/api/device-api.js';
import { getLibraryApi } from '@jellyfin/sdk/lib/utils/api/library-api.js';
import { getSessionApi } from '@jellyfin/sdk/lib/utils/api/session-api.js';
import { getShowApi } from '@jellyfin/sdk/lib/utils/api/show-api.js';
import { getSystemApi } from '@jellyfin/sdk/lib/utils/api/system-api.js';
import { getUserApi } from '@jellyfin/sdk/lib/utils/api/user-api.js';
import { BaseItemKind, ItemFields } from '@jellyfin/sdk/lib/generated-client/models/index.js';
import { isAxiosError } from 'axios';

import { startFakeMediaServer } from '../../src/media-server/index.js';
import type { FakeMediaServer, SeededMediaLibrary } from '../../src/index.js';

const API_KEY = '5d1c2b3a49f0a1b2c3d4e5f607182930';
const NOW = new Date('2025-06-01T20:00:00Z');

const jellyfin = new Jellyfin({
  clientInfo: { name: 'Usher SDK test', version: '1.0.0' },
  deviceInfo: { name: 'jest', id: 'usher-sdk-test-device' },
});

// 12.0 (legacy auth off) and 10.11 (the oldest line the SDK supports, legacy auth on).
describe.each(['12.0.0', '10.11.5'])(
  'media-server fake %s: @jellyfin/sdk as a client',
  (version) => {
    let fake: FakeMediaServer;
    let seeded: SeededMediaLibrary;
    let admin: Api;

    beforeAll(async () => {
      fake = await startFakeMediaServer({
        flavour: 'jellyfin',
        apiKey: API_KEY,
        version,
        now: () => NOW,
        seed: { now: NOW },
      });
      seeded = fake.seeded!;
      admin = jellyfin.createApi(fake.url, API_KEY);
    });
    afterAll(() => fake.close());

    it('should read the public and the full system info', async () => {
      const anonymous = jellyfin.createApi(fake.url);
      const pub = (await getSystemApi(anonymous).getPublicSystemInfo()).data;
      expect(pub).toMatchObject({ ProductName: 'Jellyfin Server', Version: version });
      expect(pub.Id).toBe(fake.state.serverId);
      const full = (await getSystemApi(admin).getSystemInfo()).data;
      expect(full.Id).toBe(pub.Id);
      expect(full.ServerName).toBe(pub.ServerName);
    });

    it('should refuse a wrong token with 401', async () => {
      const wrong = jellyfin.createApi(fake.url, 'not-the-key');
      const failure: unknown = await getUserApi(wrong)
        .getUsers()
        .catch((err: unknown) => err);
      expect(isAxiosError(failure) && failure.response?.status).toBe(401);
    });

    it('should list users with their policies and log one in by name', async () => {
      const users = (await getUserApi(admin).getUsers()).data;
      expect(users.map((u) => u.Name).sort()).toEqual(['admin', 'alice', 'bob', 'carol']);
      const carol = users.find((u) => u.Name === 'carol');
      expect(carol?.Policy?.IsDisabled).toBe(true);

      const anonymous = jellyfin.createApi(fake.url);
      const auth = await getAuthenticationApi(anonymous).authenticateUserByName({
        authenticateUserByName: { Username: 'alice', Pw: 'alice-pass' },
      });
      expect(auth.data.User?.Id).toBe(seeded.users.alice!.id);
      expect(auth.data.AccessToken).toMatch(/^[0-9a-f]{32}$/);
      const me = jellyfin.createApi(fake.url, auth.data.AccessToken!);
      const current = (await getUserApi(me).getCurrentUser()).data;
      expect(current.Name).toBe('alice');
    });

    it('should list the media folders with their collection types', async () => {
      const folders = (await getLibraryApi(admin).getMediaFolders()).data;
      const byName = Object.fromEntries((folders.Items ?? []).map((f) => [f.Name, f]));
      expect(byName['Movies']?.CollectionType).toBe('movies');
      expect(byName['TV Shows']?.CollectionType).toBe('tvshows');
      expect(byName['Movies']?.Id).toBe(seeded.libraries.movies.id);
    });

    it('should query movies with provider ids and streams, paged, for a user', async () => {
      const library = getLibraryApi(admin);
      const page = await library.getItems({
        userId: seeded.users.alice!.id,
        recursive: true,
        includeItemTypes: [BaseItemKind.Movie],
        fields: [ItemFields.ProviderIds, ItemFields.MediaStreams],
        sortBy: ['SortName'],
        startIndex: 0,
        limit: 3,
      });
      expect(page.data.TotalRecordCount).toBe(Object.keys(seeded.movies).length);
      expect(page.data.Items).toHaveLength(3);
      const all = await library.getItems({
        recursive: true,
        includeItemTypes: [BaseItemKind.Movie],
        fields: [ItemFields.ProviderIds, ItemFields.MediaStreams],
      });
      const dune = all.data.Items?.find((i) => i.Id === seeded.movies.dune.id);
      expect(dune?.ProviderIds?.['Tmdb']).toBe('693134');
      const video = dune?.MediaStreams?.find((s) => s.Type === 'Video');
      expect(video).toMatchObject({ Width: 3840, Codec: 'hevc' });
      expect(video?.VideoRangeType).toMatch(/^DOVI/);
    });

    it("should hide a library outside the user's policy", async () => {
      const bobs = await getLibraryApi(admin).getItems({
        userId: seeded.users.bob!.id,
        recursive: true,
        includeItemTypes: [BaseItemKind.Series, BaseItemKind.Movie],
      });
      const types = new Set(bobs.data.Items?.map((i) => i.Type));
      expect(types.has('Movie')).toBe(true);
      expect(types.has('Series')).toBe(false);
    });

    it('should list episodes with and without the missing ones', async () => {
      const severance = seeded.series.severance;
      const shows = getShowApi(admin);
      const onDisk = (await shows.getEpisodes({ seriesId: severance.series.id, isMissing: false }))
        .data.Items;
      const every = (await shows.getEpisodes({ seriesId: severance.series.id })).data.Items;
      const virtual = severance.episodes.filter((e) => e.locationType === 'Virtual').length;
      expect(onDisk?.every((e) => e.LocationType === 'FileSystem')).toBe(true);
      expect(every?.length).toBe((onDisk?.length ?? 0) + virtual);
      const seasonTwo = (await shows.getEpisodes({ seriesId: severance.series.id, season: 2 }))
        .data;
      expect(seasonTwo.Items?.every((e) => e.ParentIndexNumber === 2)).toBe(true);
    });

    it('should count items and list the latest ones', async () => {
      const library = getLibraryApi(admin);
      const counts = (await library.getItemCounts()).data;
      expect(counts.MovieCount).toBe(Object.keys(seeded.movies).length);
      expect(counts.SeriesCount).toBe(2);
      const latest = await library.getLatestMedia({
        userId: seeded.users.alice!.id,
        includeItemTypes: [BaseItemKind.Movie],
        limit: 2,
      });
      expect(latest.data.map((i) => i.Id)).toEqual([
        seeded.movies.dune.id,
        seeded.movies.oppenheimer.id,
      ]);
    });

    it('should list active sessions and devices', async () => {
      const sessions = (await getSessionApi(admin).getSessions({ activeWithinSeconds: 960 })).data;
      const ids = sessions.map((s) => s.DeviceId);
      expect(ids).toEqual(expect.arrayContaining(['alice-firefox', 'bob-appletv']));
      expect(ids).not.toContain('alice-kodi');
      const playing = sessions.find((s) => s.DeviceId === 'alice-firefox');
      expect(playing?.NowPlayingItem?.Id).toBe(seeded.movies.dune.id);
      expect(playing?.PlayState?.PlayMethod).toBe('DirectPlay');
      const devices = (await getDeviceApi(admin).getDevices()).data;
      expect(devices.Items?.map((d) => d.Id)).toContain('bob-iphone');
    });

    it('should create a user, replace its policy and delete it', async () => {
      const users = getUserApi(admin);
      const created = (await users.createUserByName({ createUserByName: { Name: 'dave' } })).data;
      expect(created.Name).toBe('dave');
      const policy = created.Policy!;
      await users.updateUserPolicy({
        userId: created.Id!,
        userPolicy: {
          ...policy,
          EnableAllFolders: false,
          EnabledFolders: [seeded.libraries.movies.id],
        },
      });
      const reread = (await users.getUserById({ userId: created.Id! })).data;
      expect(reread.Policy?.EnabledFolders).toEqual([seeded.libraries.movies.id]);
      await users.deleteUser({ userId: created.Id! });
      const gone: unknown = await users
        .getUserById({ userId: created.Id! })
        .catch((e: unknown) => e);
      expect(isAxiosError(gone) && gone.response?.status).toBe(404);
    });
  },
);
