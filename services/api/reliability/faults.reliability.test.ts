// Faults: PostgreSQL unreachable for RELIABILITY_OUTAGE_SECONDS (10) under load — 503
// DATABASE_UNAVAILABLE meanwhile, recovery without a restart, nothing lost — and the media server
// or the automation down during write paths (no half-created state).
import { errorBodySchema } from '@usher/contracts';
import { eq, sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../src/db/client.js';
import { mediaRequests, redeemCodes, users } from '../src/db/schema/index.js';
import { createTestApp } from '../tests/support/app.js';
import { proxiedDatabase, type ProxiedDatabase } from '../tests/support/proxied-database.js';
import type { TcpProxy } from '../tests/support/tcp-proxy.js';
import { aUser } from '../tests/support/users.js';
import { recordFigures } from './figures.js';
import { reliabilityEnv, secretFindings, type ReliabilityEnv } from './harness.js';

const OUTAGE_SECONDS = Number(process.env.RELIABILITY_OUTAGE_SECONDS ?? 10);

describe('database outage', () => {
  let proxy: TcpProxy;
  let handle: DatabaseHandle;
  let database: ProxiedDatabase;
  beforeAll(async () => {
    database = await proxiedDatabase(4);
    ({ proxy, handle } = database);
  });
  afterAll(async () => {
    await database.close();
  });

  it(`should answer 503 for ${OUTAGE_SECONDS} s of outage and recover without a restart, losing nothing`, async () => {
    const t = createTestApp(handle);
    const admin = await aUser().admin().create(t.context.db);
    const token = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
    const createCode = (n: number) =>
      t.call('POST', '/api/v1/admin/redeem-codes', {
        token,
        body: { days: 7, maxUses: 1, notes: `outage ${n}` },
      });
    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await createCode(i);
      expect(res.status).toBe(201);
      acknowledged.push(`outage ${i}`);
    }

    await proxy.down();
    const until = Date.now() + OUTAGE_SECONDS * 1000;
    const statuses: Record<string, number> = {};
    let replies = 0;
    let withRetryAfter = 0;
    const worker = async (n: number) => {
      while (Date.now() < until) {
        const pick = n % 3;
        const res =
          pick === 0
            ? await t.call('GET', '/api/v1/me', { token })
            : pick === 1
              ? await t.call('POST', '/api/v1/auth/login', {
                  body: { username: admin.username, password: admin.password },
                })
              : await createCode(1000 + n);
        replies++;
        const body = errorBodySchema.safeParse(await res.json().catch(() => null));
        const key = `${res.status} ${body.success ? body.data.error.code : 'not the error shape'}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
        if (res.headers.get('retry-after')) withRetryAfter++;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await Promise.all([0, 1, 2, 3, 4, 5].map(worker));
    await proxy.up();

    const recoveredAt = Date.now();
    let back = await t.call('GET', '/api/v1/me', { token });
    while (back.status !== 200 && Date.now() - recoveredAt < 15_000) {
      await new Promise((r) => setTimeout(r, 200));
      back = await t.call('GET', '/api/v1/me', { token });
    }
    const recoverySeconds = (Date.now() - recoveredAt) / 1000;
    expect(back.status).toBe(200);
    expect((await createCode(99)).status).toBe(201);
    const stored = await t.context.db.select({ notes: redeemCodes.notes }).from(redeemCodes);
    const lost = acknowledged.filter((n) => !stored.some((s) => s.notes === n));
    const errorLogs = t.logs.lines().filter((l) => l.level === 'error' || l.level === 'fatal');

    recordFigures('database outage', {
      outageSeconds: OUTAGE_SECONDS,
      repliesDuringOutage: replies,
      byStatus: statuses,
      withRetryAfter,
      recoverySeconds,
      acknowledgedWritesLost: lost.length,
      errorLogLines: errorLogs.length,
    });
    expect(Object.keys(statuses)).toEqual(['503 DATABASE_UNAVAILABLE']);
    expect(withRetryAfter).toBe(replies);
    expect(lost).toEqual([]);
    expect(errorLogs).toEqual([]);
  }, 120_000);
});

describe('upstream systems down during write paths', () => {
  let env: ReliabilityEnv;
  beforeAll(async () => {
    env = await reliabilityEnv({ REGISTRATION_MODE: 'open', EMAIL_VERIFICATION: 'false' });
  });
  afterAll(() => env.close());

  it('should leave no half-created state when the media server or the automation is down', async () => {
    const admin = await env.admin();
    const outcomes: Record<string, string> = {};
    const mediaUsersBefore = env.media.state.users.size;
    await env.media.down();
    try {
      // Self-registration provisions the media account first: nothing local without it.
      const register = await env.send('POST', '/api/v1/auth/register', {
        body: { username: 'down_reg_1', password: 'Long-Enough-12', email: 'reg1@example.com' },
        headers: { 'x-forwarded-for': '198.51.100.200' },
      });
      env.passwords.push('Long-Enough-12');
      const registered = await env.t.context.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.username, 'down_reg_1'));
      outcomes.register = `${register.res.status}, users rows ${registered.length}`;
      expect([502, 503]).toContain(register.res.status);
      expect(registered).toHaveLength(0);

      // An admin-created member with a media account: the same rule.
      const created = await env.send('POST', '/api/v1/admin/users', {
        token: admin.token,
        body: {
          username: 'down_admin_1',
          password: 'Long-Enough-34',
          createMediaUser: true,
          neverExpires: true,
        },
      });
      env.passwords.push('Long-Enough-34');
      const createdRows = await env.t.context.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.username, 'down_admin_1'));
      outcomes.adminCreate = `${created.res.status}, users rows ${createdRows.length}`;
      expect(created.res.status).toBeGreaterThanOrEqual(400);
      expect(created.res.status).not.toBe(500);
      expect(createdRows).toHaveLength(0);
    } finally {
      await env.media.up();
    }
    expect(env.media.state.users.size).toBe(mediaUsersBefore);

    // Approval commits, then hands off to the automation; with it down the request stays
    // APPROVED with the hand-off error recorded for the retry, and MoviePilot has nothing.
    const member = await env.member();
    const created = await env.send('POST', '/api/v1/media-requests', {
      token: member.token,
      body: { type: 'MOVIE', tmdbId: 8_800_001, season: 0, name: 'Outage Film', year: 2021 },
    });
    expect(created.res.status).toBe(201);
    const requestId = (JSON.parse(created.text) as { request: { id: string } }).request.id;
    await env.mp.faults.down();
    try {
      const approved = await env.send('POST', `/api/v1/admin/media-requests/${requestId}/approve`, {
        token: admin.token,
      });
      await env.settle();
      const [row] = await env.t.context.db
        .select()
        .from(mediaRequests)
        .where(eq(mediaRequests.id, requestId));
      outcomes.approveAutomationDown = `${approved.res.status}, ${row!.status}, dispatched ${row!.dispatchedAt !== null}, error recorded ${row!.automationError !== null}`;
      expect(approved.res.status).toBe(200);
      expect(row!.status).toBe('APPROVED');
      expect(row!.dispatchedAt).toBeNull();
      expect(row!.automationError).not.toBeNull();
      expect(env.mp.state.subscriptions.some((s) => s.tmdbid === 8_800_001)).toBe(false);
    } finally {
      await env.mp.faults.up();
    }
    const [{ n }] = (
      (await env.t.context.db.execute(
        sql`select count(*)::int as n from users where username like 'down_%'`,
      )) as unknown as {
        rows: { n: number }[];
      }
    ).rows as [{ n: number }];
    recordFigures('upstream down during writes', { ...outcomes, halfCreatedUsers: n });
    expect(n).toBe(0);
    expect(secretFindings(env)).toEqual([]);
  });
});
