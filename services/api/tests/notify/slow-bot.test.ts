import { createRequestReplySchema } from '@usher/contracts';
import { ENGINE } from '../support/database.js';
import { startHarness, type Harness } from '../requests/harness.js';

describe(`a slow bot (${ENGINE})`, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    h.bot.delayMs = 5_000;
  });
  afterAll(() => h.close());

  it('should not slow the request that caused the push; the push ends as a timeout', async () => {
    const member = await h.member();
    const admin = await h.admin();
    const started = performance.now();
    const res = await h.t.call('post', '/api/v1/media-requests', {
      token: member.token,
      body: { type: 'MOVIE', tmdbId: 3_000_001, season: 0, name: 'Slow Bot' },
    });
    const createMs = performance.now() - started;
    expect(res.status).toBe(201);
    const { request } = createRequestReplySchema.parse(await res.json());

    const approveStarted = performance.now();
    const approved = await h.t.call('post', `/api/v1/admin/media-requests/${request.id}/approve`, {
      token: admin.token,
    });
    const approveMs = performance.now() - approveStarted;
    expect(approved.status).toBe(200);
    // The bot answers after 5 s; both replies came back long before that.
    expect(createMs).toBeLessThan(2_000);
    expect(approveMs).toBeLessThan(2_000);

    await h.settle();
    expect(performance.now() - started).toBeGreaterThan(4_500);
    expect(h.bot.calls.map((c) => c.body.event)).toEqual(['created', 'approved']);
    const metric = await h.t.context.metrics.notifyTotal.get();
    const timeouts = metric.values.find(
      (v) => v.labels.kind === 'subscription' && v.labels.outcome === 'timeout',
    );
    expect(timeouts?.value).toBe(2);
  }, 30_000);
});
