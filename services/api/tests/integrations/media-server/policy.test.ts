// Member policy (§1.5): the mapping per server, read-modify-write of the whole object, and the
// read-back check that raises POLICY_NOT_APPLIED (§8 risks 5, 6 and 7).
import {
  memberPolicyPatch,
  mergePolicy,
  PolicyNotAppliedError,
  policyMismatches,
} from '../../../src/integrations/media-server/policy.js';
import type { PolicyPatch } from '../../../src/integrations/media-server/port.js';
import { dashed, failure, FLAVOURS, harness, MODES, sent } from './helpers.js';

const TEMPLATE = {
  libraryIds: [] as string[],
  streamLimit: 2,
  allowDownloads: false,
  allowVideoTranscoding: false,
  allowAudioTranscoding: true,
  allowRemux: true,
  allowRemoteAccess: false,
};

describe('media-server adapters: member policy', () => {
  const boot = harness();

  it.each(MODES)('should map the member template onto %s fields (risk 7)', async (mode) => {
    const { fake, adapter, seeded } = await boot(mode);
    const alice = seeded.users.alice?.id ?? '';
    const stored = () => fake.state.users.get(alice)?.policy ?? {};
    // Something Usher does not manage: it must survive the whole-object POST (risk 5).
    stored()['EnableLiveTvAccess'] = false;
    const movies = (await adapter.libraries()).find((l) => l.name === 'Movies');
    const patch = memberPolicyPatch({ ...TEMPLATE, libraryIds: [movies?.id ?? ''] });
    await adapter.updatePolicy(alice, { ...patch, disabled: false });
    fake.clearRequests();
    expect(stored()).toMatchObject({
      IsAdministrator: false,
      IsHidden: true,
      EnableContentDeletion: false,
      IsDisabled: false,
      EnableAllFolders: false,
      EnabledFolders: [mode === 'emby' ? seeded.libraries.movies.guid : seeded.libraries.movies.id],
      EnableContentDownloading: false,
      EnableVideoPlaybackTranscoding: false,
      EnableAudioPlaybackTranscoding: true,
      EnablePlaybackRemuxing: true,
      EnableRemoteAccess: false,
      EnableLiveTvAccess: false,
    });
    if (mode === 'emby') {
      expect(stored()).toMatchObject({ SimultaneousStreamLimit: 2, EnableSyncTranscoding: false });
      expect(stored()).not.toHaveProperty('MaxActiveSessions');
    } else {
      expect(stored()).toMatchObject({ MaxActiveSessions: 2, EnableSyncTranscoding: true });
      expect(stored()).not.toHaveProperty('SimultaneousStreamLimit');
    }
  });

  it.each(FLAVOURS)(
    'should read, POST the whole %s policy, then read back (risk 5)',
    async (mode) => {
      const { fake, adapter, seeded } = await boot(mode);
      const bob = seeded.users.bob?.id ?? '';
      await adapter.updatePolicy(bob, { allowRemux: false });
      expect(sent(fake)).toEqual([
        `GET /Users/${bob}`,
        `POST /Users/${bob}/Policy`,
        `GET /Users/${bob}`,
      ]);
      const posted = fake.requests()[1]?.body as Record<string, unknown>;
      const before = Object.keys(fake.state.users.get(bob)?.policy ?? {}).sort();
      expect(Object.keys(posted).sort()).toEqual(before);
      expect(posted).toMatchObject({
        EnablePlaybackRemuxing: false,
        EnabledFolders: expect.any(Array),
      });
    },
  );

  it('should fill the provider ids Jellyfin insists on when the policy lacks them', async () => {
    const { fake, adapter, seeded } = await boot('jellyfin12');
    const alice = seeded.users.alice?.id ?? '';
    const policy = fake.state.users.get(alice)?.policy ?? {};
    delete policy['AuthenticationProviderId'];
    delete policy['PasswordResetProviderId'];
    await adapter.updatePolicy(alice, { disabled: true });
    expect(fake.state.users.get(alice)?.policy).toMatchObject({
      IsDisabled: true,
      AuthenticationProviderId: expect.stringContaining('DefaultAuthenticationProvider'),
      PasswordResetProviderId: expect.stringContaining('DefaultPasswordResetProvider'),
    });
  });

  it('should raise POLICY_NOT_APPLIED when Emby drops numeric library ids (risk 6)', async () => {
    const { fake, adapter, seeded } = await boot('emby');
    const alice = seeded.users.alice?.id ?? '';
    const numeric = seeded.libraries.movies.id;
    expect(numeric).toMatch(/^\d+$/);
    const err = await failure(
      adapter.updatePolicy(alice, { allLibraries: false, libraryIds: [numeric] }),
    );
    expect(err).toBeInstanceOf(PolicyNotAppliedError);
    expect(err).toMatchObject({
      kind: 'rejected',
      code: 'POLICY_NOT_APPLIED',
      fields: ['EnabledFolders'],
    });
    expect(err.message).toBe(
      'Emby did not apply the member policy: ' +
        'Emby ignored the library access: it needs library Guids, not numeric ids',
    );
    expect(err.toAppError()).toMatchObject({
      code: 'UPSTREAM_REJECTED',
      status: 422,
      details: { system: 'media_server', reason: 'POLICY_NOT_APPLIED', fields: ['EnabledFolders'] },
    });
    expect(fake.state.users.get(alice)?.policy['EnabledFolders']).toEqual([]);
  });

  it('should raise POLICY_NOT_APPLIED when Jellyfin says 204 but keeps the old state', async () => {
    const { fake, adapter, seeded } = await boot('jellyfin12');
    const carol = seeded.users.carol?.id ?? '';
    // Stands in for a lockout racing the update: the POST "succeeds", the user stays disabled.
    fake.fail(204, /\/Policy$/, { method: 'POST', body: '' });
    const err = await failure(adapter.updatePolicy(carol, { disabled: false }));
    expect(err).toMatchObject({ code: 'POLICY_NOT_APPLIED', fields: ['IsDisabled'] });
    expect(err.message).toContain('Jellyfin disables accounts after failed logins');
  });

  it('should accept dashed Jellyfin library ids and compare them normalised', async () => {
    const { fake, adapter, seeded } = await boot('jellyfin10');
    const alice = seeded.users.alice?.id ?? '';
    const id = seeded.libraries.shows.id;
    await adapter.updatePolicy(alice, {
      allLibraries: false,
      libraryIds: [dashed(id).toUpperCase()],
    });
    expect(fake.state.users.get(alice)?.policy['EnabledFolders']).toEqual([id]);
  });

  it.each(FLAVOURS)('should never write a %s administrator', async (mode) => {
    const { fake, adapter, seeded } = await boot(mode);
    const admin = seeded.users.admin?.id ?? '';
    const err = await failure(adapter.updatePolicy(admin, { disabled: true }));
    expect(err).toMatchObject({ kind: 'rejected', operation: 'update_policy' });
    expect(err.message).toContain('administrator');
    expect(sent(fake)).toEqual([`GET /Users/${admin}`]);
  });

  it('should turn a Jellyfin 403 on the policy into a refusal', async () => {
    const { fake, adapter, seeded } = await boot('jellyfin12');
    const alice = seeded.users.alice?.id ?? '';
    // Leave alice as the only enabled user: Jellyfin will not disable the last one.
    for (const u of fake.state.users.values()) if (u.id !== alice) u.policy['IsDisabled'] = true;
    const err = await failure(adapter.updatePolicy(alice, { disabled: true }));
    expect(err).toMatchObject({ kind: 'rejected', status: 403, operation: 'update_policy' });
    expect(err.toAppError()).toMatchObject({ code: 'UPSTREAM_REJECTED' });
  });

  it.each(FLAVOURS)('should report a policy update for nobody as not_found', async (mode) => {
    const { adapter } = await boot(mode);
    const err = await failure(adapter.updatePolicy('0123456789abcdef0123456789abcdef', {}));
    expect(err).toMatchObject({ kind: 'not_found' });
  });
});

describe('policy mapping', () => {
  it('should compare only IsDisabled, EnableAllFolders and the folder set', () => {
    const posted = { IsDisabled: false, EnableAllFolders: false, EnabledFolders: ['B', 'a'] };
    const stored = { ...posted, EnabledFolders: ['a', 'b'], Other: 1 };
    expect(policyMismatches(posted, stored)).toEqual([]);
    expect(policyMismatches(posted, { IsDisabled: true, EnableAllFolders: false })).toEqual([
      'IsDisabled',
      'EnabledFolders',
    ]);
  });

  it('should leave fields the patch does not name as they are', () => {
    const current = { IsDisabled: true, EnableRemoteAccess: false, Custom: 'x' };
    const next = mergePolicy('emby', current, { allowDownloads: true } satisfies PolicyPatch);
    expect(next).toEqual({
      IsDisabled: true,
      EnableRemoteAccess: false,
      Custom: 'x',
      IsAdministrator: false,
      EnableContentDeletion: false,
      IsHidden: true,
      EnableContentDownloading: true,
      EnableSyncTranscoding: true,
    });
  });

  it('should make an empty member library list mean all libraries', () => {
    expect(memberPolicyPatch(TEMPLATE)).toMatchObject({ allLibraries: true, libraryIds: [] });
    const some = memberPolicyPatch({ ...TEMPLATE, libraryIds: ['x'] });
    expect(some).toMatchObject({ allLibraries: false, libraryIds: ['x'], streamLimit: 2 });
  });
});
