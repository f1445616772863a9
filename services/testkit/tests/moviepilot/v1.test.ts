import { startFakeMoviePilot, type FakeMoviePilot } from '../../src/moviepilot/index.js';

type Json = Record<string, unknown>;

describe('fake MoviePilot v1 API', () => {
  let mp: FakeMoviePilot;

  beforeEach(async () => {
    mp = await startFakeMoviePilot();
  });
  afterEach(() => mp.close());

  async function login(username = mp.username, password = mp.password) {
    const response = await fetch(`${mp.url}/api/v1/login/access-token`, {
      method: 'POST',
      body: new URLSearchParams({ username, password }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  }

  async function send(
    path: string,
    init: { method?: string; token?: string; body?: unknown } = {},
  ) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const response = await fetch(`${mp.url}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'manual',
    });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      headers: response.headers,
      body: (type.includes('json') ? JSON.parse(text) : text) as Json,
    };
  }

  const dune = { name: 'Dune', type: '电影', tmdbid: 438631, year: '2021' };

  it('should log in with a form body and return a bearer JWT with an 8-day exp', async () => {
    const { status, body } = await login();
    const payload = JSON.parse(
      Buffer.from(String(body.access_token).split('.')[1]!, 'base64url').toString(),
    ) as { exp: number; username: string };

    expect(status).toBe(200);
    expect(body).toEqual(
      expect.objectContaining({
        token_type: 'bearer',
        super_user: true,
        user_id: 1,
        user_name: 'admin',
      }),
    );
    expect(payload.username).toBe('admin');
    expect(payload.exp - Date.now() / 1000).toBeGreaterThan(8 * 24 * 3600 - 60);
  });

  it('should refuse a wrong password with 401 {detail} and a JSON login with 422', async () => {
    const wrong = await login('admin', 'nope');
    const json = await send('/api/v1/login/access-token', {
      method: 'POST',
      body: { username: 'admin', password: mp.password },
    });

    expect(wrong).toEqual({ status: 401, body: { detail: '用户名、密码或二次校验码不正确' } });
    expect(json.status).toBe(422);
    expect(json.body.detail).toEqual([
      expect.objectContaining({
        type: 'missing',
        loc: ['body', 'username'],
        msg: 'Field required',
      }),
      expect.objectContaining({ type: 'missing', loc: ['body', 'password'] }),
    ]);
  });

  it('should answer 401 without a token and 403 for an expired or garbage token', async () => {
    const none = await send('/api/v1/subscribe/', { method: 'POST', body: dune });
    const expired = await send('/api/v1/subscribe/', {
      method: 'POST',
      token: mp.issueToken(-10),
      body: dune,
    });
    const garbage = await send('/api/v1/subscribe/', {
      method: 'POST',
      token: 'abc.def.ghi',
      body: dune,
    });

    expect(none.status).toBe(401);
    expect(none.body).toEqual({ detail: 'Not authenticated' });
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect([expired.status, expired.body]).toEqual([403, { detail: 'token校验不通过' }]);
    expect([garbage.status, garbage.body]).toEqual([403, { detail: 'token校验不通过' }]);
    expect(mp.state.subscriptions).toEqual([]);
  });

  it('should refuse the static API token on /api/v1/subscribe/ in every form', async () => {
    const asQuery = await send(`/api/v1/subscribe/?token=${mp.apiToken}`, {
      method: 'POST',
      body: dune,
    });
    const asBearer = await send('/api/v1/subscribe/', {
      method: 'POST',
      token: mp.apiToken,
      body: dune,
    });
    const asHeader = await fetch(`${mp.url}/api/v1/subscribe/`, {
      method: 'POST',
      headers: { 'x-api-key': mp.apiToken, 'content-type': 'application/json' },
      body: JSON.stringify(dune),
    });

    expect(asQuery.status).toBe(401);
    expect(asBearer.status).toBe(403);
    expect(asHeader.status).toBe(401);
  });

  it('should accept the API token as ?token= on the subscribe list route only', async () => {
    const ok = await send(`/api/v1/subscribe/list?token=${mp.apiToken}`);
    const wrong = await send('/api/v1/subscribe/list?token=nope');

    expect(ok).toEqual(expect.objectContaining({ status: 200, body: [] }));
    expect(wrong.body).toEqual({ detail: 'token校验不通过' });
  });

  it('should redirect /api/v1/subscribe without the slash with a 307', async () => {
    const reply = await send('/api/v1/subscribe', { method: 'POST', body: dune });

    expect(reply.status).toBe(307);
    expect(reply.headers.get('location')).toBe(`${mp.url}/api/v1/subscribe/`);
  });

  it('should create a subscription and count an existing one as success', async () => {
    const { body: auth } = await login();
    const token = String(auth.access_token);

    const created = await send('/api/v1/subscribe/', { method: 'POST', token, body: dune });
    const again = await send('/api/v1/subscribe/', { method: 'POST', token, body: dune });
    const lookup = await send('/api/v1/subscribe/media/tmdb:438631', { token });
    const none = await send('/api/v1/subscribe/media/tmdb:1?season=1', { token });

    expect(created.body).toEqual({ success: true, message: '新增订阅成功', data: { id: 1 } });
    expect(again.body).toEqual({ success: true, message: '订阅已存在', data: { id: 1 } });
    expect(lookup.body).toEqual(
      expect.objectContaining({ id: 1, tmdbid: 438631, type: '电影', username: 'admin' }),
    );
    expect(none.body).toEqual(expect.objectContaining({ id: null, tmdbid: null }));
  });

  it('should keep seasons apart for TV subscriptions', async () => {
    const token = mp.issueToken();
    const show = { name: 'Game of Thrones', type: '电视剧', tmdbid: 1399, year: '2011' };

    const s1 = await send('/api/v1/subscribe/', {
      method: 'POST',
      token,
      body: { ...show, season: 1 },
    });
    const s2 = await send('/api/v1/subscribe/', {
      method: 'POST',
      token,
      body: { ...show, season: 2 },
    });
    const found = await send('/api/v1/subscribe/media/tmdb:1399?season=2', { token });

    expect([s1.body.data, s2.body.data]).toEqual([{ id: 1 }, { id: 2 }]);
    expect(found.body).toEqual(expect.objectContaining({ id: 2, season: 2 }));
  });

  it('should answer 500 Internal Server Error for an English type', async () => {
    const reply = await send('/api/v1/subscribe/', {
      method: 'POST',
      token: mp.issueToken(),
      body: { ...dune, type: 'movie' },
    });

    expect(reply).toEqual(expect.objectContaining({ status: 500, body: 'Internal Server Error' }));
    expect(mp.state.subscriptions).toEqual([]);
  });

  it('should refuse a programmed tmdb id with HTTP 200 and success:false', async () => {
    mp.refuse(438631, '媒体库中已存在');

    const reply = await send('/api/v1/subscribe/', {
      method: 'POST',
      token: mp.issueToken(),
      body: dune,
    });

    expect(reply).toEqual(
      expect.objectContaining({
        status: 200,
        body: { success: false, message: '媒体库中已存在', data: { id: null } },
      }),
    );
  });

  it('should search by title and by media with the torrent_info fields', async () => {
    const token = mp.issueToken();

    const byTitle = await send(
      `/api/v1/search/title?keyword=${encodeURIComponent('dune')}&page=0`,
      { token },
    );
    const byMedia = await send('/api/v1/search/media/tmdb:1399?mtype=电视剧&season=1', { token });
    const english = await send('/api/v1/search/media/tmdb:1399?mtype=tv', { token });
    const nothing = await send('/api/v1/search/title?keyword=zzz&page=0', { token });

    const results = byTitle.body.data as { torrent_info: Json }[];
    expect(byTitle.body.success).toBe(true);
    expect(results).toHaveLength(2);
    expect(Object.keys(results[0]!.torrent_info)).toEqual(
      expect.arrayContaining([
        'site_name',
        'title',
        'description',
        'size',
        'seeders',
        'peers',
        'pubdate',
        'volume_factor',
        'enclosure',
        'page_url',
      ]),
    );
    expect((byMedia.body.data as unknown[]).length).toBe(1);
    expect(english.status).toBe(500);
    expect(nothing.body).toEqual({ success: false, message: '未搜索到任何资源', data: {} });
  });

  it('should add a download from torrent_info as received and echo an id', async () => {
    const token = mp.issueToken();
    const search = await send('/api/v1/search/media/tmdb:438631?mtype=电影', { token });
    const torrent = (search.body.data as { torrent_info: Json }[])[0]!.torrent_info;

    const added = await send('/api/v1/download/add', {
      method: 'POST',
      token,
      body: { torrent_in: torrent, downloader: null, save_path: null },
    });
    const unknown = await send('/api/v1/download/add', {
      method: 'POST',
      token,
      body: { torrent_in: { ...torrent, title: 'Some.Random.Release' } },
    });
    const missing = await send('/api/v1/download/add', { method: 'POST', token, body: {} });

    expect(added.body).toEqual({
      success: true,
      message: null,
      data: { download_id: expect.stringMatching(/^[0-9a-f]{40}$/) },
    });
    expect(mp.state.downloads[0]!.torrent_in).toEqual(torrent);
    expect(unknown.body).toEqual({ success: false, message: '无法识别媒体信息', data: {} });
    expect(missing.status).toBe(422);
  });
});
