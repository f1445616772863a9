// Races: parallel redemptions of a single-use code, parallel registrations of one name, and
// approve against reject of one request — each must end with exactly one winner and state that
// agrees with it. (The login lock under 150 parallel attempts is in login.reliability.test.ts.)
import { and, eq } from 'drizzle-orm';
import { auditLog, mediaRequests, redeemCodes, users } from '../src/db/schema/index.js';
import { recordFigures } from './figures.js';
import { reliabilityEnv, secretFindings, type ReliabilityEnv } from './harness.js';

let env: ReliabilityEnv;
beforeAll(async () => {
  env = await reliabilityEnv({ REGISTRATION_MODE: 'open', EMAIL_VERIFICATION: 'false' });
});
afterAll(() => env.close());

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('races', () => {
  const figures: Record<string, unknown> = {};
  afterAll(() => recordFigures('races', figures));

  it('should let exactly one of 20 parallel redemptions use a single-use code', async () => {
    const admin = await env.admin();
    const created = await env.send('POST', '/api/v1/admin/redeem-codes', {
      token: admin.token,
      body: { days: 5, maxUses: 1 },
    });
    const code = JSON.parse(created.text) as { id: string; code: string };
    const members = await Promise.all(Array.from({ length: 20 }, () => env.member()));
    const replies = await Promise.all(
      members.map((m) =>
        env.send('POST', '/api/v1/me/redeem', { token: m.token, body: { code: code.code } }),
      ),
    );
    const statuses = replies.map((r) => r.res.status);
    const [row] = await env.t.context.db
      .select()
      .from(redeemCodes)
      .where(eq(redeemCodes.id, code.id));
    figures.redeem = {
      parallel: 20,
      succeeded: count(statuses, 200),
      usedCount: row!.usedCount,
      fiveXx: statuses.filter((s) => s >= 500).length,
    };
    expect(count(statuses, 200)).toBe(1);
    expect(row!.usedCount).toBe(1);
    expect(statuses.filter((s) => s !== 200 && s !== 422 && s !== 409)).toEqual([]);
  });

  it('should evaluate at most 10 of 40 parallel wrong guesses against a failure limit', async () => {
    const member = await env.member();
    const codes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        env.send('POST', '/api/v1/me/redeem', {
          token: member.token,
          body: { code: (0xabc0000000000000n + BigInt(i)).toString(16).toUpperCase() },
        }),
      ),
    );
    const redeemStatuses = codes.map((r) => r.res.status);
    const other = await env.member();
    const passwords = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        env.send('PUT', '/api/v1/me/password', {
          token: other.token,
          body: { currentPassword: `Wrong-Current-${i}`, newPassword: 'Brand-New-Pass-77' },
        }),
      ),
    );
    const passwordStatuses = passwords.map((r) => r.res.status);
    figures.failureLimits = {
      parallel: 40,
      redeemGuessesEvaluated: count(redeemStatuses, 422),
      currentPasswordGuessesEvaluated: count(passwordStatuses, 422),
    };
    expect(count(redeemStatuses, 422)).toBeLessThanOrEqual(10);
    expect(count(redeemStatuses, 429)).toBe(40 - count(redeemStatuses, 422));
    expect(count(passwordStatuses, 422)).toBeLessThanOrEqual(10);
    expect(count(passwordStatuses, 429)).toBe(40 - count(passwordStatuses, 422));
  });

  it('should create one account from 10 parallel registrations of one name', async () => {
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        env.send('POST', '/api/v1/auth/register', {
          body: {
            username: 'race_reg',
            password: `Race-Password-${i}0`,
            email: `race${i}@example.com`,
          },
          headers: { 'x-forwarded-for': `198.51.100.${50 + i}` },
        }),
      ),
    );
    for (let i = 0; i < 10; i++) env.passwords.push(`Race-Password-${i}0`);
    const statuses = replies.map((r) => r.res.status);
    const rows = await env.t.context.db.select().from(users).where(eq(users.username, 'race_reg'));
    const mediaAccounts = [...env.media.state.users.values()].filter(
      (u) => u.name.toLowerCase() === 'race_reg',
    );
    figures.registration = {
      parallel: 10,
      created: count(statuses, 201),
      usersRows: rows.length,
      mediaAccounts: mediaAccounts.length,
      fiveXx: statuses.filter((s) => s >= 500).length,
    };
    expect(count(statuses, 201)).toBe(1);
    expect(rows).toHaveLength(1);
    expect(mediaAccounts).toHaveLength(1);
    expect(mediaAccounts[0]!.id.replace(/-/g, '').toLowerCase()).toBe(rows[0]!.mediaUserId);
    expect(statuses.filter((s) => s !== 201 && s !== 409 && s !== 429)).toEqual([]);
  });

  it('should let one of approve and reject win, 10 times over', async () => {
    const admin = await env.admin();
    const member = await env.member();
    let agreeing = 0;
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) {
      const created = await env.send('POST', '/api/v1/media-requests', {
        token: member.token,
        body: { type: 'MOVIE', tmdbId: 9_100_000 + i, season: 0, name: `Race ${i}`, year: 2020 },
      });
      expect(created.res.status).toBe(201);
      const id = (JSON.parse(created.text) as { request: { id: string } }).request.id;
      const [approve, reject] = await Promise.all([
        env.send('POST', `/api/v1/admin/media-requests/${id}/approve`, { token: admin.token }),
        env.send('POST', `/api/v1/admin/media-requests/${id}/reject`, {
          token: admin.token,
          body: { reason: 'raced' },
        }),
      ]);
      await env.settle();
      const [row] = await env.t.context.db
        .select()
        .from(mediaRequests)
        .where(eq(mediaRequests.id, id));
      const audits = await env.t.context.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(and(eq(auditLog.targetId, id)));
      const reviews = audits.filter(
        (a) => a.action === 'request.approve' || a.action === 'request.reject',
      );
      const winner =
        approve.res.status === 200 ? 'APPROVED' : reject.res.status === 200 ? 'REJECTED' : 'none';
      outcomes.push(`${approve.res.status}/${reject.res.status}→${row!.status}`);
      if (
        [approve.res.status, reject.res.status].sort().join() === '200,409' &&
        row!.status === winner &&
        reviews.length === 1
      ) {
        agreeing++;
      }
    }
    figures.approveVsReject = { pairs: 10, oneWinnerAndStateAgrees: agreeing, outcomes };
    expect(agreeing).toBe(10);
    expect(secretFindings(env)).toEqual([]);
  });
});
