// The launcher's core: every fake started with one demo world. What one fake says about a title,
// an episode or a user must hold in every other fake, read over HTTP as Usher would read it.
import nodemailer from 'nodemailer';

import { startDemoFakes } from '../../src/demo/fakes.js';
import { planUsherSeed } from '../../src/demo/seed-plan.js';
import type { DemoFakes } from '../../src/demo/fakes.js';

const NOW = new Date('2025-06-01T20:00:00Z');
const DAY = 86_400_000;

interface Item {
  Id: string;
  Name: string;
  Type: string;
  ProductionYear?: number;
  PremiereDate?: string;
  IndexNumber?: number;
  ParentIndexNumber?: number;
  LocationType: string;
  ProviderIds?: Record<string, string>;
}

describe('demo fakes: one consistent world', () => {
  let fakes: DemoFakes;
  const media = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(`${fakes.mediaServer.url}${path}`, {
      ...init,
      headers: { authorization: `MediaBrowser Token="${fakes.env.MEDIA_SERVER_API_KEY}"` },
    });
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    return (await res.json()) as T;
  };
  const tmdb = async <T>(path: string): Promise<T | null> => {
    const res = await fetch(`${fakes.env.TMDB_API_BASE}${path}?api_key=${fakes.env.TMDB_API_KEY}`);
    return res.status === 200 ? ((await res.json()) as T) : null;
  };
  const sql = (query: string) =>
    fetch(`${fakes.mediaServer.url}/user_usage_stats/submit_custom_query`, {
      method: 'POST',
      headers: {
        authorization: `MediaBrowser Token="${fakes.env.MEDIA_SERVER_API_KEY}"`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ CustomQueryString: query }),
    }).then((r) => r.json() as Promise<{ colums: string[]; results: string[][] }>);
  const titles = () =>
    media<{ Items: Item[] }>(
      '/Items?Recursive=true&IncludeItemTypes=Movie,Series&Fields=ProviderIds',
    );

  beforeAll(async () => {
    fakes = await startDemoFakes({ seed: 42, now: NOW, clock: () => NOW });
  });
  afterAll(() => fakes.close());

  it('should resolve every movie and series TMDB id on the server in the TMDB fake', async () => {
    const { Items } = await titles();
    expect(Items.length).toBeGreaterThan(200);
    const mismatches: string[] = [];
    await Promise.all(
      Items.map(async (item) => {
        const id = item.ProviderIds?.['Tmdb'];
        const kind = item.Type === 'Movie' ? 'movie' : 'tv';
        const found = await tmdb<{ title?: string; name?: string } & Record<string, string>>(
          `/${kind}/${id}`,
        );
        const date = found?.release_date ?? found?.first_air_date ?? '';
        if (
          (found?.title ?? found?.name) !== item.Name ||
          !date.startsWith(`${item.ProductionYear}`)
        )
          mismatches.push(`${item.Type} ${item.Name} (${id})`);
      }),
    );
    expect(mismatches).toEqual([]);
  });

  it("should give every episode TMDB's own episode id, name and air date", async () => {
    const { Items } = await media<{ Items: Item[] }>(
      '/Items?Recursive=true&IncludeItemTypes=Series&Fields=ProviderIds',
    );
    const mismatches: string[] = [];
    let upcoming = 0;
    await Promise.all(
      Items.map(async (series) => {
        const showId = series.ProviderIds!['Tmdb'];
        const episodes = (
          await media<{ Items: Item[] }>(`/Shows/${series.Id}/Episodes?Fields=ProviderIds`)
        ).Items;
        const seasons = new Map<number, { episodes: Record<string, string | number>[] } | null>();
        for (const ep of episodes) {
          const n = ep.ParentIndexNumber!;
          if (!seasons.has(n)) seasons.set(n, await tmdb(`/tv/${showId}/season/${n}`));
          const match = seasons
            .get(n)
            ?.episodes.find((e) => e['episode_number'] === ep.IndexNumber);
          if (ep.PremiereDate && ep.PremiereDate > NOW.toISOString()) upcoming++;
          if (
            !match ||
            String(match['id']) !== ep.ProviderIds?.['Tmdb'] ||
            (match['name'] !== ep.Name && !/^Episode \d+$/.test(String(match['name']))) ||
            match['air_date'] !== ep.PremiereDate?.slice(0, 10)
          )
            mismatches.push(`${series.Name} S${n}E${ep.IndexNumber}`);
        }
      }),
    );
    expect(mismatches).toEqual([]);
    expect(upcoming).toBeGreaterThan(20);
  });

  it('should have continuing series with a next episode to air on TMDB', async () => {
    const { Items } = await titles();
    const series = Items.filter((i) => i.Type === 'Series');
    const next = await Promise.all(
      series.map((s) =>
        tmdb<{ next_episode_to_air: { air_date: string } | null }>(`/tv/${s.ProviderIds!['Tmdb']}`),
      ),
    );
    const dated = next.filter((d) => d?.next_episode_to_air).map((d) => d!.next_episode_to_air!);
    expect(dated.length).toBeGreaterThanOrEqual(5);
    expect(dated.every((e) => e.air_date > fakes.world.today)).toBe(true);
  });

  it('should hold a year of playback rows for dozens of users, on items it has', async () => {
    const span = await sql(
      'SELECT MIN(DateCreated), MAX(DateCreated), COUNT(*), COUNT(DISTINCT UserId) ' +
        'FROM PlaybackActivity',
    );
    const [min, max, count, users] = span.results[0]!;
    expect(new Date(`${min!.slice(0, 19)}Z`).getTime()).toBeLessThanOrEqual(
      NOW.getTime() - 360 * DAY,
    );
    expect(new Date(`${max!.slice(0, 19)}Z`).getTime()).toBeGreaterThan(NOW.getTime() - 2 * DAY);
    expect(Number(count)).toBeGreaterThan(2000);
    expect(Number(users)).toBeGreaterThanOrEqual(24);
    const ids = await sql('SELECT DISTINCT ItemId, UserId FROM PlaybackActivity');
    const state = fakes.mediaServer.state;
    const orphans = ids.results.filter(
      ([item, user]) =>
        state.items.get(item!)?.locationType !== 'FileSystem' || !state.users.has(user!),
    );
    expect(orphans).toEqual([]);
  });

  it('should show people watching now, on items with TMDB ids', async () => {
    const sessions = await media<{ NowPlayingItem?: Item; PlayState: { PlayMethod?: string } }[]>(
      '/Sessions?activeWithinSeconds=960',
    );
    const playing = sessions.filter((s) => s.NowPlayingItem);
    expect(playing.length).toBeGreaterThanOrEqual(3);
    expect(playing.every((s) => s.NowPlayingItem!.ProviderIds?.['Tmdb'])).toBe(true);
    expect(sessions.length).toBeGreaterThan(playing.length);
  });

  // Issue 36: the member the demo signs in as opens the overview on "continue watching".
  it('should give the featured member and the viewers resume points, most recent first', async () => {
    const featured = planUsherSeed(fakes.world).featured;
    const userId = fakes.loaded.userIds.get(featured)!;
    const { Items } = await media<{
      Items: (Item & { RunTimeTicks: number; UserData: Record<string, unknown> })[];
    }>(`/UserItems/Resume?userId=${userId}&Limit=12`);
    expect(Items.length).toBeGreaterThanOrEqual(3);
    const played = Items.map((i) => Date.parse(String(i.UserData['LastPlayedDate'])));
    expect(played).toEqual([...played].sort((a, b) => b - a));
    for (const item of Items) {
      const position = Number(item.UserData['PlaybackPositionTicks']);
      expect(position).toBeGreaterThan(0);
      // Short of the end, as the history's play of it was.
      expect(position).toBeLessThan(item.RunTimeTicks * 0.9);
      expect(['Movie', 'Episode']).toContain(item.Type);
    }
    // Whoever is playing now resumes where the session stands.
    const state = fakes.mediaServer.state;
    const live = [...state.sessions.values()].filter((s) => s.playing);
    expect(live.length).toBeGreaterThan(0);
    for (const session of live) {
      const data = state.users.get(session.userId)!.userData!.get(session.playing!.itemId)!;
      expect(data.playbackPositionTicks).toBe(session.playing!.positionTicks);
    }
  });

  it('should let MoviePilot find releases for owned titles and for ones to request', async () => {
    const token = fakes.moviePilot.issueToken();
    const search = async (mediaId: string, mtype: string) => {
      const res = await fetch(
        `${fakes.moviePilot.url}/api/v1/search/media/${mediaId}?mtype=${encodeURIComponent(mtype)}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      return (await res.json()) as {
        success: boolean;
        data: { media_info: { tmdb_id: number } }[];
      };
    };
    const onDisk = fakes.world.movies[0]!.fixture.id;
    const requestable = fakes.world.tmdb.tv.find(
      (s) => !fakes.world.shows.some((o) => o.fixture.id === s.id) && s.seasons.length > 0,
    )!.id;
    const movie = await search(`tmdb:${onDisk}`, '电影');
    const show = await search(`tmdb:${requestable}`, '电视剧');
    expect(movie.success).toBe(true);
    expect(movie.data.every((d) => d.media_info.tmdb_id === onDisk)).toBe(true);
    expect(show.success).toBe(true);
  });

  it('should hand Usher env vars that reach each fake', async () => {
    const { env } = fakes;
    expect(env).toMatchObject({
      MEDIA_SERVER_KIND: 'jellyfin',
      MEDIA_SERVER_URL: fakes.mediaServer.url,
      AUTOMATION_KIND: 'moviepilot',
      AUTOMATION_URL: fakes.moviePilot.url,
      SMTP_SECURITY: 'none',
      STRIPE_API_BASE: fakes.stripe.url,
      TMDB_IMAGE_BASE: fakes.tmdb.imageBase,
    });
    expect(env.MEDIA_SERVER_API_KEY).toMatch(/^[A-Za-z0-9]{16,128}$/);
    expect(env.TMDB_API_KEY).toMatch(/^[0-9a-f]{32}$/);
    expect(env.STRIPE_SECRET_KEY).toMatch(/^sk_test_[A-Za-z0-9]+$/);
    expect(env.STRIPE_WEBHOOK_SECRET).toMatch(/^whsec_[A-Za-z0-9]+$/);
    expect(env.MESSENGER_ADMIN_CHAT_ID).toMatch(/^-100\d+$/);
    const mail = nodemailer.createTransport({
      host: env.SMTP_HOST,
      port: Number(env.SMTP_PORT),
      secure: false,
      ignoreTLS: true,
      auth: { user: env.SMTP_USERNAME!, pass: env.SMTP_PASSWORD! },
    });
    await mail.sendMail({
      from: env.SMTP_FROM,
      to: 'maya@example.org',
      subject: 'Code',
      text: '1',
    });
    expect(fakes.smtp.lastMessageTo('maya@example.org')?.authUser).toBe('usher');
  });
});

describe('demo fakes: Emby flavour', () => {
  it('should load the same library into Emby, with the Emby-only playback columns', async () => {
    const jellyfin = await startDemoFakes({ seed: 3, now: NOW, clock: () => NOW });
    const emby = await startDemoFakes({ seed: 3, now: NOW, clock: () => NOW, flavour: 'emby' });
    try {
      const count = (f: DemoFakes, type: string) =>
        [...f.mediaServer.state.items.values()].filter((i) => i.type === type).length;
      expect(count(emby, 'Movie')).toBe(count(jellyfin, 'Movie'));
      expect(count(emby, 'Episode')).toBe(count(jellyfin, 'Episode'));
      const reply = emby.mediaServer.state.playback.run(
        'SELECT COUNT(*), SUM(PauseDuration > 0), COUNT(RemoteAddress) FROM PlaybackActivity',
      );
      const [rows, paused, addressed] = reply.results[0]!;
      expect(Number(rows)).toBe(emby.world.plays.length);
      expect(Number(paused)).toBeGreaterThan(0);
      expect(addressed).toBe(rows);
      expect(emby.env.MEDIA_SERVER_KIND).toBe('emby');
    } finally {
      await Promise.all([jellyfin.close(), emby.close()]);
    }
  });
});
