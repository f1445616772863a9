import jpegJs from 'jpeg-js';

import type { FakeMediaServer } from '../../src/media-server/index.js';
import { apiBase, start } from './helpers.js';

const pngSize = (bytes: Buffer) => ({
  width: bytes.readUInt32BE(16),
  height: bytes.readUInt32BE(20),
});

describe('media-server fake: posters', () => {
  let emby: FakeMediaServer;
  let jf: FakeMediaServer;
  beforeAll(async () => {
    emby = await start('emby');
    jf = await start('jellyfin');
  });
  afterAll(async () => {
    await Promise.all([emby.close(), jf.close()]);
  });

  const get = (s: FakeMediaServer, path: string, init?: RequestInit) =>
    fetch(`${apiBase(s)}${path}`, init);

  it('should serve a drawn JPEG poster at its original size, anonymously, with the tag as ETag', async () => {
    for (const s of [emby, jf]) {
      const dune = s.seeded!.movies.dune.id;
      const res = await get(s, `/Items/${dune}/Images/Primary`);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('content-length')).toBe(String(bytes.length));
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000');
      expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
      expect(jpegJs.decode(bytes)).toMatchObject({ width: 600, height: 900 });
    }
  });

  it('should size by maxWidth, maxHeight, width, height and fill*, case-insensitively, never enlarging', async () => {
    const dune = jf.seeded!.movies.dune.id;
    const size = async (query: string) =>
      pngSize(
        Buffer.from(
          await (await get(jf, `/Items/${dune}/Images/Primary?format=png&${query}`)).arrayBuffer(),
        ),
      );
    expect(await size('maxWidth=300')).toEqual({ width: 300, height: 450 });
    expect(await size('MaxHeight=300')).toEqual({ width: 200, height: 300 });
    expect(await size('maxWidth=300&maxHeight=150')).toEqual({ width: 100, height: 150 });
    expect(await size('width=120')).toEqual({ width: 120, height: 180 });
    expect(await size('fillWidth=200&fillHeight=200')).toEqual({ width: 200, height: 300 });
    expect(await size('fillWidth=400&maxWidth=300')).toEqual({ width: 300, height: 450 });
    expect(await size('maxWidth=5000')).toEqual({ width: 600, height: 900 });
    expect(await size('maxWidth=abc')).toEqual({ width: 600, height: 900 });
  });

  it('should answer JPEG at the asked quality, and PNG for format=png', async () => {
    const dune = emby.seeded!.movies.dune.id;
    const at = async (quality: number) => {
      const res = await get(emby, `/Items/${dune}/Images/Primary?MaxWidth=200&Quality=${quality}`);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      return Buffer.from(await res.arrayBuffer());
    };
    const [low, high] = [await at(20), await at(95)];
    expect(jpegJs.decode(high)).toMatchObject({ width: 200, height: 300 });
    expect(low.length).toBeLessThan(high.length);
    const png = await get(emby, `/Items/${dune}/Images/Primary?MaxWidth=200&Format=png`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(pngSize(Buffer.from(await png.arrayBuffer()))).toEqual({ width: 200, height: 300 });
  });

  it('should draw each title differently and answer HEAD without a body', async () => {
    const { dune, arrival } = jf.seeded!.movies;
    const a = Buffer.from(
      await (await get(jf, `/Items/${dune.id}/Images/Primary?maxWidth=60`)).arrayBuffer(),
    );
    const b = Buffer.from(
      await (await get(jf, `/Items/${arrival.id}/Images/Primary?maxWidth=60`)).arrayBuffer(),
    );
    expect(a.equals(b)).toBe(false);
    const head = await get(jf, `/Items/${dune.id}/Images/Primary`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/jpeg');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('should answer 404 for an item without a poster, another image type or an unknown id', async () => {
    for (const s of [emby, jf]) {
      const { casablanca, dune } = s.seeded!.movies;
      expect((await get(s, `/Items/${casablanca.id}/Images/Primary`)).status).toBe(404);
      expect((await get(s, `/Items/${dune.id}/Images/Backdrop`)).status).toBe(404);
      expect((await get(s, `/Items/nope/Images/Primary`)).status).toBe(404);
    }
  });
});
