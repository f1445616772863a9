// Every media-server write under the per-user media lock builds its client (which reads
// settings) inside the transaction. On the embedded database there is one connection: a settings
// query outside an open transaction waits for that transaction to end, so a read that queried
// there would hang the request for good. The settings cache is stale-while-revalidate, so such a
// read answers from the cache; a cache that is always stale (refresh 0 ms) is what a busy machine
// hits whenever the 10 s cache expires mid-request. Each case here hung before that fix.
import { eq, sql } from 'drizzle-orm';
import { mediaServerRetryQueue } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { startWorld, type World } from './helpers.js';
import { domainFlavours } from '../support/flavours.js';

// One flavour (support/flavours.ts): Jellyfin.
describe.each(domainFlavours('jellyfin'))(
  `media writes with an always-stale settings cache on %s (${ENGINE})`,
  (flavour) => {
    let w: World;

    beforeAll(async () => {
      w = await startWorld(flavour, { settingsRefreshMs: 0 });
    });
    afterAll(async () => {
      await w.close();
    });
    afterEach(() => w.fake.clearFaults());

    const call = (method: string, path: string, body: unknown) =>
      w.t.call(method, `/api/v1/admin/users${path}`, { token: w.adminToken, body });

    it('should switch media access off and on (access sync)', async () => {
      const member = await w.linkedMember();
      const off = await call('PUT', `/${member.id}/media-access`, { enabled: false });
      expect(off.status).toBe(200);
      expect(w.policyOf(member.mediaUserId!)['IsDisabled']).toBe(true);
      const on = await call('PUT', `/${member.id}/media-access`, { enabled: true });
      expect(on.status).toBe(200);
      expect(w.policyOf(member.mediaUserId!)['IsDisabled']).toBe(false);
    }, 15_000);

    it('should force a sync, with and without the policy template', async () => {
      const member = await w.linkedMember();
      expect((await call('POST', `/${member.id}/media-sync`, { policy: true })).status).toBe(200);
      expect((await call('POST', `/${member.id}/media-sync`, {})).status).toBe(200);
    }, 15_000);

    it('should let the retry job apply a queued change', async () => {
      const member = await w.linkedMember({ expiresAt: new Date(Date.now() - 1000) });
      w.fake.fail(503, /Policy/);
      expect(await w.t.context.accessSync(member.id, 'expiry')).toBe('queued');
      w.fake.clearFaults();
      await w.t.context.db
        .update(mediaServerRetryQueue)
        .set({ nextAttemptAt: sql`now() - interval '1 second'` })
        .where(eq(mediaServerRetryQueue.mediaUserId, member.mediaUserId!));
      const { done } = await w.t.context.scheduler.runNow('media_server_retry');
      expect(await done).toBe('succeeded');
      expect(w.policyOf(member.mediaUserId!)['IsDisabled']).toBe(true);
    }, 15_000);
  },
);
