import type { FakeMediaServer } from '../../src/media-server/index.js';
import { adminHeaders, call, start } from './helpers.js';

describe('media-server fake: probe endpoints and path prefixes', () => {
  const servers: FakeMediaServer[] = [];
  const boot = async (...args: Parameters<typeof start>): Promise<FakeMediaServer> => {
    const s = await start(...args);
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('should answer Emby /System/Info/Public anonymously without ProductName', async () => {
    const emby = await boot('emby');
    const res = await call(emby, 'GET', '/System/Info/Public');
    expect(res.status).toBe(200);
    const info = res.json() as Record<string, unknown>;
    expect(info).toMatchObject({ ServerName: 'Fake Emby', Version: '4.8.11.0' });
    expect(info['Id']).toMatch(/^[0-9a-f]{32}$/);
    expect(info).not.toHaveProperty('ProductName');
  });

  it('should answer Jellyfin /System/Info/Public with ProductName "Jellyfin Server"', async () => {
    const jf = await boot('jellyfin');
    const info = (await call(jf, 'GET', '/System/Info/Public')).json();
    expect(info).toMatchObject({ ProductName: 'Jellyfin Server', Version: '12.0.0' });
    expect(jf.mode).toBe('jellyfin12');
  });

  it.each(['emby', 'jellyfin'] as const)('should key-check /System/Info on %s', async (flavour) => {
    const s = await boot(flavour);
    const anonymous = await call(s, 'GET', '/System/Info');
    expect(anonymous.status).toBe(401);
    const wrong = await call(s, 'GET', '/System/Info', { headers: adminHeaders(s, 'nope') });
    expect(wrong.status).toBe(401);
    if (flavour === 'jellyfin') expect(wrong.text).toBe('');
    else expect(wrong.contentType).toMatch(/^text\/plain/);
    const good = await call(s, 'GET', '/System/Info', { headers: adminHeaders(s) });
    expect(good.status).toBe(200);
    expect(good.json()).toHaveProperty('Id', s.state.serverId);
  });

  it('should serve Emby under /emby and, like real Emby, without the prefix too', async () => {
    const emby = await boot('emby');
    expect((await call(emby, 'GET', '/emby/System/Info/Public', { raw: true })).status).toBe(200);
    expect((await call(emby, 'GET', '/System/Info/Public', { raw: true })).status).toBe(200);
  });

  it('should refuse unprefixed Emby paths in the strict embyPrefixOnly mode', async () => {
    const emby = await boot('emby', { embyPrefixOnly: true });
    expect((await call(emby, 'GET', '/System/Info/Public', { raw: true })).status).toBe(404);
    expect((await call(emby, 'GET', '/emby/System/Info/Public', { raw: true })).status).toBe(200);
  });

  it('should strip a leading /emby on Jellyfin 10.11 but answer 404 on 12.0', async () => {
    const jf10 = await boot('jellyfin', { version: '10.11.2' });
    const jf12 = await boot('jellyfin');
    expect(jf10.mode).toBe('jellyfin10');
    expect((await call(jf10, 'GET', '/emby/System/Info/Public')).status).toBe(200);
    const gone = await call(jf12, 'GET', '/emby/System/Info/Public');
    expect(gone.status).toBe(404);
    expect(gone.text).toBe('');
  });

  it('should honour a Jellyfin base path and 404 outside it', async () => {
    const jf = await boot('jellyfin', { basePath: '/jellyfin' });
    expect(jf.url).toMatch(/\/jellyfin$/);
    expect((await call(jf, 'GET', '/System/Info/Public')).status).toBe(200);
    const outside = await fetch(new URL('/System/Info/Public', jf.url));
    expect(outside.status).toBe(404);
  });

  it('should match routes case-insensitively like both servers', async () => {
    const jf = await boot('jellyfin');
    expect((await call(jf, 'GET', '/system/info/public')).status).toBe(200);
  });
});
