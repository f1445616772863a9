// Login abuse: a 150-way parallel burst against the 10-failure lock of one account, the same
// against the per-IP progressive delay, and the timing of failed logins for an unknown name, an
// unlinked member and a linked member (30 samples each, Mann-Whitney U).
import { accountsEnv, type AccountsEnv } from '../tests/accounts/support.js';
import { measureLoginTiming } from '../tests/auth/timing.js';
import { mannWhitney, median } from '../tests/support/stats.js';
import { aUser } from '../tests/support/users.js';
import { recordFigures } from './figures.js';

const SAMPLES = Number(process.env.RELIABILITY_TIMING_SAMPLES ?? 30);

let env: AccountsEnv;
const replies: string[] = [];
const passwords: string[] = [];
beforeAll(async () => {
  env = await accountsEnv('emby');
});
afterAll(() => env.close());

const login = async (username: string, password: string, ip: string) => {
  const res = await env.call('POST', '/api/v1/auth/login', { body: { username, password }, ip });
  replies.push(await res.clone().text());
  return res.status;
};

describe('login abuse', () => {
  it('should evaluate at most 10 of 150 parallel attempts for one account', async () => {
    const password = 'Right-Pass-4711';
    passwords.push(password);
    const user = await aUser().withPassword(password).withProductionHash().create(env.t.context.db);
    const statuses = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        login(user.username, i === 100 ? password : `wrong-${i}`, '203.0.113.10'),
      ),
    );
    const evaluated = statuses.filter((s) => s === 401 || s === 200).length;
    const perIpStatuses = await Promise.all(
      Array.from({ length: 150 }, (_, i) => login(`nobody_${i}`, 'wrong-password', '203.0.113.11')),
    );
    const perIpEvaluated = perIpStatuses.filter((s) => s === 401).length;
    recordFigures('login burst', {
      parallelAttempts: 150,
      accountLock: 10,
      evaluatedForOneAccount: evaluated,
      refused429: statuses.filter((s) => s === 429).length,
      otherStatuses: statuses.filter((s) => ![200, 401, 429].includes(s)).length,
      perIpFreeFailures: 20,
      evaluatedFromOneIpAcrossNames: perIpEvaluated,
    });
    expect(evaluated).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => ![200, 401, 429].includes(s))).toEqual([]);
    // 20 free failures, then one attempt a second.
    expect(perIpEvaluated).toBeLessThanOrEqual(21);
  });

  it('should take the same time for an unknown name, an unlinked and a linked member', async () => {
    const times = await measureLoginTiming(env, SAMPLES);
    const vsUnknown = mannWhitney(times.linked, times.unknown);
    const vsUnlinked = mannWhitney(times.linked, times.unlinked);
    const figures = {
      samplesEach: SAMPLES,
      medianMs: {
        unknown: Number(median(times.unknown).toFixed(2)),
        unlinked: Number(median(times.unlinked).toFixed(2)),
        linked: Number(median(times.linked).toFixed(2)),
      },
      linkedMinusUnknownMs: Number((median(times.linked) - median(times.unknown)).toFixed(2)),
      pLinkedVsUnknown: Number(vsUnknown.p.toFixed(4)),
      pLinkedVsUnlinked: Number(vsUnlinked.p.toFixed(4)),
      test: 'Mann-Whitney U, two-sided; significant if p < 0.01',
    };
    recordFigures('login timing', figures);
    expect([figures, vsUnknown.p >= 0.01, vsUnlinked.p >= 0.01]).toEqual([figures, true, true]);
  });

  it('should leak no secret or password in replies and logs', () => {
    const c = env.t.config;
    const secrets = [c.JWT_SECRET, c.CONFIG_ENCRYPTION_KEY, c.INTERNAL_API_SECRET, ...passwords];
    const text = [env.t.logs.text(), ...replies].join('\n');
    expect(secrets.filter((s) => text.includes(s)).map((s) => s.slice(0, 4))).toEqual([]);
    expect(text.includes('$argon2')).toBe(false);
  });
});
