import { accountsEnv, type AccountsEnv } from '../accounts/support.js';
import { mannWhitney, median } from '../support/stats.js';
import { measureLoginTiming } from './timing.js';

describe('login timing (issue 16)', () => {
  let env: AccountsEnv;
  beforeAll(async () => {
    env = await accountsEnv('emby');
  });
  afterAll(async () => {
    await env.close();
  });

  it('should cost the same for an unknown name, an unlinked member and a linked member', async () => {
    const times = await measureLoginTiming(env, 30);
    const linkedVsUnknown = mannWhitney(times.linked, times.unknown);
    const linkedVsUnlinked = mannWhitney(times.linked, times.unlinked);
    const report = {
      medianMs: {
        unknown: median(times.unknown),
        linked: median(times.linked),
        unlinked: median(times.unlinked),
      },
      pLinkedVsUnknown: linkedVsUnknown.p,
      pLinkedVsUnlinked: linkedVsUnlinked.p,
    };
    // Not significantly different at p < 0.01 (30 samples each, Mann-Whitney U).
    expect([report, linkedVsUnknown.p >= 0.01]).toEqual([report, true]);
    expect([report, linkedVsUnlinked.p >= 0.01]).toEqual([report, true]);
    // Every failed check made the same media-server round trip.
    expect(env.media.requests('/AuthenticateByName').length).toBeGreaterThanOrEqual(93);
  }, 120_000);
});
