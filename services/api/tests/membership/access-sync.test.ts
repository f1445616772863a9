// Access sync (20-api.md §8.2) calls the media server with no transaction or connection held
// (docs/architecture.md, "media access sync"). These tests hold the outbound call on a promise
// the test controls, so the interleavings are deterministic and nothing really sleeps.
import { extendUserResponseSchema } from '@usher/contracts';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { mediaServerRetryQueue, type UserRow } from '../../src/db/schema/index.js';
import { queryRows } from '../../src/db/sql.js';
import { ENGINE, TEST_DATABASE_URL } from '../support/database.js';
import { callGate, within, type Held } from '../users/held-calls.js';
import { DAY, startWorld, type World } from '../users/helpers.js';
import { domainFlavours } from '../support/flavours.js';

// One flavour (support/flavours.ts): Emby.
describe.each(domainFlavours('emby'))(
  `media access sync without a held connection on %s (${ENGINE})`,
  (flavour) => {
    const gate = callGate();
    let w: World;

    beforeAll(async () => {
      w = await startWorld(flavour, { wrapMediaAccess: gate.wrap });
    });
    afterAll(async () => {
      await w.close();
    });
    afterEach(() => gate.releaseAll());

    /** An expired member whose media account is still enabled: the expiry job's target. */
    const dueMember = () => w.linkedMember({ expiresAt: new Date(Date.now() - 60_000) });
    /** The admin renewal (`POST /admin/users/:id/extend`), which runs access sync after commit. */
    const extend = async (member: UserRow, days: number) => {
      const res = await w.t.call('POST', `/api/v1/admin/users/${member.id}/extend`, {
        token: w.adminToken,
        body: { days },
      });
      expect(res.status).toBe(200);
      return extendUserResponseSchema.parse(await res.json());
    };
    const expectEnabledEverywhere = async (member: UserRow) => {
      expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(false);
      const row = await w.row(member.id);
      expect(row!.mediaDisabled).toBe(false);
      expect(row!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 29 * DAY);
      const queued = await w.t.context.db
        .select()
        .from(mediaServerRetryQueue)
        .where(eq(mediaServerRetryQueue.mediaUserId, member.mediaUserId!));
      expect(queued).toEqual([]);
    };

    it('should end enabled when a renewal completes while the expiry disable is in flight', async () => {
      const member = await dueMember();
      const disableHeld = gate.hold(member.mediaUserId!, true);
      const expiry = w.t.context.accessSync(member.id, 'expiry');
      const disable = await within(disableHeld, 3000, 'the expiry disable call');
      try {
        // The renewal commits and syncs to the end while the disable is still on its way.
        const renewal = await within(extend(member, 30), 3000, 'the renewal during the disable');
        expect(renewal.mediaSync).toBe('applied');
        expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(false);
      } finally {
        disable.release();
      }
      // The stale disable lands last; the expiry's re-check sees the renewal and enables again.
      await within(expiry, 3000, 'the expiry sync after its call');
      await expectEnabledEverywhere(member);
    }, 15_000);

    it('should end enabled when the expiry disable lands before the renewal enable', async () => {
      const member = await dueMember();
      const disableHeld = gate.hold(member.mediaUserId!, true);
      const enableHeld = gate.hold(member.mediaUserId!, false);
      const expiry = w.t.context.accessSync(member.id, 'expiry');
      const disable = await within(disableHeld, 3000, 'the expiry disable call');
      const renewal = extend(member, 30);
      let enable: Held | undefined;
      try {
        enable = await within(enableHeld, 3000, "the renewal's enable call during the disable");
        disable.release();
        // The disable lands, then its re-check finds the renewal and writes the enable itself.
        await within(expiry, 3000, 'the expiry sync after its call');
        expect(w.policyOf(member.mediaUserId!).IsDisabled).toBe(false);
      } finally {
        disable.release();
        enable?.release();
      }
      expect((await within(renewal, 3000, 'the renewal')).mediaSync).toBe('applied');
      await expectEnabledEverywhere(member);
    }, 15_000);

    it('should hold no database connection while a slow media server answers', async () => {
      // More members than the PostgreSQL pool has connections (5), each with its call held.
      const members = await Promise.all(Array.from({ length: 8 }, () => dueMember()));
      const held = members.map((m) => gate.hold(m.mediaUserId!, true));
      const syncs = members.map((m) => w.t.context.accessSync(m.id, 'expiry'));
      try {
        await within(Promise.all(held), 3000, 'eight media calls pending at once');
        // The database answers at once: on PGlite (one connection) this would wait for any open
        // transaction; no advisory lock of this database is held while the calls wait.
        const [locks] = await within(
          queryRows<{ n: number }>(
            w.t.context.db,
            sql`select count(*)::int as n from pg_locks where locktype = 'advisory'
              and database = (select oid from pg_database where datname = current_database())`,
          ),
          1000,
          'a query while the media calls wait',
        );
        expect(locks!.n).toBe(0);
        if (TEST_DATABASE_URL) {
          const pool = (w.t.context.db as unknown as { $client: pg.Pool }).$client;
          expect(pool.totalCount - pool.idleCount).toBe(0);
          expect(pool.waitingCount).toBe(0);
          const observer = new pg.Client({ connectionString: w.database.url });
          await observer.connect();
          try {
            const { rows } = await observer.query<{ n: number }>(
              `select count(*)::int as n from pg_stat_activity
             where datname = current_database() and pid <> pg_backend_pid()
               and state <> 'idle'`,
            );
            expect(rows[0]!.n).toBe(0);
          } finally {
            await observer.end();
          }
        }
      } finally {
        gate.releaseAll();
      }
      expect(await within(Promise.all(syncs), 5000, 'the syncs after release')).toEqual(
        members.map(() => 'applied'),
      );
      for (const m of members) {
        expect(w.policyOf(m.mediaUserId!).IsDisabled).toBe(true);
        expect((await w.row(m.id))!.mediaDisabled).toBe(true);
      }
    }, 15_000);
  },
);
