import {
  DEFAULT_JELLYFIN_TEMPLATE,
  embyItemAddedPayload,
  type MediaWebhookOptions,
} from '@usher/testkit';
import { createRequestReplySchema, mediaServerWebhookReplySchema } from '@usher/contracts';
import { and, eq } from 'drizzle-orm';
import { auditLog, mediaRequests } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import {
  errorOf,
  eventsFor,
  startHarness,
  WEBHOOK_TOKEN,
  type Harness,
} from '../requests/harness.js';

const PATH = '/api/v1/webhooks/media-server';

/** An approved request made through the routes (confirming titles already in the library). */
async function approved(h: Harness, body: Record<string, unknown>) {
  const member = await h.member();
  const admin = await h.admin();
  const res = await h.t.call('post', '/api/v1/media-requests', {
    token: member.token,
    body: { confirmExisting: true, ...body },
  });
  expect(res.status).toBe(201);
  const { request } = createRequestReplySchema.parse(await res.json());
  const ok = await h.t.call('post', `/api/v1/admin/media-requests/${request.id}/approve`, {
    token: admin.token,
  });
  expect(ok.status).toBe(200);
  await h.settle();
  return request;
}

/** Adds an item to the media-server fake without firing its webhook; returns the item id. */
async function addItem(h: Harness, item: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${h.media.url}/__fake/items`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhook: false, ...item }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { item: { Id: string } }).item.Id;
}

async function rowOf(h: Harness, id: string) {
  const [row] = await h.t.context.db.select().from(mediaRequests).where(eq(mediaRequests.id, id));
  return row!;
}

function seriesId(h: Harness, key: 'severance' | 'bear'): string {
  return h.media.seeded!.series[key].series.id;
}

describe(`media-server webhook: auth and decoding (${ENGINE})`, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const post = (init: {
    query?: string;
    headers?: Record<string, string>;
    body?: string | FormData;
  }) =>
    h.t.app.request(`${PATH}${init.query ?? `?token=${WEBHOOK_TOKEN}`}`, {
      method: 'POST',
      headers: init.headers ?? { 'content-type': 'application/json' },
      body: init.body ?? '{}',
    });

  it('should answer 401 for a missing or wrong token, in the query or the header', async () => {
    for (const query of ['', '?token=wrong', `?token=${WEBHOOK_TOKEN}x`]) {
      expect(await errorOf(await post({ query }))).toEqual({
        status: 401,
        code: 'WEBHOOK_TOKEN_INVALID',
        message: 'Missing or wrong webhook token',
      });
    }
    const header = await post({
      query: '',
      headers: { 'content-type': 'application/json', 'x-usher-webhook-token': WEBHOOK_TOKEN },
      body: JSON.stringify({ NotificationType: 'PlaybackStart' }),
    });
    expect(await header.json()).toEqual({ received: true, ignored: true });
  });

  it('should answer 503 when the token setting is empty (webhook off)', async () => {
    const off = h.appWith({ MEDIA_SERVER_WEBHOOK_TOKEN: '' });
    const res = await off.app.request(`${PATH}?token=anything`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await errorOf(res)).toEqual({
      status: 503,
      code: 'NOT_CONFIGURED',
      message: 'The media-server webhook is switched off',
      details: { system: 'webhook' },
    });
  });

  it('should refuse form-encoded bodies with 415 and undecodable ones with 400', async () => {
    const form = await post({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'NotificationType=ItemAdded',
    });
    const refused = await errorOf(form);
    expect(refused).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(refused.message).toContain('Send All Properties');

    const broken = await post({ body: '{"Event":' });
    expect(await errorOf(broken)).toEqual({
      status: 400,
      code: 'WEBHOOK_PAYLOAD_INVALID',
      message: 'The webhook body is not valid JSON',
    });
    const list = await post({ headers: { 'content-type': 'text/plain' }, body: '[1,2]' });
    expect((await errorOf(list)).code).toBe('WEBHOOK_PAYLOAD_INVALID');
    const noData = new FormData();
    noData.append('other', '{}');
    const multipart = await post({ headers: {}, body: noData });
    expect(await errorOf(multipart)).toMatchObject({
      status: 400,
      message: 'The multipart body has no "data" field',
    });
  });

  it('should answer 413 above 5 MiB', async () => {
    const big = await post({ body: JSON.stringify({ pad: 'x'.repeat(5 * 1024 * 1024 + 10) }) });
    expect((await errorOf(big)).status).toBe(413);
  });

  it('should acknowledge Emby test notifications and ignore other events and item types', async () => {
    const url = await h.listen();
    const test = await h.media.emitTestNotification(`${url}${PATH}?token=${WEBHOOK_TOKEN}`);
    expect(JSON.parse(test.responseBody)).toEqual({ received: true, test: true });

    const series = h.media.seeded!.series.severance.series.id;
    const payload = embyItemAddedPayload(h.media.state, h.media.state.items.get(series)!);
    const seriesAdded = await post({ body: JSON.stringify(payload) });
    expect(await seriesAdded.json()).toEqual({ received: true, ignored: true });

    const playback = await post({ body: JSON.stringify({ Event: 'playback.start', Item: {} }) });
    expect(await playback.json()).toEqual({ received: true, ignored: true });
    const unknown = await post({ body: JSON.stringify({ hello: 'world' }) });
    expect(await unknown.json()).toEqual({ received: true, ignored: true });
  });
});

describe(`media-server webhook: Emby library.new (${ENGINE})`, () => {
  let h: Harness;
  let target: string;
  beforeAll(async () => {
    h = await startHarness({ flavour: 'emby' });
    target = `${await h.listen()}${PATH}?token=${WEBHOOK_TOKEN}`;
  });
  afterAll(() => h.close());

  const send = async (itemId: string, opts: MediaWebhookOptions = {}) => {
    const delivery = await h.media.emitItemAdded(itemId, target, opts);
    expect(delivery.status).toBe(200);
    await h.settle();
    return mediaServerWebhookReplySchema.parse(JSON.parse(delivery.responseBody));
  };

  it('should ingest an approved movie from the multipart body, audit and notify', async () => {
    const request = await approved(h, {
      type: 'MOVIE',
      tmdbId: 4_000_001,
      season: 0,
      name: 'New Movie',
    });
    const itemId = await addItem(h, { type: 'Movie', name: 'New Movie', tmdbId: '4000001' });
    const reply = await send(itemId, { format: 'multipart' });
    expect(reply).toEqual({ received: true, matched: { calendar: 0, requests: 1 } });
    const row = await rowOf(h, request.id);
    expect(row.status).toBe('INGESTED');
    expect(row.ingestedAt).toBeInstanceOf(Date);
    const [audit] = await h.t.context.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'request.ingest'), eq(auditLog.targetId, request.id)));
    expect(audit).toMatchObject({ actorType: 'webhook', actorLabel: 'media-server' });
    expect(eventsFor(h.bot, request.id).at(-1)).toMatchObject({
      event: 'ingested',
      progress: null,
    });

    // The same event again changes nothing.
    expect(await send(itemId, { format: 'json' })).toEqual({
      received: true,
      matched: { calendar: 0, requests: 0 },
    });
    expect(eventsFor(h.bot, request.id).filter((e) => e.event === 'ingested')).toHaveLength(1);
  });

  it('should read an early event (no ProviderIds) back from the server', async () => {
    const request = await approved(h, {
      type: 'MOVIE',
      tmdbId: 4_000_002,
      season: 0,
      name: 'Early Movie',
    });
    const itemId = await addItem(h, { type: 'Movie', name: 'Early Movie', tmdbId: '4000002' });
    const reply = await send(itemId, { format: 'json', early: true });
    expect(reply.matched).toEqual({ calendar: 0, requests: 1 });
    expect((await rowOf(h, request.id)).status).toBe('INGESTED');
  });

  it('should defer an item whose TMDB id nobody knows yet, storing nothing', async () => {
    const itemId = await addItem(h, { type: 'Movie', name: 'No Metadata' });
    expect(await send(itemId, { early: true })).toEqual({ received: true, deferred: true });
  });

  it('should defer when the media server cannot be asked', async () => {
    const itemId = await addItem(h, { type: 'Movie', name: 'Offline lookup' });
    const payload = embyItemAddedPayload(h.media.state, h.media.state.items.get(itemId)!, true);
    const offline = h.appWith({ MEDIA_SERVER_URL: '' });
    const res = await offline.app.request(`${PATH}?token=${WEBHOOK_TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    expect(await res.json()).toEqual({ received: true, deferred: true });
  });

  it('should resolve an episode through its series (the episode TMDB id is not the show’s)', async () => {
    const request = await approved(h, {
      type: 'TV',
      tmdbId: 95396,
      season: 1,
      name: 'Severance',
    });
    const series = seriesId(h, 'severance');
    // Episodes 4 … 8 arrive; each event recomputes the progress.
    for (let episode = 4; episode <= 8; episode++) {
      const itemId = await addItem(h, {
        type: 'Episode',
        name: `Episode ${episode}`,
        seriesId: series,
        season: 1,
        episode,
        tmdbId: String(1_000_000 + episode),
      });
      const reply = await send(itemId);
      expect(reply.matched).toEqual({ calendar: 0, requests: 1 });
    }
    const halfway = await rowOf(h, request.id);
    expect(halfway.status).toBe('APPROVED');
    expect(halfway.ingestProgress).toEqual({ have: 8, total: 9, last: 'S01E08' });

    const last = await addItem(h, {
      type: 'Episode',
      name: 'Episode 9',
      seriesId: series,
      season: 1,
      episode: 9,
    });
    expect((await send(last, { early: true })).matched).toEqual({ calendar: 0, requests: 1 });
    const done = await rowOf(h, request.id);
    expect(done.status).toBe('INGESTED');
    expect(done.ingestProgress).toEqual({ have: 9, total: 9, last: 'S01E09' });
    expect(eventsFor(h.bot, request.id).at(-1)).toMatchObject({
      event: 'ingested',
      progress: '9/9',
    });
  });

  it('should keep counting when TMDB is down, moving only `last`', async () => {
    const request = await approved(h, { type: 'TV', tmdbId: 136315, season: 1, name: 'The Bear' });
    await h.tmdb.faults.down();
    try {
      const itemId = await addItem(h, {
        type: 'Episode',
        name: 'Sheridan',
        seriesId: seriesId(h, 'bear'),
        season: 1,
        episode: 5,
      });
      // A fresh app: its TMDB cache for the show is empty, so TMDB must answer.
      const cold = h.appWith({});
      const payload = embyItemAddedPayload(h.media.state, h.media.state.items.get(itemId)!);
      const res = await cold.app.request(`${PATH}?token=${WEBHOOK_TOKEN}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      expect(await res.json()).toEqual({ received: true, matched: { calendar: 0, requests: 1 } });
    } finally {
      await h.tmdb.faults.up();
    }
    const row = await rowOf(h, request.id);
    expect(row.status).toBe('APPROVED');
    expect(row.ingestProgress).toEqual({ have: 0, total: 0, last: 'S01E05' });
  });
});

describe(`media-server webhook: Jellyfin ItemAdded (${ENGINE})`, () => {
  let h: Harness;
  let url: string;
  beforeAll(async () => {
    h = await startHarness({ flavour: 'jellyfin' });
    url = `${await h.listen()}${PATH}`;
  });
  afterAll(() => h.close());

  const send = async (itemId: string, opts: MediaWebhookOptions = {}) => {
    const delivery = await h.media.emitItemAdded(itemId, url, {
      headers: { 'X-Usher-Webhook-Token': WEBHOOK_TOKEN },
      ...opts,
    });
    expect(delivery.status).toBe(200);
    await h.settle();
    return mediaServerWebhookReplySchema.parse(JSON.parse(delivery.responseBody));
  };

  it('should ingest a movie from the text/plain body (plugin default)', async () => {
    const request = await approved(h, {
      type: 'MOVIE',
      tmdbId: 4_100_001,
      season: 0,
      name: 'JF Movie',
    });
    const itemId = await addItem(h, { type: 'Movie', name: 'JF Movie', tmdbId: '4100001' });
    expect(await send(itemId, { format: 'text' })).toEqual({
      received: true,
      matched: { calendar: 0, requests: 1 },
    });
    expect((await rowOf(h, request.id)).status).toBe('INGESTED');
  });

  it('should track a whole-series request over every season from episode events', async () => {
    const request = await approved(h, { type: 'TV', tmdbId: 95396, season: 0, name: 'Severance' });
    const series = seriesId(h, 'severance');
    const itemId = await addItem(h, {
      type: 'Episode',
      name: 'S2 E3',
      seriesId: series,
      season: 2,
      episode: 3,
      tmdbId: '999999',
    });
    // "Send All Properties" JSON: SeriesId without the show's TMDB id.
    expect((await send(itemId, { format: 'json' })).matched).toEqual({ calendar: 0, requests: 1 });
    const row = await rowOf(h, request.id);
    // Season 1: 3 of 9 on disk; season 2: 6 aired, episodes 1, 2 and 3 on disk.
    expect(row.ingestProgress).toEqual({ have: 6, total: 15, last: 'S02E03' });
    expect(row.status).toBe('APPROVED');
  });

  it('should accept the template variant with dashed GUIDs and string numbers', async () => {
    const request = await approved(h, { type: 'TV', tmdbId: 136315, season: 1, name: 'The Bear' });
    const itemId = await addItem(h, {
      type: 'Episode',
      name: 'Ceres',
      seriesId: seriesId(h, 'bear'),
      season: 1,
      episode: 6,
      episodeEnd: 7,
    });
    const reply = await send(itemId, { template: DEFAULT_JELLYFIN_TEMPLATE });
    expect(reply.matched).toEqual({ calendar: 0, requests: 1 });
    const row = await rowOf(h, request.id);
    expect(row.ingestProgress).toMatchObject({ last: 'S01E07' });
  });
});
