import type { FakeMediaServer } from '../../src/media-server/index.js';
import { dashed } from '../../src/media-server/index.js';
import { adminGet, adminHeaders, call, login, start, userHeaders } from './helpers.js';

interface UserDto {
  Id: string;
  Name: string;
  HasPassword: boolean;
  Policy: Record<string, unknown>;
}

describe('media-server fake: users (§1.4, §1.5)', () => {
  const servers: FakeMediaServer[] = [];
  const boot = async (...args: Parameters<typeof start>): Promise<FakeMediaServer> => {
    const s = await start(...args);
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  const post = (s: FakeMediaServer, path: string, body: unknown) =>
    call(s, 'POST', path, { headers: adminHeaders(s), body });

  it('should create an Emby user from {Name} only, ignoring a Password, then set it', async () => {
    const emby = await boot('emby');
    const created = await post(emby, '/Users/New', { Name: 'dave', Password: 'ignored' });
    expect(created.status).toBe(200);
    const user = created.json() as UserDto;
    expect(user).toMatchObject({ Name: 'dave', HasPassword: false });
    expect(user.Id).toMatch(/^[0-9a-f]{32}$/);
    expect((await login(emby, 'dave', 'ignored', 'd')).status).toBe(401);
    const pw = await post(emby, `/Users/${user.Id}/Password`, {
      Id: user.Id,
      NewPw: 'dave-pw',
      ResetPassword: false,
    });
    expect(pw.status).toBe(204);
    expect((await login(emby, 'dave', 'dave-pw', 'd')).status).toBe(200);
    const unknown = await post(emby, `/Users/${'0'.repeat(32)}/Password`, { NewPw: 'x' });
    expect(unknown.status).toBe(404);
  });

  it('should create a Jellyfin user with {Name, Password} and validate the name', async () => {
    const jf = await boot('jellyfin');
    const created = await post(jf, '/Users/New', { Name: "d.o'neil@x+y-1", Password: 'pw' });
    expect(created.status).toBe(200);
    expect((created.json() as UserDto).HasPassword).toBe(true);
    expect((await login(jf, "d.o'neil@x+y-1", 'pw', 'd')).status).toBe(200);
    for (const Name of ['bad/name', ' lead', 'semi;colon']) {
      const res = await post(jf, '/Users/New', { Name, Password: 'pw' });
      expect(res.status).toBe(400);
    }
    const dup = await post(jf, '/Users/New', { Name: 'ALICE', Password: 'pw' });
    expect(dup.status).toBe(400);
    expect(dup.text).toBe('Error processing request.');
  });

  it('should set a Jellyfin password by ?userId= and end the other sessions', async () => {
    const jf = await boot('jellyfin');
    const alice = jf.seeded?.users.alice;
    const token = jf.seeded?.tokens['alice-firefox'] ?? '';
    expect((await call(jf, 'GET', '/Sessions', { headers: userHeaders(jf, token) })).status).toBe(
      200,
    );
    const res = await post(jf, `/Users/Password?userId=${alice?.id}`, {
      CurrentPw: '',
      NewPw: 'new-pw',
      ResetPassword: false,
    });
    expect(res.status).toBe(204);
    expect((await call(jf, 'GET', '/Sessions', { headers: userHeaders(jf, token) })).status).toBe(
      401,
    );
    expect((await login(jf, 'alice', 'new-pw', 'd')).status).toBe(200);
    const unknown = await post(jf, `/Users/Password?userId=${'1'.repeat(32)}`, { NewPw: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.contentType).toMatch(/^application\/problem\+json/);
  });

  it('should keep the obsolete /Users/{id}/Password path on 10.11 only', async () => {
    const jf10 = await boot('jellyfin', { version: '10.11.0' });
    const jf12 = await boot('jellyfin');
    const body = { CurrentPw: '', NewPw: 'x', ResetPassword: false };
    expect((await post(jf10, `/Users/${jf10.seeded?.users.bob?.id}/Password`, body)).status).toBe(
      204,
    );
    expect((await post(jf12, `/Users/${jf12.seeded?.users.bob?.id}/Password`, body)).status).toBe(
      404,
    );
  });

  it('should read a Jellyfin user by dashed or 32-hex id and answer 32-hex', async () => {
    const jf = await boot('jellyfin');
    const id = jf.seeded?.users.bob?.id ?? '';
    const user = await adminGet<UserDto>(jf, `/Users/${dashed(id).toUpperCase()}`);
    expect(user.Id).toBe(id);
    expect(user.Policy).toHaveProperty('PasswordResetProviderId');
    expect((await call(jf, 'GET', '/Users/not-a-guid', { headers: adminHeaders(jf) })).status).toBe(
      400,
    );
    expect(
      (await call(jf, 'GET', `/Users/${'2'.repeat(32)}`, { headers: adminHeaders(jf) })).status,
    ).toBe(404);
  });

  it('should refuse a Jellyfin policy without provider ids (400 problem+json)', async () => {
    const jf = await boot('jellyfin');
    const id = jf.seeded?.users.alice?.id;
    const res = await post(jf, `/Users/${id}/Policy`, { IsDisabled: true });
    expect(res.status).toBe(400);
    expect(res.contentType).toMatch(/^application\/problem\+json/);
    const body = res.json() as { errors: Record<string, string[]> };
    expect(Object.keys(body.errors).sort()).toEqual([
      'AuthenticationProviderId',
      'PasswordResetProviderId',
    ]);
  });

  it('should replace the whole Jellyfin policy: omitted fields fall back to defaults', async () => {
    const jf = await boot('jellyfin');
    const id = jf.seeded?.users.bob?.id;
    const before = await adminGet<UserDto>(jf, `/Users/${id}`);
    expect(before.Policy['EnableAllFolders']).toBe(false);
    const { AuthenticationProviderId, PasswordResetProviderId } = before.Policy;
    const res = await post(jf, `/Users/${id}/Policy`, {
      AuthenticationProviderId,
      PasswordResetProviderId,
      EnableRemoteAccess: false,
    });
    expect(res.status).toBe(204);
    const after = await adminGet<UserDto>(jf, `/Users/${id}`);
    expect(after.Policy).toMatchObject({
      EnableRemoteAccess: false,
      EnableAllFolders: true,
      EnabledFolders: [],
    });
  });

  it('should refuse to disable a Jellyfin admin (403) and end tokens when disabling', async () => {
    const jf = await boot('jellyfin');
    const admin = await adminGet<UserDto>(jf, `/Users/${jf.seeded?.users.admin?.id}`);
    const res = await post(jf, `/Users/${admin.Id}/Policy`, { ...admin.Policy, IsDisabled: true });
    expect(res.status).toBe(403);
    const alice = await adminGet<UserDto>(jf, `/Users/${jf.seeded?.users.alice?.id}`);
    expect(
      (await post(jf, `/Users/${alice.Id}/Policy`, { ...alice.Policy, IsDisabled: true })).status,
    ).toBe(204);
    const token = jf.seeded?.tokens['alice-firefox'] ?? '';
    expect((await call(jf, 'GET', '/Sessions', { headers: userHeaders(jf, token) })).status).toBe(
      401,
    );
  });

  it('should keep only Guid entries in Emby EnabledFolders (numeric ids are dropped)', async () => {
    const emby = await boot('emby');
    const movies = emby.seeded?.libraries.movies;
    const shows = emby.seeded?.libraries.shows;
    const user = await adminGet<UserDto>(emby, `/Users/${emby.seeded?.users.alice?.id}`);
    const res = await post(emby, `/Users/${user.Id}/Policy`, {
      ...user.Policy,
      EnableAllFolders: false,
      EnabledFolders: [movies?.guid, shows?.id],
    });
    expect(res.status).toBe(204);
    const after = await adminGet<UserDto>(emby, `/Users/${user.Id}`);
    expect(after.Policy['EnabledFolders']).toEqual([movies?.guid]);
    expect(shows?.id).toMatch(/^\d+$/);
  });

  it.each(['emby', 'jellyfin'] as const)(
    'should delete a user with 204 and then answer 404 on %s',
    async (flavour) => {
      const s = await boot(flavour);
      const id = s.seeded?.users.carol?.id;
      expect((await call(s, 'DELETE', `/Users/${id}`, { headers: adminHeaders(s) })).status).toBe(
        204,
      );
      expect((await call(s, 'DELETE', `/Users/${id}`, { headers: adminHeaders(s) })).status).toBe(
        404,
      );
      expect((await call(s, 'GET', `/Users/${id}`, { headers: adminHeaders(s) })).status).toBe(404);
    },
  );

  it('should list users as {Items,TotalRecordCount} on Emby 4.8, a bare array on JF', async () => {
    const emby = await boot('emby');
    const jf = await boot('jellyfin');
    const q = await adminGet<{ Items: UserDto[]; TotalRecordCount: number }>(emby, '/Users/Query');
    expect(q.TotalRecordCount).toBe(4);
    expect(q.Items.map((u) => u.Name)).toEqual(['admin', 'alice', 'bob', 'carol']);
    expect((await call(emby, 'GET', '/Users', { headers: adminHeaders(emby) })).status).toBe(404);
    const list = await adminGet<UserDto[]>(jf, '/Users');
    expect(Array.isArray(list)).toBe(true);
    expect(list).toHaveLength(4);
  });

  it('should offer only the bare /Users list on Emby 4.7 (the adapter fallback)', async () => {
    const emby47 = await boot('emby', { version: '4.7.14.0' });
    expect(
      (await call(emby47, 'GET', '/Users/Query', { headers: adminHeaders(emby47) })).status,
    ).toBe(404);
    expect(Array.isArray(await adminGet(emby47, '/Users'))).toBe(true);
  });

  it('should refuse user administration to a non-admin user token', async () => {
    const jf = await boot('jellyfin');
    const token = jf.seeded?.tokens['alice-firefox'] ?? '';
    const res = await call(jf, 'POST', '/Users/New', {
      headers: userHeaders(jf, token),
      body: { Name: 'x' },
    });
    expect(res.status).toBe(403);
  });
});
