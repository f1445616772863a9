// probe(), base URL and prefix (§1.2), the headers of §1.3, and the shared error rules of §0
// (timeouts, network errors, retries for GETs only) against the testkit fake.
import { failure, FLAVOURS, harness, MODES, requestCount, sent } from './helpers.js';

describe('media-server adapters: probe, prefix, headers and errors', () => {
  const boot = harness();

  it.each(MODES)('should probe %s with the public info, then check the key', async (mode) => {
    const { fake, adapter } = await boot(mode);
    const info = await adapter.probe();
    expect(info).toEqual({
      id: fake.state.serverId,
      name: fake.state.serverName,
      version: fake.state.version,
      product: mode === 'emby' ? 'emby' : 'jellyfin',
      supported: true,
    });
    expect(sent(fake)).toEqual(['GET /System/Info/Public', 'GET /System/Info']);
    const [pub, full] = fake.requests();
    expect(pub?.headers).not.toHaveProperty('authorization');
    expect(pub?.headers).not.toHaveProperty('x-emby-token');
    expect(full?.status).toBe(200);
  });

  it('should send Emby both key headers and call it under /emby (§1.3, §1.2)', async () => {
    const { fake, adapter } = await boot('emby');
    await adapter.listUsers();
    const [req] = fake.requests();
    expect(req?.path).toBe('/emby/Users/Query');
    expect(req?.headers['x-emby-token']).toBe('[redacted]');
    expect(req?.headers['authorization']).toBe('MediaBrowser Token="[redacted]"');
    expect(req?.query).toEqual({});
  });

  it.each(['jellyfin10', 'jellyfin12'] as const)(
    'should send %s only the MediaBrowser form, at the root (risks 1 and 2)',
    async (mode) => {
      const { fake, adapter } = await boot(mode);
      await adapter.listUsers();
      const [req] = fake.requests();
      expect(req?.path).toBe('/Users');
      expect(req?.credential).toBe('authorization:MediaBrowser');
      expect(req?.headers).not.toHaveProperty('x-emby-token');
      expect(req?.headers).not.toHaveProperty('x-emby-authorization');
      expect(Object.keys(req?.query ?? {}).map((k) => k.toLowerCase())).not.toContain('api_key');
      expect(req?.ignoredLegacy).toBeUndefined();
    },
  );

  it('should word a refused Jellyfin 12 key as §1.3 says (risk 1)', async () => {
    const { adapterWith } = await boot('jellyfin12');
    const err = await failure(adapterWith({ apiKey: 'WrongKey0123456789' }).listUsers());
    expect(err).toMatchObject({ kind: 'auth', status: 401, system: 'media_server' });
    expect(err.message).toBe(
      'Jellyfin refused the API key (check the key; Jellyfin 12 ignores Emby-style headers)',
    );
    expect(err.toAppError()).toMatchObject({ code: 'UPSTREAM_AUTH_FAILED' });
  });

  it('should word a refused Emby key and fail the probe on it', async () => {
    const { adapterWith } = await boot('emby');
    const err = await failure(adapterWith({ apiKey: 'WrongKey0123456789' }).probe());
    expect(err).toMatchObject({ kind: 'auth', status: 401, operation: 'probe' });
    expect(err.message).toBe('Emby refused the API key (check MEDIA_SERVER_API_KEY)');
  });

  it('should not double /emby, and strip trailing slashes from the URL', async () => {
    const { fake, adapterWith } = await boot('emby', { embyPrefixOnly: true });
    await adapterWith({ url: `${fake.url}/emby/` }).probe();
    await adapterWith({ url: `${fake.url}///` }).probe();
    expect(fake.requests().map((r) => r.path)).toEqual([
      '/emby/System/Info/Public',
      '/emby/System/Info',
      '/emby/System/Info/Public',
      '/emby/System/Info',
    ]);
  });

  it("should keep a Jellyfin server's own base path", async () => {
    const { fake, adapter } = await boot('jellyfin12', { basePath: '/jellyfin' });
    expect(fake.url).toMatch(/\/jellyfin$/);
    await expect(adapter.probe()).resolves.toMatchObject({ product: 'jellyfin' });
    expect(fake.requests().map((r) => r.path)).toEqual([
      '/jellyfin/System/Info/Public',
      '/jellyfin/System/Info',
    ]);
  });

  it.each(['jellyfin10', 'jellyfin12'] as const)(
    'should name Jellyfin when the Emby adapter points at %s (risk 2)',
    async (mode) => {
      const { fake, adapterWith } = await boot(mode);
      const err = await failure(adapterWith({ kind: 'emby' }).probe());
      expect(err).toMatchObject({ kind: 'rejected', operation: 'probe' });
      expect(err.message).toContain('This server is Jellyfin');
      expect(err.message).toContain('set MEDIA_SERVER_KIND to jellyfin');
      // 12 has no /emby rewrite: the prefixed probe 404s and the root one names the product.
      const paths = fake.requests().map((r) => `${r.path} ${r.status}`);
      if (mode === 'jellyfin12') {
        expect(paths).toEqual(['/emby/System/Info/Public 404', '/System/Info/Public 200']);
      } else {
        expect(paths).toEqual(['/emby/System/Info/Public 200']);
      }
    },
  );

  it.each([false, true])(
    'should name Emby when the Jellyfin adapter points at Emby (prefix only: %s)',
    async (embyPrefixOnly) => {
      const { adapterWith } = await boot('emby', { embyPrefixOnly });
      const err = await failure(adapterWith({ kind: 'jellyfin' }).probe());
      expect(err.kind).toBe('rejected');
      expect(err.message).toMatch(/^This server is Emby 4\.8\.11\.0, not Jellyfin/);
      expect(err.message).toContain('set MEDIA_SERVER_KIND to emby');
    },
  );

  it.each([
    ['emby', '4.6.7.0'],
    ['jellyfin10', '10.8.13'],
  ] as const)('should accept but flag %s %s as unsupported', async (mode, version) => {
    const { adapter } = await boot(mode, { version });
    await expect(adapter.probe()).resolves.toMatchObject({ version, supported: false });
  });

  it('should report a 404 at every layout as not_found', async () => {
    const { fake, adapterWith } = await boot('jellyfin12');
    const err = await failure(adapterWith({ url: `${fake.url}/nothing-here` }).probe());
    expect(err).toMatchObject({ kind: 'not_found', status: 404 });
  });

  it.each(FLAVOURS)('should time out a slow %s call with the configured limit', async (mode) => {
    const { fake, adapterWith } = await boot(mode);
    fake.slow(900, /^\/Sessions$/);
    const err = await failure(adapterWith({ timeoutSeconds: 0.3 }).listSessions());
    expect(err).toMatchObject({ kind: 'timeout', operation: 'list_sessions' });
    expect(err.toAppError()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    // Timeouts are not retried: the shared client retries network errors and 502-504 only.
    expect(sent(fake, '/Sessions')).toEqual(['GET /Sessions']);
  });

  it.each(FLAVOURS)('should give %s library scan pages three times the timeout', async (mode) => {
    const { fake, seeded, adapterWith } = await boot(mode);
    const adapter = adapterWith({ timeoutSeconds: 0.4 });
    fake.slow(700, /^\/Items$/);
    const lib = seeded.libraries.movies.id;
    await expect(adapter.items({ parentId: lib, limit: 2 })).resolves.toMatchObject({ total: 8 });
    const lookup = adapter.items({ ids: [seeded.movies.dune.id] });
    await expect(failure(lookup)).resolves.toMatchObject({ kind: 'timeout' });
  });

  it.each(FLAVOURS)(
    'should report a stopped %s server as network, after one retry',
    async (mode) => {
      const env = await boot(mode);
      const { fake, adapter } = env;
      await fake.down();
      const err = await failure(adapter.listUsers());
      expect(err).toMatchObject({ kind: 'network', operation: 'list_users' });
      expect(err.message).toBe('The media server is unreachable');
      const count = requestCount(env, 'media_server', 'list_users', 'network');
      await expect(count).resolves.toBe(2);
      await fake.up();
      await expect(adapter.listUsers()).resolves.toHaveLength(4);
    },
  );

  it.each(FLAVOURS)('should retry a %s GET once on 503 but never a write', async (mode) => {
    const { fake, adapter } = await boot(mode);
    fake.fail(503, /^\/Sessions$/, { times: 1 });
    await expect(adapter.listSessions()).resolves.not.toHaveLength(0);
    expect(sent(fake, '/Sessions')).toEqual(['GET /Sessions', 'GET /Sessions']);
    fake.fail(503, '/Users/New');
    const err = await failure(adapter.createUser('dave', 'dave-pass'));
    expect(err).toMatchObject({ kind: 'http_5xx', status: 503, operation: 'create_user' });
    expect(sent(fake, '/Users/New')).toEqual(['POST /Users/New']);
  });

  it.each(FLAVOURS)('should not retry a %s GET that failed with 500', async (mode) => {
    const { fake, adapter } = await boot(mode);
    fake.fail(500, /^\/Library\/MediaFolders$/);
    await expect(failure(adapter.libraries())).resolves.toMatchObject({ kind: 'http_5xx' });
    expect(sent(fake, '/Library')).toHaveLength(1);
  });

  it('should reject a reply of the wrong shape as invalid_response and count it', async () => {
    const env = await boot('jellyfin12');
    env.fake.fail(200, /^\/Items\/Counts$/, { body: '{"MovieCount":"many"}' });
    const err = await failure(env.adapter.itemCounts());
    expect(err).toMatchObject({ kind: 'invalid_response', operation: 'item_counts' });
    const count = requestCount(env, 'media_server', 'item_counts', 'invalid_response');
    await expect(count).resolves.toBe(1);
  });

  it('should never log the API key', async () => {
    const { adapterWith, logs } = await boot('emby');
    const key = 'LeakyKey0123456789abc';
    await failure(adapterWith({ apiKey: key }).listUsers());
    expect(logs.text()).not.toContain(key);
    expect(logs.text()).toContain('media_server answered 401');
  });
});
