// One member's life through the HTTP API, end to end, on each media-server flavour — both, always
// (the domain suites run on one flavour each, see support/flavours.ts). The admin sets the member
// template and hands out an invite code; the member registers with it, signs in, reads /me and
// renews with a second code; the membership runs out and the hourly `expiry_check`, fired by the
// scheduler on a simulated clock, switches the media account off; the admin extends the
// membership and it is on again. Every step is checked on the fake media server too, the side
// effect that matters. Time is simulated (the app's, the fake's and the scheduler's): no sleeps.
import {
  extendUserResponseSchema,
  jobRunSchema,
  loginResponseSchema,
  mediaServerLibraryListSchema,
  pageOf,
  redeemCodeSchema,
  redeemResponseSchema,
  registerResponseSchema,
  userSchema,
  type User,
} from '@usher/contracts';
import { EXPIRY_JOB } from '../../src/modules/membership/expiry.js';
import { membershipJobs } from '../../src/modules/membership/index.js';
import { startMediaWorld, type MediaWorld } from '../media/harness.js';
import { SimulatedClock } from '../support/clock.js';
import { ENGINE } from '../support/database.js';
import { FLAVOURS } from '../support/flavours.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const PASSWORD = 'Journey-Pass-42';

describe.each(FLAVOURS)(`a member's journey on %s (${ENGINE})`, (flavour) => {
  let w: MediaWorld;
  let clock: SimulatedClock;
  const settle = () => w.t.context.scheduler.idle();
  const username = `journey_${flavour}`;
  /** Grows as the journey goes: the member as the API last showed them, and their token. */
  let member: User;
  let token: string;
  let moviesLibrary: string;

  const call = (method: string, path: string, options: { token?: string; body?: unknown } = {}) =>
    w.t.call(method, `/api/v1${path}`, options);
  const json = async (res: Response, status = 200): Promise<unknown> => {
    expect(res.status).toBe(status);
    return res.json();
  };
  const asAdmin = (method: string, path: string, body?: unknown) =>
    call(method, `/admin${path}`, { token: w.adminToken, body });
  const newCode = async (days: number) =>
    redeemCodeSchema.parse(await json(await asAdmin('POST', '/redeem-codes', { days }), 201)).code;
  const me = async () => userSchema.parse(await json(await call('GET', '/me', { token })));
  /** The member's account on the fake media server. */
  const account = () => {
    const found = w.fake.state.users.get(member.media.mediaUserId!);
    if (!found) throw new Error(`the fake has no user ${member.media.mediaUserId}`);
    return found;
  };
  const policyWrites = () =>
    w.fake
      .requests('/Policy')
      .filter((r) => r.method === 'POST' && r.path.includes(member.media.mediaUserId!));
  const inDays = (from: string | Date, days: number) =>
    new Date(new Date(from).getTime() + days * DAY).toISOString();

  beforeAll(async () => {
    // Tokens are checked against the real clock: start there, and stay within their 7 days.
    clock = new SimulatedClock(new Date());
    w = await startMediaWorld(flavour, {
      schedulerClock: clock,
      // Only expiry_check, on its default hourly cron: the retry worker's one-minute interval
      // would add a run per simulated minute.
      jobs: (context) => membershipJobs(context).filter((job) => job.name === EXPIRY_JOB),
    });
    // The member registers at half past an hour, so the end two days later is never within the
    // minute before an hourly slot (started at 08:00:30, the scheduler would also run at 08:00).
    const now = clock.now().getTime();
    await clock.advanceTo(new Date(Math.ceil((now - HOUR / 2) / HOUR) * HOUR + HOUR / 2), settle);
  });
  afterAll(async () => w.close());

  it('should register with an invite code, the media account enabled on the member template', async () => {
    // The admin picks the template (the Movies library, two streams) and hands out a code.
    const libraries = mediaServerLibraryListSchema.parse(
      await json(await asAdmin('GET', '/media-server/libraries')),
    );
    moviesLibrary = libraries.data.find((l) => l.name === 'Movies')!.id;
    const template = { MEMBER_LIBRARY_IDS: [moviesLibrary], MEMBER_STREAM_LIMIT: 2 };
    await json(await asAdmin('PUT', '/settings/media_server', { values: template }));
    const invite = await newCode(1);

    const res = await call('POST', '/auth/register', {
      body: { username, password: PASSWORD, email: `${username}@example.org`, code: invite },
    });

    const registered = registerResponseSchema.parse(await json(res, 201));
    member = registered.user;
    expect(member).toMatchObject({
      username,
      registeredVia: 'invite',
      isExpired: false,
      media: { linked: true, state: 'enabled' },
    });
    expect(member.expiresAt).toBe(inDays(clock.now(), 1));
    // On the media server: the account, its password, and the template as that server spells it.
    expect(account()).toMatchObject({ name: username, password: PASSWORD });
    expect(account().policy).toMatchObject({
      IsDisabled: false,
      IsAdministrator: false,
      IsHidden: true,
      EnableAllFolders: false,
      EnabledFolders: [moviesLibrary],
      [flavour === 'emby' ? 'SimultaneousStreamLimit' : 'MaxActiveSessions']: 2,
    });
  });

  it('should sign in and show the membership on /me', async () => {
    const res = await call('POST', '/auth/login', { body: { username, password: PASSWORD } });
    const login = loginResponseSchema.parse(await json(res));
    token = login.token;
    expect(login.user.id).toBe(member.id);
    expect(await me()).toMatchObject({
      id: member.id,
      expiresAt: member.expiresAt,
      isExpired: false,
      media: { linked: true, mediaUserId: member.media.mediaUserId, state: 'enabled' },
    });
  });

  it('should move the expiry with a renewal code, the account staying as it is', async () => {
    const renewal = await newCode(1);
    w.fake.clearRequests();

    const res = await call('POST', '/me/redeem', { token, body: { code: renewal } });

    // Still running: the days add to the current end, and the media server has nothing to do.
    expect(redeemResponseSchema.parse(await json(res))).toEqual({
      days: 1,
      previousExpiresAt: member.expiresAt,
      expiresAt: inDays(member.expiresAt!, 1),
      mediaSync: 'none',
    });
    member = await me();
    expect(member.expiresAt).toBe(inDays(clock.now(), 2));
    expect(policyWrites()).toEqual([]);
    expect(account().policy['IsDisabled']).toBe(false);
  });

  it('should switch the media account off at the first hourly expiry_check after the end', async () => {
    const end = new Date(member.expiresAt!).getTime();
    const slot = Math.ceil(end / HOUR) * HOUR;
    // Two days pass. The scheduler starts a minute before the end: the hours before would only
    // add runs that find nobody.
    await clock.advanceTo(new Date(end - 60_000), settle);
    await w.t.context.scheduler.start();
    expect(account().policy['IsDisabled']).toBe(false);

    await clock.advanceTo(new Date(slot + 60_000), settle);

    expect(account().policy['IsDisabled']).toBe(true);
    expect(policyWrites()).toHaveLength(1);
    expect(await me()).toMatchObject({ isExpired: true, media: { state: 'disabled_expired' } });
    const runs = pageOf(jobRunSchema).parse(
      await json(await asAdmin('GET', `/jobs/${EXPIRY_JOB}/runs`)),
    );
    expect(runs.data).toEqual([
      expect.objectContaining({
        trigger: 'schedule',
        scheduledFor: new Date(slot).toISOString(),
        status: 'succeeded',
        summary: expect.objectContaining({ checked: 1, disabled: 1, queued: 0 }),
      }),
    ]);
  });

  it('should switch it on again when the admin extends the membership', async () => {
    w.fake.clearRequests();

    const res = await asAdmin('POST', `/users/${member.id}/extend`, { days: 30 });

    // An ended membership restarts from now.
    const extended = extendUserResponseSchema.parse(await json(res));
    expect(extended).toMatchObject({
      previousExpiresAt: member.expiresAt,
      expiresAt: inDays(clock.now(), 30),
      mediaSync: 'applied',
      user: { isExpired: false, media: { state: 'enabled' } },
    });
    // The whole policy was written back: only IsDisabled changed.
    expect(account().policy).toMatchObject({
      IsDisabled: false,
      EnabledFolders: [moviesLibrary],
      [flavour === 'emby' ? 'SimultaneousStreamLimit' : 'MaxActiveSessions']: 2,
    });
    expect(policyWrites()).toHaveLength(1);
    expect(await me()).toMatchObject({ isExpired: false, media: { state: 'enabled' } });

    // The next hourly run leaves the renewed member alone.
    w.fake.clearRequests();
    await clock.advanceBy(HOUR, settle);
    const runs = pageOf(jobRunSchema).parse(
      await json(await asAdmin('GET', `/jobs/${EXPIRY_JOB}/runs`)),
    );
    expect(runs.data.map((r) => r.status)).toEqual(['skipped', 'succeeded']);
    expect(policyWrites()).toEqual([]);
    expect(account().policy['IsDisabled']).toBe(false);
  });
});
