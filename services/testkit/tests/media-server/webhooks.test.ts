import type { FakeMediaServer } from '../../src/media-server/index.js';
import { DEFAULT_JELLYFIN_TEMPLATE, dashed } from '../../src/media-server/index.js';
import type { Received } from './helpers.js';
import { start, startReceiver } from './helpers.js';

type Dto = Record<string, unknown>;

/** Decodes a multipart body the way a web framework would, and returns the `data` field. */
async function multipartData(r: Received): Promise<Dto> {
  const form = await new Response(new Uint8Array(r.body), {
    headers: { 'content-type': r.headers['content-type'] ?? '' },
  }).formData();
  return JSON.parse(String(form.get('data'))) as Dto;
}

describe('media-server fake: "new item" webhooks (§2)', () => {
  let emby: FakeMediaServer;
  let jf: FakeMediaServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    emby = await start('emby');
    jf = await start('jellyfin');
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all([emby.close(), jf.close(), receiver.close()]);
  });
  beforeEach(() => {
    receiver.received.length = 0;
  });
  const last = (): Received => receiver.received.at(-1) as Received;

  it('should send Emby library.new as multipart with a JSON `data` field by default', async () => {
    const dune = emby.seeded?.movies.dune.id ?? '';
    const d = await emby.emitItemAdded(dune, `${receiver.url}?token=t0k`);
    expect(d.status).toBe(200);
    expect(last().url).toMatch(/\?token=t0k$/);
    expect(last().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const data = await multipartData(last());
    expect(data).toMatchObject({
      Event: 'library.new',
      Item: {
        Id: dune,
        Type: 'Movie',
        Name: 'Dune: Part Two',
        ProductionYear: 2024,
        ProviderIds: { Tmdb: '693134' },
      },
      Server: { Id: emby.state.serverId },
    });
  });

  it('should send an Emby JSON body, an early event and a multi-episode item', async () => {
    const multi = emby.seeded?.series.bear.episodes[2];
    await emby.emitItemAdded(multi?.id ?? '', receiver.url, { format: 'json' });
    expect(last().headers['content-type']).toBe('application/json');
    const item = (JSON.parse(last().body.toString()) as { Item: Dto }).Item;
    expect(item).toMatchObject({
      Type: 'Episode',
      ParentIndexNumber: 1,
      IndexNumber: 3,
      IndexNumberEnd: 4,
    });
    expect(item['SeriesId']).toBe(emby.seeded?.series.bear.series.id);
    // The episode's own TMDB id, not the show's (§2.3).
    expect((item['ProviderIds'] as Dto)['Tmdb']).not.toBe('136315');
    await emby.emitItemAdded(multi?.id ?? '', receiver.url, { format: 'json', early: true });
    const early = (JSON.parse(last().body.toString()) as { Item: Dto }).Item;
    expect(early['ProviderIds']).toEqual({});
    expect(early).not.toHaveProperty('IndexNumber');
    expect(early).not.toHaveProperty('ParentIndexNumber');
  });

  it('should send the Emby test notification', async () => {
    await emby.emitTestNotification(receiver.url);
    expect(await multipartData(last())).toMatchObject({ Event: 'system.notificationtest' });
    await expect(jf.emitTestNotification(receiver.url)).rejects.toThrow(/Only Emby/);
  });

  it('should send Jellyfin ItemAdded with Send All Properties as JSON or text/plain', async () => {
    const ep = jf.seeded?.series.bear.episodes[2];
    await jf.emitItemAdded(ep?.id ?? '', receiver.url, {
      headers: { 'x-usher-webhook-token': 't0k' },
    });
    expect(last().headers['content-type']).toBe('application/json');
    expect(last().headers['x-usher-webhook-token']).toBe('t0k');
    const data = JSON.parse(last().body.toString()) as Dto;
    expect(data).toMatchObject({
      NotificationType: 'ItemAdded',
      ItemType: 'Episode',
      ItemId: ep?.id,
      SeriesId: jf.seeded?.series.bear.series.id,
      SeasonNumber: 1,
      EpisodeNumber: 3,
      EpisodeNumberEnd: 4,
      SeasonNumber00: '01',
      Year: 2022,
      ServerId: jf.state.serverId,
    });
    expect(data['ItemId']).toMatch(/^[0-9a-f]{32}$/);
    expect(data['Provider_tmdb']).toEqual(expect.any(String));
    await jf.emitItemAdded(ep?.id ?? '', receiver.url, { format: 'text' });
    expect(last().headers['content-type']).toMatch(/^text\/plain/);
    expect(JSON.parse(last().body.toString())).toMatchObject({ NotificationType: 'ItemAdded' });
  });

  it('should render a Jellyfin template with dashed GUIDs and HTML-escaped values', async () => {
    const amelie = jf.seeded?.movies.amelie;
    if (!amelie) throw new Error('the seed has no Amélie');
    amelie.name = 'Amélie "Poulain" & co';
    await jf.emitItemAdded(amelie.id, receiver.url, { template: DEFAULT_JELLYFIN_TEMPLATE });
    const data = JSON.parse(last().body.toString()) as Dto;
    expect(data['ItemId']).toBe(dashed(amelie.id));
    expect(data['Name']).toBe('Amélie &quot;Poulain&quot; &amp; co');
    expect(data['SeasonNumber']).toBe('');
    expect(data['Provider_tmdb']).toBe('194');
  });

  it('should send a Series-type ItemAdded when asked (the receiver must ignore it)', async () => {
    await jf.emitItemAdded(jf.seeded?.series.severance.series.id ?? '', receiver.url);
    expect(JSON.parse(last().body.toString())).toMatchObject({
      ItemType: 'Series',
      Provider_tmdb: '95396',
    });
  });

  it('should add an item through the control API and fire the configured webhook', async () => {
    const put = await fetch(`${jf.url}/__fake/webhook`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, headers: { 'x-usher-webhook-token': 'abc' } }),
    });
    expect(put.status).toBe(204);
    const res = await fetch(`${jf.url}/__fake/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'Episode',
        name: 'Chikhai Bardo',
        seriesId: jf.seeded?.series.severance.series.id,
        season: 2,
        episode: 7,
        tmdbId: '5000007',
      }),
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { item: Dto; webhook: { status: number } };
    expect(body.webhook.status).toBe(200);
    expect(JSON.parse(last().body.toString())).toMatchObject({
      ItemId: body.item['Id'],
      EpisodeNumber: 7,
    });
    const log = (await (await fetch(`${jf.url}/__fake/requests`)).json()) as unknown[];
    expect(Array.isArray(log)).toBe(true);
  });
});
