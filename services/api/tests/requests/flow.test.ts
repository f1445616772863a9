import {
  checkExistingReplySchema,
  createRequestReplySchema,
  mediaRequestSchema,
  metadataSearchReplySchema,
  pageOf,
  tvSeasonsReplySchema,
} from '@usher/contracts';
import { ENGINE } from '../support/database.js';
import { startHarness, WEBHOOK_TOKEN, type Harness } from './harness.js';

describe(`request flow end to end (${ENGINE})`, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ flavour: 'jellyfin' });
  });
  afterAll(() => h.close());

  it('member requests a season → admin approves → new episodes arrive → member sees INGESTED', async () => {
    const member = await h.member();
    const admin = await h.admin();

    // Search, pick the series and a season.
    const search = metadataSearchReplySchema.parse(
      await (await h.t.call('get', '/api/v1/metadata/search?query=severance&type=tv')).json(),
    );
    const show = search.data.find((r) => r.title === 'Severance')!;
    const seasons = tvSeasonsReplySchema.parse(
      await (await h.t.call('get', `/api/v1/metadata/tv/${show.tmdbId}/seasons`)).json(),
    );
    const season = seasons.seasons.find((s) => s.seasonNumber === 2)!;
    const key = { type: 'TV', tmdbId: show.tmdbId, season: season.seasonNumber };

    // Two episodes of season 2 are already there: the member confirms.
    const existing = checkExistingReplySchema.parse(
      await (
        await h.t.call('post', '/api/v1/media-requests/check-existing', {
          token: member.token,
          body: key,
        })
      ).json(),
    );
    expect(existing).toMatchObject({
      inLibrary: true,
      summary: { matchType: 'season', episodeCount: 2 },
    });
    const created = createRequestReplySchema.parse(
      await (
        await h.t.call('post', '/api/v1/media-requests', {
          token: member.token,
          body: {
            ...key,
            name: show.title,
            year: show.year,
            posterPath: show.posterPath,
            confirmExisting: true,
          },
        })
      ).json(),
    );
    expect(created.outcome).toBe('created');

    const approved = await h.t.call(
      'post',
      `/api/v1/admin/media-requests/${created.request.id}/approve`,
      { token: admin.token },
    );
    expect(approved.status).toBe(200);
    await h.settle();
    expect(h.mp.state.subscriptions.find((s) => s.tmdbid === show.tmdbId)).toMatchObject({
      season: 2,
    });

    // The media server gets the aired episodes 3 … 6 and fires its webhook for each.
    const url = await h.listen();
    await fetch(`${h.media.url}/__fake/webhook`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        url: `${url}/api/v1/webhooks/media-server`,
        headers: { 'X-Usher-Webhook-Token': WEBHOOK_TOKEN },
        jellyfinFormat: 'text',
      }),
    });
    const seriesId = h.media.seeded!.series.severance.series.id;
    for (let episode = 3; episode <= 6; episode++) {
      const res = await fetch(`${h.media.url}/__fake/items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'Episode',
          name: `E${episode}`,
          seriesId,
          season: 2,
          episode,
        }),
      });
      expect(((await res.json()) as { webhook: { status: number } }).webhook).toEqual({
        status: 200,
      });
    }
    await h.settle();

    const mine = pageOf(mediaRequestSchema).parse(
      await (await h.t.call('get', '/api/v1/media-requests', { token: member.token })).json(),
    );
    expect(mine.data[0]).toMatchObject({
      id: created.request.id,
      status: 'INGESTED',
      ingestProgress: { have: 6, total: 6, last: 'S02E06' },
    });
    expect(h.bot.calls.map((c) => c.body.event)).toEqual(['created', 'approved', 'ingested']);
  });
});
