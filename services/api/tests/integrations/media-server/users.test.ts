// Users: authenticate, create, password, read, delete and list (§1.4), with the guards for
// §8 risks 3 (Emby create has no password), 4 (password paths, Jellyfin ends sessions) and 9
// (stable DeviceId, check tokens ended).
import { MEDIA_SEED_PASSWORDS } from '@usher/testkit';
import { usherDeviceId } from '../../../src/integrations/media-server/port.js';
import { dashed, failure, FLAVOURS, harness, MODES, sent } from './helpers.js';

describe('media-server adapters: users', () => {
  const boot = harness();

  it.each(MODES)('should check a %s password and end the token it got', async (mode) => {
    const { fake, adapter, seeded } = await boot(mode);
    const deviceId = usherDeviceId('42');
    const result = await adapter.authenticate('alice', MEDIA_SEED_PASSWORDS.alice, { deviceId });
    expect(result).toEqual({ userId: seeded.users.alice?.id });
    expect(sent(fake)).toEqual(['POST /Users/AuthenticateByName', 'POST /Sessions/Logout']);
    const [login, logout] = fake.requests();
    expect(login?.body).toEqual({ Username: 'alice', Pw: MEDIA_SEED_PASSWORDS.alice });
    const list = 'Client="Usher", Device="Usher", DeviceId="usher-42", Version="0.0.0-dev"';
    expect(login?.headers['authorization']).toBe(`MediaBrowser ${list}`);
    if (mode === 'emby') {
      expect(login?.headers['x-emby-authorization']).toBe(`Emby UserId="", ${list}`);
      expect(logout?.credential).toBe('x-emby-token');
    } else {
      // A token in the login header would make Jellyfin replace Client and DeviceId.
      expect(login?.headers).not.toHaveProperty('x-emby-authorization');
      expect(logout?.credential).toBe('authorization:MediaBrowser');
    }
    expect(logout?.status).toBe(204);
    const left = [...fake.state.devices.values()].filter((d) => d.deviceId === deviceId);
    expect(left.every((d) => d.token === undefined)).toBe(true);
  });

  it.each(FLAVOURS)(
    'should keep one %s device per DeviceId across logins (risk 9)',
    async (mode) => {
      const { fake, adapter } = await boot(mode);
      const o = { deviceId: usherDeviceId('7'), keepToken: true };
      const first = await adapter.authenticate('bob', MEDIA_SEED_PASSWORDS.bob, o);
      const second = await adapter.authenticate('bob', MEDIA_SEED_PASSWORDS.bob, o);
      expect(first.token).toEqual(expect.any(String));
      expect(second.token).not.toBe(first.token);
      const devices = [...fake.state.devices.values()].filter((d) => d.deviceId === 'usher-7');
      expect(devices).toHaveLength(1);
      expect(devices[0]?.token).toBe(second.token);
      expect(sent(fake, '/Sessions/Logout')).toEqual([]);
    },
  );

  it.each(MODES)('should refuse a wrong %s password as rejected, not as auth', async (mode) => {
    const { adapter } = await boot(mode);
    const err = await failure(adapter.authenticate('alice', 'nope', { deviceId: 'usher-1' }));
    expect(err).toMatchObject({ kind: 'rejected', status: 401, operation: 'authenticate' });
    expect(err.message).toContain('wrong user name or password');
    expect(err.toAppError()).toMatchObject({ code: 'UPSTREAM_REJECTED' });
  });

  it.each(FLAVOURS)('should report a disabled %s account as a 403 refusal', async (mode) => {
    const { adapter } = await boot(mode);
    const pw = MEDIA_SEED_PASSWORDS.carol;
    const err = await failure(adapter.authenticate('carol', pw, { deviceId: 'usher-3' }));
    expect(err).toMatchObject({ kind: 'rejected', status: 403 });
    expect(err.message).toContain('disabled, locked out or at its session limit');
  });

  it('should surface a Jellyfin lockout after failed logins as 403', async () => {
    const { adapter, fake, seeded } = await boot('jellyfin12');
    const o = { deviceId: 'usher-5' };
    for (let i = 0; i < 3; i++) await failure(adapter.authenticate('bob', 'wrong', o));
    const err = await failure(adapter.authenticate('bob', MEDIA_SEED_PASSWORDS.bob, o));
    expect(err.status).toBe(403);
    expect(fake.state.users.get(seeded.users.bob?.id ?? '')?.policy['IsDisabled']).toBe(true);
  });

  it('should create an Emby user in two calls, the password second (risk 3)', async () => {
    const { fake, adapter } = await boot('emby');
    const user = await adapter.createUser('dave', 'dave-pass');
    expect(user).toMatchObject({ name: 'dave', hasPassword: true, isAdministrator: false });
    expect(user.id).toMatch(/^[0-9a-f]{32}$/);
    expect(sent(fake)).toEqual(['POST /Users/New', `POST /Users/${user.id}/Password`]);
    const [create, password] = fake.requests();
    expect(create?.body).toEqual({ Name: 'dave' });
    expect(password?.body).toEqual({ Id: user.id, NewPw: 'dave-pass', ResetPassword: false });
    await expect(adapter.authenticate('dave', 'dave-pass', { deviceId: 'x' })).resolves.toEqual({
      userId: user.id,
    });
  });

  it('should delete the Emby user again when the password step fails (risk 3)', async () => {
    const { fake, adapter } = await boot('emby');
    fake.fail(500, /\/Password$/);
    const err = await failure(adapter.createUser('erin', 'erin-pass'));
    expect(err).toMatchObject({ kind: 'http_5xx', operation: 'set_password' });
    const [create, password, cleanup] = fake.requests();
    expect([create?.method, password?.method, cleanup?.method]).toEqual(['POST', 'POST', 'DELETE']);
    expect(cleanup?.status).toBe(204);
    expect([...fake.state.users.values()].map((u) => u.name)).not.toContain('erin');
  });

  it.each(['jellyfin10', 'jellyfin12'] as const)(
    'should create a %s user in one call with the password',
    async (mode) => {
      const { fake, adapter } = await boot(mode);
      const user = await adapter.createUser('dave', 'dave-pass');
      expect(user).toMatchObject({ name: 'dave', hasPassword: true });
      expect(sent(fake)).toEqual(['POST /Users/New']);
      expect(fake.requests()[0]?.body).toEqual({ Name: 'dave', Password: 'dave-pass' });
      // New Jellyfin users see every library until the member policy is applied (§1.5).
      expect(user.policy['EnableAllFolders']).toBe(true);
    },
  );

  it.each(FLAVOURS)('should refuse a taken %s user name as rejected', async (mode) => {
    const { adapter } = await boot(mode);
    const err = await failure(adapter.createUser('alice', 'x'));
    expect(err).toMatchObject({ kind: 'rejected', status: 400, operation: 'create_user' });
  });

  it('should refuse a name Jellyfin does not allow', async () => {
    const { adapter } = await boot('jellyfin12');
    await expect(failure(adapter.createUser('bad/name', 'x'))).resolves.toMatchObject({
      kind: 'rejected',
    });
  });

  it('should set an Emby password on the path form, keeping other sessions', async () => {
    const { fake, adapter, seeded } = await boot('emby');
    const alice = seeded.users.alice?.id ?? '';
    await adapter.setPassword(alice, 'new-pass');
    const [req] = fake.requests();
    expect(`${req?.method} ${req?.path}`).toBe(`POST /emby/Users/${alice}/Password`);
    expect(req?.body).toEqual({ Id: alice, NewPw: 'new-pass', ResetPassword: false });
    expect(fake.state.users.get(alice)?.password).toBe('new-pass');
    expect(fake.state.devices.get('d:alice-firefox')?.token).toBe(seeded.tokens['alice-firefox']);
  });

  it.each(['jellyfin10', 'jellyfin12'] as const)(
    'should set a %s password on the query form; Jellyfin ends the sessions (risk 4)',
    async (mode) => {
      const { fake, adapter, seeded } = await boot(mode);
      const alice = seeded.users.alice?.id ?? '';
      await adapter.setPassword(dashed(alice), 'new-pass');
      const [req] = fake.requests();
      expect(`${req?.method} ${req?.path}`).toBe('POST /Users/Password');
      expect(req?.query).toEqual({ userId: alice });
      expect(req?.body).toEqual({ CurrentPw: '', NewPw: 'new-pass', ResetPassword: false });
      expect(fake.state.users.get(alice)?.password).toBe('new-pass');
      const tokens = [...fake.state.devices.values()].filter((d) => d.userId === alice);
      expect(tokens.filter((d) => d.token)).toEqual([]);
    },
  );

  it.each(FLAVOURS)('should report a %s password change for nobody as not_found', async (mode) => {
    const { adapter } = await boot(mode);
    const err = await failure(adapter.setPassword('0123456789abcdef0123456789abcdef', 'x'));
    expect(err).toMatchObject({ kind: 'not_found', status: 404 });
  });

  it.each(FLAVOURS)('should read a %s user with its raw policy, ids normalised', async (mode) => {
    const { adapter, seeded } = await boot(mode);
    const bob = seeded.users.bob?.id ?? '';
    const user = await adapter.getUser(mode === 'emby' ? bob.toUpperCase() : dashed(bob));
    expect(user).toMatchObject({
      id: bob,
      name: 'bob',
      hasPassword: true,
      disabled: false,
      isAdministrator: false,
      policy: expect.objectContaining({ EnableAllFolders: false, IsHidden: true }),
    });
    expect(user?.lastLoginAt).toBeUndefined();
    await adapter.authenticate('bob', MEDIA_SEED_PASSWORDS.bob, { deviceId: 'usher-9' });
    const after = await adapter.getUser(bob);
    expect(after?.lastLoginAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it.each(FLAVOURS)('should answer null for an unknown %s user', async (mode) => {
    const { adapter } = await boot(mode);
    await expect(adapter.getUser('0123456789abcdef0123456789abcdef')).resolves.toBeNull();
  });

  it('should not ask Jellyfin about an id that is no GUID', async () => {
    const { fake, adapter } = await boot('jellyfin12');
    await expect(adapter.getUser('1234')).resolves.toBeNull();
    expect(fake.requests()).toHaveLength(0);
  });

  it.each(FLAVOURS)('should delete a %s user, and count a missing one as deleted', async (mode) => {
    const { fake, adapter, seeded } = await boot(mode);
    const alice = seeded.users.alice?.id ?? '';
    await adapter.deleteUser(alice);
    await adapter.deleteUser(alice);
    expect(fake.requests().map((r) => `${r.method} ${r.status}`)).toEqual([
      'DELETE 204',
      'DELETE 404',
    ]);
    expect(fake.state.users.has(alice)).toBe(false);
  });

  it.each(FLAVOURS)('should list %s users in either list shape', async (mode) => {
    const { fake, adapter } = await boot(mode);
    const users = await adapter.listUsers();
    expect(users.map((u) => [u.name, u.isAdministrator, u.disabled])).toEqual([
      ['admin', true, false],
      ['alice', false, false],
      ['bob', false, false],
      ['carol', false, true],
    ]);
    expect(sent(fake)).toEqual([mode === 'emby' ? 'GET /Users/Query' : 'GET /Users']);
  });

  it('should fall back to /Users on Emby 4.7, once', async () => {
    const { fake, adapter } = await boot('emby', { version: '4.7.14.0' });
    await expect(adapter.listUsers()).resolves.toHaveLength(4);
    await expect(adapter.listUsers()).resolves.toHaveLength(4);
    expect(sent(fake)).toEqual(['GET /Users/Query', 'GET /Users', 'GET /Users']);
  });
});
