// Library reads (§1.4): counts, latest items, libraries, item pages, episodes and the TMDB
// lookup, with the guards of §8 risks 10 (virtual episodes) and 11 (provider-id filters).
import { failure, FLAVOURS, harness, MODES, sent } from './helpers.js';

describe('media-server adapters: items', () => {
  const boot = harness();

  it.each(MODES)('should count %s items, for everyone or for one user', async (mode) => {
    const { adapter, seeded, fake } = await boot(mode);
    await expect(adapter.itemCounts()).resolves.toEqual({ movies: 8, series: 2, episodes: 8 });
    const bob = seeded.users.bob?.id ?? '';
    await expect(adapter.itemCounts(bob)).resolves.toEqual({ movies: 8, series: 0, episodes: 0 });
    expect(fake.requests()[1]?.query).toEqual(mode === 'emby' ? { UserId: bob } : { userId: bob });
  });

  it.each(MODES)('should read the latest %s items for a user (bare array)', async (mode) => {
    const { adapter, seeded, fake } = await boot(mode);
    const alice = seeded.users.alice?.id ?? '';
    const items = await adapter.latestItems(alice, { types: ['Movie', 'Episode'], limit: 3 });
    expect(items.map((i) => i.name)).toEqual(['Dune: Part Two', 'Severance', 'Oppenheimer']);
    expect(items[0]).toMatchObject({
      id: seeded.movies.dune.id,
      type: 'Movie',
      year: 2024,
      tmdbId: '693134',
      providerIds: { Tmdb: '693134', Imdb: 'tt15239678' },
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/),
      overview: 'Dune: Part Two (seeded).',
      primaryImageTag: expect.any(String),
      virtual: false,
    });
    // The five Severance episodes on disk are grouped into their series.
    expect(items[1]).toMatchObject({ type: 'Series', childCount: 5 });
    const [req] = fake.requests();
    if (mode === 'emby') {
      expect(req?.path).toBe(`/emby/Users/${alice}/Items/Latest`);
      expect(req?.query).toEqual({
        Limit: '3',
        IncludeItemTypes: 'Movie,Episode',
        Fields: 'ProviderIds,DateCreated,Overview',
        GroupItems: 'true',
      });
    } else {
      expect(req?.path).toBe('/Items/Latest');
      expect(req?.query).toMatchObject({ userId: alice, limit: '3', groupItems: 'true' });
    }
  });

  it.each(MODES)("should read a %s user's resume points, newest first", async (mode) => {
    const { adapter, seeded, fake } = await boot(mode);
    const alice = seeded.users.alice?.id ?? '';
    const items = await adapter.resumeItems(alice, 10);
    expect(items.map((i) => i.name)).toEqual([
      'Dune: Part Two',
      seeded.series.severance.episodes[1]!.name,
    ]);
    expect(items[0]).toMatchObject({
      id: seeded.movies.dune.id,
      type: 'Movie',
      tmdbId: '693134',
      resume: {
        positionSeconds: 45 * 60,
        percent: expect.any(Number),
        lastPlayedAt: expect.stringMatching(/Z$/),
      },
    });
    expect(items[0]!.resume!.percent).toBeGreaterThan(0);
    expect(items[0]!.resume!.percent).toBeLessThan(100);
    // The episode's poster is its show's.
    expect(items[1]).toMatchObject({
      type: 'Episode',
      seriesName: 'Severance',
      season: 1,
      episode: 2,
      posterItemId: seeded.series.severance.series.id,
      resume: { positionSeconds: 20 * 60 },
    });
    const [req] = fake.requests();
    if (mode === 'emby') {
      expect(req?.path).toBe(`/emby/Users/${alice}/Items/Resume`);
      expect(req?.query).toEqual({
        Limit: '10',
        MediaTypes: 'Video',
        Fields: 'ProviderIds,DateCreated',
        EnableUserData: 'true',
      });
    } else {
      expect(req?.path).toBe('/UserItems/Resume');
      expect(req?.query).toMatchObject({ userId: alice, limit: '10', mediaTypes: 'Video' });
    }
    // A user who stopped nowhere has nothing to continue.
    await expect(adapter.resumeItems(seeded.users.carol?.id ?? '', 10)).resolves.toEqual([]);
  });

  it.each(MODES)('should list %s libraries with the id access lists need', async (mode) => {
    const { adapter, seeded, fake } = await boot(mode);
    const libs = await adapter.libraries();
    const { movies, collections, playlists } = seeded.libraries;
    expect(libs.find((l) => l.name === 'Movies')).toEqual({
      id: mode === 'emby' ? movies.guid : movies.id,
      itemId: movies.id,
      name: 'Movies',
      collectionType: 'movies',
      grantable: true,
    });
    const notGrantable = libs.filter((l) => !l.grantable).map((l) => l.itemId);
    expect(notGrantable).toEqual([collections.id, playlists.id]);
    expect(Object.values(fake.requests()[0]?.query ?? {})).toEqual(['false']);
  });

  it.each(MODES)('should page through a %s library with stream quality', async (mode) => {
    const { adapter, seeded, fake } = await boot(mode);
    const parentId = seeded.libraries.movies.id;
    const first = await adapter.items({ parentId, types: ['Movie'], limit: 5, streams: true });
    const second = await adapter.items({ parentId, types: ['Movie'], start: 5, streams: true });
    expect([first.total, first.start, first.items.length]).toEqual([8, 0, 5]);
    expect([second.total, second.start, second.items.length]).toEqual([8, 5, 3]);
    const blade = [...first.items, ...second.items].find((i) => i.name === 'Blade Runner 2049');
    expect(blade).toMatchObject({
      parentId,
      path: expect.stringContaining('Blade Runner 2049'),
      quality: { resolution: '1080p', codec: 'h264', hdr: 'sdr', width: 1920, height: 800 },
    });
    const q = fake.requests()[0]?.query ?? {};
    const fields = mode === 'emby' ? q['Fields'] : q['fields'];
    expect(fields).toBe('MediaStreams,MediaSources,ProviderIds,Path,ParentId,DateCreated');
    if (mode !== 'emby') expect(q['isMissing']).toBe('false');
  });

  it.each(FLAVOURS)('should look %s items up by id, 100 ids per call', async (mode) => {
    const { adapter, seeded, fake } = await boot(mode);
    const { dune, amelie } = seeded.movies;
    const filler = Array.from({ length: 120 }, (_, i) =>
      mode === 'emby' ? String(900_000 + i) : i.toString(16).padStart(32, 'f'),
    );
    const page = await adapter.items({ ids: [dune.id, ...filler, amelie.id] });
    expect(page.items.map((i) => i.name).sort()).toEqual(['Amélie', 'Dune: Part Two']);
    expect(page.items[0]?.quality).toBeUndefined();
    const counts = fake.requests().map((r) => String(Object.values(r.query)[0]).split(',').length);
    expect(counts).toEqual([100, 22]);
  });

  it.each(MODES)('should list real %s episodes only (risk 10)', async (mode) => {
    const { adapter, seeded, fake } = await boot(mode);
    const severance = seeded.series.severance.series.id;
    const eps = await adapter.episodes(severance, 1);
    expect(eps.map((e) => [e.season, e.episode, e.name])).toEqual([
      [1, 1, 'Good News About Hell'],
      [1, 2, 'Half Loop'],
      [1, 3, 'In Perpetuity'],
    ]);
    expect(eps[0]).toMatchObject({ seriesId: severance, seasonId: expect.any(String) });
    const q = fake.requests()[0]?.query;
    // Emby 4.8 documents no IsMissing on this route and lists no virtual episodes anyway.
    expect(q).toEqual(
      mode === 'emby'
        ? { Season: '1', Fields: 'ProviderIds,Path' }
        : { season: '1', isMissing: 'false', fields: 'ProviderIds,Path' },
    );
  });

  it('should keep multi-episode files and all seasons', async () => {
    const { adapter, seeded } = await boot('jellyfin12');
    const eps = await adapter.episodes(seeded.series.bear.series.id);
    expect(eps.map((e) => [e.episode, e.episodeEnd])).toEqual([
      [1, undefined],
      [2, undefined],
      [3, 4],
    ]);
    const all = await adapter.episodes(seeded.series.severance.series.id);
    expect(all.map((e) => e.season)).toEqual([1, 1, 1, 2, 2]);
  });

  it.each(FLAVOURS)('should report an unknown %s series as not_found', async (mode) => {
    const { adapter } = await boot(mode);
    const id = mode === 'emby' ? '999999' : '0123456789abcdef0123456789abcdef';
    await expect(failure(adapter.episodes(id))).resolves.toMatchObject({ kind: 'not_found' });
  });

  it.each(FLAVOURS)(
    'should fetch a %s poster, and answer null for an unknown item or one without an image',
    async (mode) => {
      const { adapter, seeded, fake } = await boot(mode);
      const dune = seeded.movies.dune.id;
      const image = await adapter.primaryImage(dune, 300.4);
      // A JPEG, as the servers send posters that came from TMDB.
      expect(image?.contentType).toBe('image/jpeg');
      expect([...image!.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      const [req] = fake.requests();
      expect(req?.path).toBe(`${mode === 'emby' ? '/emby' : ''}/Items/${dune}/Images/Primary`);
      expect(req?.query).toEqual(
        mode === 'emby' ? { MaxWidth: '300', Quality: '90' } : { maxWidth: '300', quality: '90' },
      );
      // Emby's item ids are numbers, Jellyfin's 32 hex digits: an id of the right shape that the
      // server does not know is "no poster", not an error — as is Casablanca, which has none.
      const unknown = mode === 'emby' ? '999999' : 'f'.repeat(32);
      await expect(adapter.primaryImage(unknown, 300)).resolves.toBeNull();
      await expect(adapter.primaryImage(seeded.movies.casablanca.id, 300)).resolves.toBeNull();
      expect(fake.requests().map((r) => r.status)).toEqual([200, 404, 404]);
    },
  );

  it('should find an Emby item with AnyProviderIdEquals', async () => {
    const { adapter, seeded, fake } = await boot('emby');
    const hit = await adapter.findByTmdbId(95396, 'Series');
    expect(hit).toMatchObject({ id: seeded.series.severance.series.id, tmdbId: '95396' });
    expect(fake.requests()[0]?.query).toEqual({
      Recursive: 'true',
      IncludeItemTypes: 'Series',
      AnyProviderIdEquals: 'tmdb.95396',
      Fields: 'ProviderIds',
    });
    await expect(adapter.findByTmdbId(1, 'Movie')).resolves.toBeNull();
  });

  it.each(MODES)('should say which of a page of TMDB ids %s holds, in one call', async (mode) => {
    const { adapter, fake } = await boot(mode);
    // Dune: Part Two and Oppenheimer are seeded; 1 is nobody; Severance is a series, not a movie.
    const found = await adapter.tmdbIdsInLibrary([693134, 1, 872585, 95396], 'Movie');
    expect([...found].sort()).toEqual([693134, 872585]);
    expect(await adapter.tmdbIdsInLibrary([95396], 'Series')).toEqual(new Set([95396]));
    await expect(adapter.tmdbIdsInLibrary([], 'Movie')).resolves.toEqual(new Set());
    if (mode === 'emby') {
      expect(fake.requests()[0]?.query).toMatchObject({
        AnyProviderIdEquals: 'tmdb.693134,tmdb.1,tmdb.872585,tmdb.95396',
      });
    }
  });

  it.each(MODES)('should find %s items for a batch of TMDB ids, fresh on demand', async (mode) => {
    const { adapter, seeded, fake } = await boot(mode);
    const found = await adapter.findManyByTmdbIds([693134, 1, 872585], 'Movie');
    expect([...found.keys()].sort()).toEqual([693134, 872585]);
    expect(found.get(872585)?.id).toBe(seeded.movies.oppenheimer.id);
    await expect(adapter.findManyByTmdbIds([], 'Series')).resolves.toEqual(new Map());
    const calls = sent(fake).length;
    // Asked again: Emby asks the server each time; Jellyfin answers from its map unless `fresh`.
    await adapter.findManyByTmdbIds([872585], 'Movie');
    expect(sent(fake).length - calls).toBe(mode === 'emby' ? 1 : 0);
    await adapter.findManyByTmdbIds([872585], 'Movie', { fresh: true });
    expect(sent(fake).length - calls).toBe(mode === 'emby' ? 2 : 1);
  });

  it('should match TMDB ids itself when the server ignores the filter (risk 11)', async () => {
    // Jellyfin 10.11 still answers /emby paths and ignores the filter: it returns everything.
    const { adapterWith, seeded, fake } = await boot('jellyfin10');
    const emby = adapterWith({ kind: 'emby' });
    await expect(emby.findByTmdbId(872585, 'Movie')).resolves.toMatchObject({
      id: seeded.movies.oppenheimer.id,
    });
    await expect(emby.findByTmdbId(1, 'Movie')).resolves.toBeNull();
    expect(fake.requests().every((r) => r.path === '/emby/Items' && r.status === 200)).toBe(true);
  });

  it.each(['jellyfin10', 'jellyfin12'] as const)(
    'should find a %s item by title search first',
    async (mode) => {
      const { adapter, seeded, fake } = await boot(mode);
      const hit = await adapter.findByTmdbId(335984, 'Movie', 'Blade Runner');
      expect(hit?.id).toBe(seeded.movies.bladeRunner.id);
      expect(fake.requests().map((r) => r.query)).toEqual([
        {
          recursive: 'true',
          includeItemTypes: 'Movie',
          hasTmdbId: 'true',
          fields: 'ProviderIds',
          searchTerm: 'Blade Runner',
        },
      ]);
    },
  );

  it('should fall back to a cached Jellyfin tmdb map when the title does not match', async () => {
    const { adapter, seeded, fake } = await boot('jellyfin12');
    // The server knows it as "Amélie": a search without the accent finds nothing.
    const amelie = await adapter.findByTmdbId(194, 'Movie', 'Amelie');
    expect(amelie?.id).toBe(seeded.movies.amelie.id);
    expect(fake.requests()[1]?.query).toMatchObject({ startIndex: '0', limit: '500' });
    fake.clearRequests();
    await expect(adapter.findByTmdbId(289, 'Movie')).resolves.toMatchObject({ name: 'Casablanca' });
    await expect(adapter.findByTmdbId(12345, 'Movie')).resolves.toBeNull();
    // Both answered from the map built a moment ago: no further calls.
    expect(sent(fake)).toEqual([]);
    await expect(adapter.findByTmdbId(136315, 'Series')).resolves.toMatchObject({
      name: 'The Bear',
    });
    expect(sent(fake)).toEqual(['GET /Items']);
  });

  it('should page the Jellyfin tmdb map 500 at a time', async () => {
    const { adapter, fake } = await boot('jellyfin12');
    const lib = [...fake.state.libraries.values()].find((l) => l.collectionType === 'movies');
    for (let i = 0; i < 520; i++) {
      const id = (0xf00000 + i).toString(16).padStart(32, '0');
      fake.state.items.set(id, {
        id,
        type: 'Movie',
        name: `Filler ${String(i).padStart(3, '0')}`,
        libraryId: lib?.id ?? '',
        parentId: lib?.id ?? '',
        dateCreated: new Date(),
        providerIds: { Tmdb: String(5_000_000 + i) },
        locationType: 'FileSystem',
        hasPrimaryImage: false,
      });
    }
    const hit = await adapter.findByTmdbId(5_000_519, 'Movie');
    expect(hit?.name).toBe('Filler 519');
    expect(fake.requests().map((r) => r.query['startIndex'])).toEqual(['0', '500']);
  });
});
