import { eq } from 'drizzle-orm';
import { AppError } from '../../src/errors/app-error.js';
import { mediaServerRetryQueue } from '../../src/db/schema/index.js';
import {
  assertUsernameAvailable,
  compensate,
  provisionMediaUser,
} from '../../src/modules/membership/index.js';
import { ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import { accountsEnv, type AccountsEnv } from './support.js';
import { domainFlavours } from '../support/flavours.js';

const failure = async (promise: Promise<unknown>): Promise<AppError> => {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

// One flavour (support/flavours.ts): Jellyfin 12 (the password in the create call,
// MaxActiveSessions); register.test.ts runs on Emby.
describe.each(domainFlavours('jellyfin'))(`account provisioning on %s (${ENGINE})`, (flavour) => {
  let env: AccountsEnv;
  beforeAll(async () => {
    env = await accountsEnv(flavour);
  });
  afterAll(async () => {
    await env.close();
  });
  beforeEach(() => env.media.clearFaults());

  it('should create the user with its password and the member policy, disabled as asked', async () => {
    await env.set('media_server', { MEMBER_STREAM_LIMIT: 2, MEMBER_ALLOW_DOWNLOADS: true });

    const made = await provisionMediaUser(env.t.context, {
      username: 'Prov_Alice',
      password: 'alice-Secret-1',
      disabled: true,
    });

    const user = env.mediaUser('prov_alice')!;
    expect(made).toEqual({ mediaUserId: user.id.replace(/-/g, '').toLowerCase(), disabled: true });
    expect(user.password).toBe('alice-Secret-1');
    expect(user.policy).toMatchObject({
      IsDisabled: true,
      IsAdministrator: false,
      IsHidden: true,
      EnableContentDeletion: false,
      EnableAllFolders: true,
      EnableContentDownloading: true,
      [flavour === 'emby' ? 'SimultaneousStreamLimit' : 'MaxActiveSessions']: 2,
    });
  });

  it('should delete the new user again when the policy step fails', async () => {
    env.media.fail(500, /Policy/, { method: 'POST' });

    const err = await failure(
      provisionMediaUser(env.t.context, {
        username: 'prov_bob',
        password: 'bob-Secret-1',
        disabled: false,
      }),
    );

    expect(err.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(err.details).toEqual({ system: 'media_server' });
    expect(env.mediaUser('prov_bob')).toBeUndefined();
    expect(env.media.requests('/Users/').some((r) => r.method === 'DELETE')).toBe(true);
  });

  it('should queue a delete retry when the clean-up delete fails too', async () => {
    env.media.fail(500, /Policy/, { method: 'POST' });
    env.media.fail(503, /Users\//, { method: 'DELETE' });

    await failure(
      provisionMediaUser(env.t.context, {
        username: 'prov_carol',
        password: 'carol-Secret-1',
        disabled: false,
      }),
    );

    const orphan = env.mediaUser('prov_carol')!;
    const id = orphan.id.replace(/-/g, '').toLowerCase();
    const rows = await env.t.context.db
      .select()
      .from(mediaServerRetryQueue)
      .where(eq(mediaServerRetryQueue.mediaUserId, id));
    expect(rows).toEqual([
      expect.objectContaining({
        operation: 'delete',
        origin: 'register_cleanup',
        status: 'pending',
        attempts: 0,
        userId: null,
      }),
    ]);
    const dueInMs = rows[0]!.nextAttemptAt.getTime() - Date.now();
    expect(dueInMs).toBeGreaterThan(15_000);
    expect(dueInMs).toBeLessThanOrEqual(31_000);
  });

  it('should report compensation as deleted, or queued when the server is down', async () => {
    const server = await env.t.context.integrations.mediaServer.get();
    const a = await server.createUser('prov_dan', 'pw-dan-123');
    const b = await server.createUser('prov_eve', 'pw-eve-123');

    expect(await compensate(env.t.context, a.id)).toBe('deleted');
    expect(env.mediaUser('prov_dan')).toBeUndefined();

    env.media.dropConnections(/Users\//, { method: 'DELETE' });
    expect(await compensate(env.t.context, b.id)).toBe('queued');
    const [row] = await env.t.context.db
      .select()
      .from(mediaServerRetryQueue)
      .where(eq(mediaServerRetryQueue.mediaUserId, b.id));
    expect(row).toMatchObject({ operation: 'delete', origin: 'register_cleanup' });
  });

  it('should refuse a username taken in Usher or on the media server, in any case', async () => {
    await aUser().named('Prov_Local').create(env.t.context.db);
    const server = await env.t.context.integrations.mediaServer.get();
    await server.createUser('Prov_Remote', 'pw-remote-1');

    expect((await failure(assertUsernameAvailable(env.t.context, 'prov_LOCAL'))).code).toBe(
      'USERNAME_TAKEN',
    );
    expect((await failure(assertUsernameAvailable(env.t.context, 'PROV_remote'))).code).toBe(
      'USERNAME_TAKEN',
    );
    await expect(assertUsernameAvailable(env.t.context, 'prov_free')).resolves.toBeUndefined();
  });

  it('should answer USERNAME_TAKEN when the name was taken on the server since the check', async () => {
    const server = await env.t.context.integrations.mediaServer.get();
    await server.createUser('Prov_Race', 'pw-race-123');

    const err = await failure(
      provisionMediaUser(env.t.context, {
        username: 'prov_race',
        password: 'race-Secret-1',
        disabled: false,
      }),
    );

    expect(err.code).toBe('USERNAME_TAKEN');
    expect(
      [...env.media.state.users.values()].filter((u) => /prov_race/i.test(u.name)),
    ).toHaveLength(1);
  });

  it('should answer 502 when the media server cannot be asked, and never log the password', async () => {
    env.media.fail(500, /Users/, { method: 'GET' });
    const err = await failure(assertUsernameAvailable(env.t.context, 'prov_any'));
    expect(err.code).toBe('UPSTREAM_UNAVAILABLE');

    env.media.fail(500, /Users\/New/);
    await failure(
      provisionMediaUser(env.t.context, {
        username: 'prov_fay',
        password: 'Fay-Very-Secret-99',
        disabled: false,
      }),
    );
    expect(env.t.logs.text()).not.toContain('Fay-Very-Secret-99');
  });
});
