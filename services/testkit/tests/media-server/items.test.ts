import type { FakeMediaServer } from '../../src/media-server/index.js';
import { dashed } from '../../src/media-server/index.js';
import { adminGet, adminHeaders, call, start } from './helpers.js';

type Dto = Record<string, unknown>;
interface Page {
  Items: Dto[];
  TotalRecordCount: number;
  StartIndex?: number;
}

const STREAM_FIELDS = 'Fields=MediaStreams,MediaSources,ProviderIds,Path,ParentId,DateCreated';

function videoOf(item: Dto): Dto {
  const streams = item['MediaStreams'] as Dto[];
  return streams.find((s) => s['Type'] === 'Video') as Dto;
}

describe('media-server fake: libraries and items (§1.4, §1.6)', () => {
  let emby: FakeMediaServer;
  let jf: FakeMediaServer;
  beforeAll(async () => {
    emby = await start('emby');
    jf = await start('jellyfin');
  });
  afterAll(async () => {
    await Promise.all([emby.close(), jf.close()]);
  });

  it('should list media folders: Emby numeric Id + Guid, Jellyfin 32-hex Id', async () => {
    const e = await adminGet<Page>(emby, '/Library/MediaFolders?IsHidden=false');
    expect(e.Items.map((l) => l['CollectionType'])).toEqual([
      'movies',
      'tvshows',
      'boxsets',
      'playlists',
    ]);
    expect(e.Items[0]).toMatchObject({
      Type: 'CollectionFolder',
      Id: expect.stringMatching(/^\d+$/),
    });
    expect(e.Items[0]?.['Guid']).toMatch(/^[0-9a-f]{32}$/);
    const j = await adminGet<Page>(jf, '/Library/MediaFolders?isHidden=false');
    expect(j.Items[0]?.['Id']).toMatch(/^[0-9a-f]{32}$/);
    expect(j.Items[0]).not.toHaveProperty('Guid');
  });

  it('should page recursively under a library with TotalRecordCount', async () => {
    for (const s of [emby, jf]) {
      const lib = s.seeded?.libraries.movies.id;
      const q = `/Items?ParentId=${lib}&Recursive=true&IncludeItemTypes=Movie,Episode`;
      const first = await adminGet<Page>(s, `${q}&StartIndex=0&Limit=3&${STREAM_FIELDS}`);
      expect(first.TotalRecordCount).toBe(8);
      expect(first.Items).toHaveLength(3);
      const rest = await adminGet<Page>(s, `${q}&StartIndex=3&Limit=200`);
      expect(rest.Items).toHaveLength(5);
      if (s === jf) expect(rest.StartIndex).toBe(3);
      else expect(rest).not.toHaveProperty('StartIndex');
    }
  });

  it('should use numeric Emby item ids, 32-hex Jellyfin ids, and accept dashed ids', async () => {
    const dune = jf.seeded?.movies.dune.id ?? '';
    const j = await adminGet<Page>(jf, `/Items?Ids=${dashed(dune)},${jf.seeded?.movies.amelie.id}`);
    expect(j.Items.map((i) => i['Id']).sort()).toEqual([dune, jf.seeded?.movies.amelie.id].sort());
    const e = await adminGet<Page>(emby, `/Items?Ids=${emby.seeded?.movies.dune.id}`);
    expect(e.Items[0]?.['Id']).toMatch(/^\d+$/);
    const bad = await call(jf, 'GET', '/Items?Ids=1234', { headers: adminHeaders(jf) });
    expect(bad.status).toBe(400);
  });

  it('should include optional members only when Fields asks for them', async () => {
    const id = jf.seeded?.movies.dune.id;
    const bare = (await adminGet<Page>(jf, `/Items?Ids=${id}`)).Items[0] as Dto;
    expect(bare).not.toHaveProperty('ProviderIds');
    expect(bare).not.toHaveProperty('MediaStreams');
    expect(bare).not.toHaveProperty('DateCreated');
    const full = (await adminGet<Page>(jf, `/Items?Ids=${id}&${STREAM_FIELDS}`)).Items[0] as Dto;
    expect(full['ProviderIds']).toEqual({ Tmdb: '693134', Imdb: 'tt15239678' });
    expect(full).toHaveProperty('DateCreated');
    expect((full['MediaSources'] as Dto[])[0]?.['MediaStreams']).toHaveLength(2);
  });

  it('should report HDR as VideoRangeType on Jellyfin and ExtendedVideoType on Emby', async () => {
    const expected: [string, string, string, number][] = [
      ['dune', 'DOVIWithHDR10', 'DolbyVision', 3840],
      ['oppenheimer', 'HDR10', 'Hdr10', 3840],
      ['madMax', 'HDR10Plus', 'Hdr10Plus', 3840],
      ['bladeRunner', 'SDR', 'None', 1920],
      ['amelie', 'SDR', 'None', 1280],
      ['casablanca', 'SDR', 'None', 720],
    ];
    for (const [key, rangeType, extended, width] of expected) {
      const k = key as keyof NonNullable<FakeMediaServer['seeded']>['movies'];
      const jv = videoOf(
        (await adminGet<Page>(jf, `/Items?Ids=${jf.seeded?.movies[k].id}&${STREAM_FIELDS}`))
          .Items[0] as Dto,
      );
      expect(jv).toMatchObject({ VideoRangeType: rangeType, Width: width });
      expect(jv).not.toHaveProperty('ExtendedVideoType');
      const ev = videoOf(
        (await adminGet<Page>(emby, `/Items?Ids=${emby.seeded?.movies[k].id}&${STREAM_FIELDS}`))
          .Items[0] as Dto,
      );
      expect(ev).toMatchObject({ ExtendedVideoType: extended, Width: width });
      expect(ev).not.toHaveProperty('VideoRangeType');
    }
    const blade = (
      await adminGet<Page>(jf, `/Items?Ids=${jf.seeded?.movies.bladeRunner.id}&${STREAM_FIELDS}`)
    ).Items[0] as Dto;
    expect(videoOf(blade)).toMatchObject({ Width: 1920, Height: 800, Codec: 'h264' });
    const codecs = new Set<unknown>();
    const all = await adminGet<Page>(
      jf,
      `/Items?Recursive=true&IncludeItemTypes=Movie,Episode&${STREAM_FIELDS}`,
    );
    for (const item of all.Items) codecs.add(videoOf(item)['Codec']);
    expect([...codecs].sort()).toEqual(['av1', 'h264', 'hevc', 'mpeg2video']);
  });

  it('should filter by AnyProviderIdEquals on Emby and ignore it on Jellyfin', async () => {
    const q =
      '/Items?Recursive=true&IncludeItemTypes=Movie&Fields=ProviderIds' +
      '&AnyProviderIdEquals=tmdb.693134';
    const e = await adminGet<Page>(emby, q);
    expect(e.Items.map((i) => i['Name'])).toEqual(['Dune: Part Two']);
    const j = await adminGet<Page>(jf, q);
    expect(j.TotalRecordCount).toBe(8);
  });

  it('should support HasTmdbId and SearchTerm on Jellyfin', async () => {
    const j = await adminGet<Page>(
      jf,
      '/Items?Recursive=true&IncludeItemTypes=Movie&Fields=ProviderIds' +
        '&HasTmdbId=true&SearchTerm=dune',
    );
    expect(j.Items.map((i) => (i['ProviderIds'] as Dto)['Tmdb'])).toEqual(['693134']);
    const noTmdb = await adminGet<Page>(
      jf,
      '/Items?Recursive=true&IncludeItemTypes=Movie&HasTmdbId=false',
    );
    expect(noTmdb.Items.map((i) => i['Name'])).toEqual(['Summer Holiday 2019']);
  });

  it('should list virtual episodes to a Jellyfin key unless IsMissing=false', async () => {
    const sev = jf.seeded?.series.severance.series.id;
    const withMissing = await adminGet<Page>(
      jf,
      `/Shows/${sev}/Episodes?Season=1&Fields=ProviderIds,Path`,
    );
    expect(withMissing.TotalRecordCount).toBe(9);
    expect(withMissing.Items.filter((e) => e['LocationType'] === 'Virtual')).toHaveLength(6);
    const onDisk = await adminGet<Page>(
      jf,
      `/Shows/${sev}/Episodes?Season=1&IsMissing=false&Fields=ProviderIds,Path`,
    );
    expect(onDisk.Items.map((e) => e['IndexNumber'])).toEqual([1, 2, 3]);
    expect(onDisk.Items[0]).toMatchObject({
      ParentIndexNumber: 1,
      LocationType: 'FileSystem',
      SeasonId: expect.any(String),
    });
  });

  it('should hide virtual episodes on Emby and give IndexNumberEnd (multi-episode)', async () => {
    const bear = emby.seeded?.series.bear.series.id;
    const eps = await adminGet<Page>(
      emby,
      `/Shows/${bear}/Episodes?Season=1&IsMissing=false&Fields=ProviderIds,Path`,
    );
    expect(eps.Items.map((e) => [e['IndexNumber'], e['IndexNumberEnd']])).toEqual([
      [1, undefined],
      [2, undefined],
      [3, 4],
    ]);
    const all = await adminGet<Page>(emby, `/Shows/${bear}/Episodes`);
    expect(all.TotalRecordCount).toBe(3);
    expect(
      (await call(emby, 'GET', '/Shows/999999/Episodes', { headers: adminHeaders(emby) })).status,
    ).toBe(404);
  });

  it('should give the latest items as a bare array, grouping new episodes by series', async () => {
    const uid = emby.seeded?.users.alice?.id;
    const q =
      'Limit=5&IncludeItemTypes=Movie,Episode&GroupItems=true' +
      '&Fields=ProviderIds,DateCreated,Overview';
    const e = await adminGet<Dto[]>(emby, `/Users/${uid}/Items/Latest?${q}`);
    expect(Array.isArray(e)).toBe(true);
    expect(e.map((i) => i['Name'])).toEqual([
      'Dune: Part Two',
      'Severance',
      'Oppenheimer',
      'The Bear',
      'Mad Max: Fury Road',
    ]);
    // Severance has five episodes on disk, two of them new; all five fall in the window.
    expect(e[1]).toMatchObject({ Type: 'Series', ChildCount: 5 });
    const j = await adminGet<Dto[]>(jf, `/Items/Latest?userId=${jf.seeded?.users.alice?.id}&${q}`);
    expect(j.map((i) => i['Name'])).toEqual(e.map((i) => i['Name']));
    expect(j[0]).toHaveProperty('DateCreated');
    expect(
      (await call(jf, 'GET', `/Items/Latest?${q}`, { headers: adminHeaders(jf) })).status,
    ).toBe(404);
  });

  it("should list a user's resume points, most recent first, with UserData, on both servers", async () => {
    for (const s of [emby, jf]) {
      const alice = s.seeded!.users.alice!.id;
      const q = 'Limit=10&MediaTypes=Video&Fields=ProviderIds,DateCreated&EnableUserData=true';
      const path =
        s === emby ? `/Users/${alice}/Items/Resume?${q}` : `/UserItems/Resume?userId=${alice}&${q}`;
      const reply = await adminGet<Page>(s, path);
      expect(reply.TotalRecordCount).toBe(2);
      expect(reply.Items.map((i) => i['Name'])).toEqual([
        'Dune: Part Two',
        s.seeded!.series.severance.episodes[1]!.name,
      ]);
      const data = reply.Items[0]!['UserData'] as Dto;
      expect(data).toMatchObject({
        PlaybackPositionTicks: 45 * 60 * 10_000_000,
        Played: false,
        PlayedPercentage: expect.any(Number),
        LastPlayedDate: expect.stringMatching(/Z$/),
      });
      expect(reply.Items[1]).toMatchObject({ Type: 'Episode', SeriesName: 'Severance' });
      // Paging, and another user's positions stay theirs.
      const second = await adminGet<Page>(s, path.replace('Limit=10', 'Limit=1&StartIndex=1'));
      expect(second.Items.map((i) => i['Name'])).toEqual([reply.Items[1]!['Name']]);
      const carol = s.seeded!.users.carol!.id;
      const none = await adminGet<Page>(
        s,
        s === emby ? `/Users/${carol}/Items/Resume` : `/UserItems/Resume?userId=${carol}`,
      );
      expect(none).toMatchObject({ Items: [], TotalRecordCount: 0 });
    }
    // Jellyfin's route is /UserItems/Resume only; Emby has no such path.
    expect(
      (await call(emby, 'GET', '/UserItems/Resume', { headers: adminHeaders(emby) })).status,
    ).toBe(404);
  });

  it('should restrict latest items and counts to the libraries a user may see', async () => {
    for (const s of [emby, jf]) {
      const bob = s.seeded?.users.bob?.id;
      const path =
        s === emby ? `/Users/${bob}/Items/Latest?Limit=50` : `/Items/Latest?userId=${bob}&Limit=50`;
      const latest = await adminGet<Dto[]>(s, path);
      expect(latest.every((i) => i['Type'] === 'Movie')).toBe(true);
      const counts = await adminGet<Dto>(s, `/Items/Counts?UserId=${bob}`);
      expect(counts).toMatchObject({ MovieCount: 8, SeriesCount: 0, EpisodeCount: 0 });
      const all = await adminGet<Dto>(s, '/Items/Counts');
      expect(all).toMatchObject({ MovieCount: 8, SeriesCount: 2, EpisodeCount: 8 });
    }
  });

  it("should tag images like the servers: own Primary in ImageTags, the show's on its episodes", async () => {
    for (const s of [emby, jf]) {
      const { movies, series } = s.seeded!;
      const ids = [
        movies.dune.id,
        movies.casablanca.id,
        series.severance.series.id,
        series.severance.seasons[0]!.id,
        series.severance.episodes[0]!.id,
      ];
      const page = await adminGet<Page>(s, `/Items?Ids=${ids.join(',')}&Recursive=true`);
      const byId = new Map(page.Items.map((i) => [i['Id'], i]));
      const dto = (n: number) => byId.get(ids[n]) as Dto;
      const [dune, casablanca, show, season, episode] = [dto(0), dto(1), dto(2), dto(3), dto(4)];
      const showTag = (show['ImageTags'] as Dto)['Primary'];
      expect(showTag).toEqual(expect.any(String));
      expect((dune['ImageTags'] as Dto)['Primary']).toEqual(expect.any(String));
      expect(casablanca['ImageTags']).toEqual({});
      expect(episode).toMatchObject({ SeriesId: show['Id'], SeriesPrimaryImageTag: showTag });
      expect((episode['ImageTags'] as Dto)['Primary']).not.toBe(showTag);
      expect(season).toMatchObject({ SeriesPrimaryImageTag: showTag });
      for (const own of [dune, casablanca, show]) {
        expect(own).not.toHaveProperty('SeriesPrimaryImageTag');
      }
      // A show without a poster gives its episodes no tag.
      s.state.items.get(series.severance.series.id)!.hasPrimaryImage = false;
      try {
        const bare = await adminGet<Page>(s, `/Items?Ids=${ids[4]}&Recursive=true`);
        expect(bare.Items[0]).not.toHaveProperty('SeriesPrimaryImageTag');
      } finally {
        s.state.items.get(series.severance.series.id)!.hasPrimaryImage = true;
      }
    }
  });

  it('should serve real posters anonymously (JPEG, PNG on request) and 404 when an item has none', async () => {
    for (const s of [emby, jf]) {
      const dune = s.seeded?.movies.dune.id;
      const base = s === emby ? `${s.url}/emby` : s.url;
      const res = await fetch(`${base}/Items/${dune}/Images/Primary?maxWidth=300`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      const jpeg = Buffer.from(await res.arrayBuffer());
      expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      const png = await fetch(`${base}/Items/${dune}/Images/Primary?maxWidth=300&format=png`);
      expect(png.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await png.arrayBuffer()).subarray(0, 8)).toEqual(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      );
      const none = await fetch(`${base}/Items/${s.seeded?.movies.casablanca.id}/Images/Primary`);
      expect(none.status).toBe(404);
      const noItem = await fetch(
        `${base}/Items/${s === emby ? '99999' : 'f'.repeat(32)}/Images/Primary`,
      );
      expect(noItem.status).toBe(404);
    }
  });
});
