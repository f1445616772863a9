// Carries out the seed plan (seed-plan.ts) through the Usher API, the way an operator and their
// members would have: the admin sets a password, saves the settings that point at the fakes,
// brings the media users under Usher, creates redeem codes; members redeem codes, sign up with
// invites, link Telegram through the bot and request titles, which the admin then reviews. Only
// the media-server side of "bring under Usher" is done on the fake (adopt.ts).
import { adoptMediaUser, setAside } from './adopt.js';
import type { DemoFakes } from './fakes.js';
import { DEMO_ADMIN_TELEGRAM_ID, DEMO_MEMBER_TELEGRAM_ID } from './seed-plan.js';
import type { CodeKey, MemberPlan, RequestPlan, UsherSeedPlan } from './seed-plan.js';
import { commandMessage, privateChat, tgUser } from '../telegram/updates.js';
import { seedPayments } from './seed-payments.js';
import { seedDevicesAndQuality } from './seed-devices-quality.js';
import { seedCalendar } from './seed-calendar.js';
import { seedRankings } from './seed-rankings.js';
import type { Session } from './usher-client.js';
import { UsherApiError, UsherClient } from './usher-client.js';

export interface SeedUsherOptions {
  /** Where the API answers, e.g. http://127.0.0.1:8080. */
  apiUrl: string;
  /** The ADMIN_PASSWORD the API was started with (a change is due at first sign-in). */
  bootstrapPassword: string;
  /** The admin's password after the seeding, printed by the demo. */
  adminPassword: string;
  fakes: DemoFakes;
  plan: UsherSeedPlan;
  /**
   * Starts the bot once the settings are saved (its first read of them then already names the
   * approvers) and resolves true when it receives updates; Telegram links are made only then.
   */
  startBot: () => Promise<boolean>;
}

export interface SeededUsher {
  admin: { username: string; password: string; telegramId?: number };
  member: { username: string; password: string; telegramId?: number };
  users: number;
  codes: number;
  redemptions: number;
  requests: Record<'PENDING' | 'APPROVED' | 'REJECTED' | 'INGESTED', number>;
  /** Payments by status (plans and checkouts through the Stripe fake). */
  payments?: Record<'pending' | 'completed' | 'expired' | 'failed', number>;
}

interface CreatedUser {
  user: { id: string; media: { mediaUserId: string | null } };
}
interface CreatedRequest {
  request: { id: string; status: string };
}
interface Page {
  total: number;
}

/** Runs `fn` over `items`, `size` at a time (the API hashes a password per account). */
async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) {
    await Promise.all(items.slice(i, i + size).map(fn));
  }
}

/** The settings center's groups, filled with what the fakes listen on (30-settings.md §4). */
function settingsFor(fakes: DemoFakes): Record<string, Record<string, unknown>> {
  const env = fakes.env;
  const pick = (...keys: string[]) =>
    Object.fromEntries(keys.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
  return {
    general: { SITE_NAME: 'Usher Demo', REGISTRATION_MODE: 'invite', ...pick('PUBLIC_WEB_URL') },
    media_server: pick(
      'MEDIA_SERVER_KIND',
      'MEDIA_SERVER_URL',
      'MEDIA_SERVER_API_KEY',
      'MEDIA_SERVER_WEBHOOK_TOKEN',
      'MEDIA_SERVER_TIMEZONE',
    ),
    metadata: pick('TMDB_API_KEY', 'TMDB_API_BASE', 'TMDB_IMAGE_BASE'),
    automation: pick(
      'AUTOMATION_KIND',
      'AUTOMATION_URL',
      'MOVIEPILOT_USERNAME',
      'MOVIEPILOT_PASSWORD',
    ),
    email: {
      ...pick('SMTP_HOST', 'SMTP_SECURITY', 'SMTP_USERNAME', 'SMTP_PASSWORD', 'SMTP_FROM'),
      SMTP_PORT: Number(env.SMTP_PORT),
    },
    payment: pick('STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'),
    messenger: {
      ...pick('MESSENGER_ADMIN_CHAT_ID', 'MESSENGER_GROUP_CHAT_ID'),
      MESSENGER_APPROVER_IDS: [String(DEMO_ADMIN_TELEGRAM_ID)],
      MESSENGER_GROUP_LINK: 'https://t.me/+UsherDemoMovieNight',
    },
  };
}

export async function seedUsher(options: SeedUsherOptions): Promise<SeededUsher> {
  const { fakes, plan } = options;
  const api = new UsherClient(options.apiUrl);
  const media = fakes.mediaServer.state;

  // The bootstrap admin must choose a password before anything else (20-api.md §1.3).
  const first = await api.signIn('admin', options.bootstrapPassword);
  await api.call('PUT', '/api/v1/me/password', {
    session: first,
    body: { currentPassword: options.bootstrapPassword, newPassword: options.adminPassword },
  });
  const admin = await api.signIn('admin', options.adminPassword);

  for (const [group, values] of Object.entries(settingsFor(fakes))) {
    await api.call('PUT', `/api/v1/admin/settings/${group}`, { session: admin, body: { values } });
  }
  const botReady = options.startBot();
  // The admin's own account on the server is the world's administrator.
  const serverAdmin = fakes.loaded.userIds.get('admin');
  if (serverAdmin) {
    await api.call('PUT', '/api/v1/admin/current/media-binding', {
      session: admin,
      body: { mediaUserId: serverAdmin },
    });
  }

  await inBatches(plan.members, 4, async (m: MemberPlan) => {
    const worldId = fakes.loaded.userIds.get(m.username);
    if (!worldId) throw new Error(`no media user ${m.username} in the demo world`);
    setAside(media, worldId);
    const created = await api.call<CreatedUser>('POST', '/api/v1/admin/users', {
      session: admin,
      body: {
        username: m.username,
        password: m.password,
        email: m.email,
        role: 'user',
        ...(m.expiresAt ? { expiresAt: m.expiresAt } : { neverExpires: true }),
        mediaAccessDisabled: m.mediaAccessDisabled,
        createMediaUser: true,
      },
    });
    adoptMediaUser(media, worldId, created.user.media.mediaUserId!);
  });
  // A second administrator, and a friend of the house who has no media account (yet).
  await api.call('POST', '/api/v1/admin/users', {
    session: admin,
    body: { username: 'curator', email: 'curator@example.com', role: 'admin' },
  });
  await api.call('POST', '/api/v1/admin/users', {
    session: admin,
    body: {
      username: 'visitor',
      email: 'visitor@example.com',
      role: 'user',
      expiresAt: new Date(fakes.world.now.getTime() + 14 * 86_400_000).toISOString(),
      createMediaUser: false,
    },
  });

  const codes = new Map<CodeKey, string[]>();
  for (const c of plan.codes) {
    const fields = {
      days: c.days,
      maxUses: c.maxUses,
      notes: c.notes,
      ...(c.validForDays
        ? { expiresAt: new Date(Date.now() + c.validForDays * 86_400_000).toISOString() }
        : {}),
    };
    const made =
      c.count > 1
        ? (
            await api.call<{ data: { code: string }[] }>(
              'POST',
              '/api/v1/admin/redeem-codes/batch',
              {
                session: admin,
                body: { count: c.count, ...fields },
              },
            )
          ).data
        : [
            await api.call<{ code: string }>('POST', '/api/v1/admin/redeem-codes', {
              session: admin,
              body: fields,
            }),
          ];
    codes.set(
      c.key,
      made.map((r) => r.code),
    );
  }
  const codeOf = (key: CodeKey, index: number) => {
    const code = codes.get(key)?.[index];
    if (!code) throw new Error(`the seed plan uses ${key}[${index}], which was not created`);
    return code;
  };

  const passwords = new Map(plan.members.map((m) => [m.username, m.password]));
  const sessions = new Map<string, Promise<Session>>();
  const sessionOf = (username: string) => {
    let s = sessions.get(username);
    if (!s) {
      s = api.signIn(username, passwords.get(username)!);
      sessions.set(username, s);
    }
    return s;
  };

  // Telegram links go through the bot, as a member's `/bind 123456` would.
  const botUp = await botReady;
  const linked = new Map<string, number>();
  if (botUp) {
    const people = [
      {
        session: admin,
        id: DEMO_ADMIN_TELEGRAM_ID,
        name: 'Admin',
        chat: fakes.env.MESSENGER_ADMIN_CHAT_ID,
      },
      {
        session: await sessionOf(plan.featured),
        id: DEMO_MEMBER_TELEGRAM_ID,
        name: plan.featured,
        chat: fakes.env.MESSENGER_GROUP_CHAT_ID,
      },
    ];
    for (const p of people) {
      const from = tgUser({
        id: p.id,
        first_name: capitalise(p.name),
        username: `${p.name.toLowerCase()}_demo`,
      });
      fakes.telegram.seedChat(privateChat(from));
      if (p.chat)
        fakes.telegram.setMember(
          Number(p.chat),
          from,
          p.id === DEMO_ADMIN_TELEGRAM_ID ? 'administrator' : 'member',
        );
      const { code } = await api.call<{ code: string }>('POST', '/api/v1/me/messenger/bind-code', {
        session: p.session,
      });
      const { deliveries } = await fakes.telegram.pushUpdate(
        commandMessage({ from, command: 'bind', args: code }),
      );
      const me = await api.call<{ messenger: { bound: boolean } }>('GET', '/api/v1/me', {
        session: p.session,
      });
      if (!me.messenger.bound) {
        throw new Error(
          `the bot did not link Telegram ${p.id} to ${p.session.username} ` +
            `(webhook answered ${deliveries.map((d) => d.status).join(', ')})`,
        );
      }
      linked.set(p.session.username, p.id);
    }
  }

  for (const r of plan.registrations) {
    await api.call('POST', '/api/v1/auth/register', {
      body: {
        username: r.username,
        password: r.password,
        email: r.email,
        code: codeOf(r.code, r.index),
      },
    });
  }
  for (const r of plan.redemptions) {
    await api.call('POST', '/api/v1/me/redeem', {
      session: await sessionOf(r.username),
      body: { code: codeOf(r.code, r.index) },
    });
  }

  for (const r of plan.requests)
    await playRequest(api, admin, await sessionOf(r.requester), r, fakes);
  const payments = await seedPayments({
    api,
    admin,
    sessionOf,
    members: plan.members,
    stripe: fakes.stripe,
  });
  await seedDevicesAndQuality(api, admin);
  await seedCalendar(api, admin, await sessionOf(plan.featured));
  await seedRankings(api, admin);

  const count = async (path: string) =>
    (await api.call<Page>('GET', path, { session: admin })).total;
  const requests = { PENDING: 0, APPROVED: 0, REJECTED: 0, INGESTED: 0 };
  for (const status of Object.keys(requests) as (keyof typeof requests)[]) {
    requests[status] = await count(`/api/v1/admin/media-requests?status=${status}&pageSize=1`);
  }
  const featured = plan.members.find((m) => m.username === plan.featured)!;
  return {
    admin: { username: 'admin', password: options.adminPassword, telegramId: linked.get('admin') },
    member: {
      username: featured.username,
      password: featured.password,
      telegramId: linked.get(featured.username),
    },
    users: await count('/api/v1/admin/users?pageSize=1'),
    codes: await count('/api/v1/admin/redeem-codes?status=all&pageSize=1'),
    redemptions: await count('/api/v1/admin/redemptions?pageSize=1'),
    requests,
    payments,
  };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One request from creation to its planned state, through the member's and the admin's routes. */
async function playRequest(
  api: UsherClient,
  admin: Session,
  member: Session,
  r: RequestPlan,
  fakes: DemoFakes,
): Promise<void> {
  const body = {
    type: r.type,
    tmdbId: r.tmdbId,
    season: r.season,
    name: r.name,
    year: r.year,
    posterPath: r.posterPath,
    ...(r.note ? { note: r.note } : {}),
  };
  let created: CreatedRequest;
  try {
    created = await api.call<CreatedRequest>('POST', '/api/v1/media-requests', {
      session: member,
      body,
    });
  } catch (err) {
    // A title the server already has in part (a season of a show): the member confirms.
    if (!(err instanceof UsherApiError && err.status === 409)) throw err;
    created = await api.call<CreatedRequest>('POST', '/api/v1/media-requests', {
      session: member,
      body: { ...body, confirmExisting: true },
    });
  }
  const id = created.request.id;
  if (r.outcome === 'pending') return;
  if (r.outcome === 'rejected' || r.outcome === 'resubmitted') {
    await api.call('POST', `/api/v1/admin/media-requests/${id}/reject`, {
      session: admin,
      body: { reason: r.reason },
    });
    if (r.outcome === 'resubmitted') {
      await api.call('POST', `/api/v1/media-requests/${id}/resubmit`, {
        session: member,
        body: { note: r.resubmitNote },
      });
    }
    return;
  }
  await api.call('POST', `/api/v1/admin/media-requests/${id}/approve`, { session: admin });
  if (r.outcome !== 'ingested') return;
  // The download lands: the server adds the movie and fires its webhook at Usher (§8.5).
  const res = await fetch(`${fakes.mediaServer.url}/__fake/items`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 'Movie',
      name: r.name,
      ...(r.year ? { year: r.year } : {}),
      tmdbId: String(r.tmdbId),
    }),
  });
  if (res.status !== 201)
    throw new Error(`the media-server fake refused the new item (${res.status})`);
  // Normally the webhook has already moved it to INGESTED (then this answers 409); if the
  // webhook was missed, the admin's "verify" finds the movie in the library.
  await api.call('POST', `/api/v1/admin/media-requests/${id}/verify-ingest`, {
    session: admin,
    expect: [200, 409],
  });
}
