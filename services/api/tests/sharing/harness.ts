// Set-up for the account-sharing tests: a media-server fake of the given flavour (its live
// sessions placed with public or private addresses), the SMTP fake, a stand-in bot, and an app
// whose clock the test moves.
import {
  addLiveSession,
  startFakeMediaServer,
  startFakeSmtp,
  type FakeMediaServer,
  type FakeSmtp,
  type FakeSession,
} from '@usher/testkit';
import type { SettingValue } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  jobRuns,
  payments,
  plans,
  sharingEvents,
  sharingObservations,
  users,
} from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { testConfig } from '../support/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import type { Flavour } from '../support/flavours.js';
import { aUser } from '../support/users.js';
import { startFakeBot, type FakeBot } from '../requests/harness.js';

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
const MEDIA_KEY = 'UsherSharingKey0123456789abcd';

/** Public addresses the shipped DB-IP database places in these cities (checked in geo.test.ts). */
export const BERLIN = '85.214.132.117';
export const BERLIN_2 = '141.20.1.1';
export const SYDNEY = '1.1.1.1';

export interface Member {
  id: string;
  username: string;
  email: string;
  mediaUserId: string;
}

export interface SharingEnv {
  t: TestApp;
  database: TestDatabase;
  settingsEnv: Record<string, string>;
  media: FakeMediaServer;
  smtp: FakeSmtp;
  bot: FakeBot;
  adminToken: string;
  now(): Date;
  advance(ms: number): void;
  set(values: Record<string, SettingValue | null>): Promise<void>;
  member(options?: { locale?: 'en' | 'zh-CN'; maxStreams?: number }): Promise<Member>;
  /** A client of the member playing a film from `address` on `deviceId`. */
  play(member: Member, deviceId: string, address: string): FakeSession;
  /** The playing clients report progress (Jellyfin lists sessions active in the last 16 min). */
  keepPlaying(): void;
  runWatch(): Promise<{ status: string; summary: Record<string, unknown> }>;
  events(userId: string): Promise<(typeof sharingEvents.$inferSelect)[]>;
  /** Clears sessions, observations and events between tests. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function sharingEnv(
  flavour: Flavour,
  start = new Date('2026-12-07T10:00:00.000Z'),
): Promise<SharingEnv> {
  let at = start.getTime();
  const now = () => new Date(at);
  const media = await startFakeMediaServer({ flavour, apiKey: MEDIA_KEY, seed: true, now });
  const smtp = await startFakeSmtp({});
  const bot = await startFakeBot();
  const database = await createTestDatabase();
  const settingsEnv = {
    SITE_NAME: 'Cinema Club',
    PUBLIC_WEB_URL: 'https://usher.example',
    SMTP_HOST: smtp.host,
    SMTP_PORT: String(smtp.port),
    SMTP_SECURITY: 'none',
    SMTP_FROM: 'Usher <no-reply@usher.example>',
    MEDIA_SERVER_KIND: flavour,
    MEDIA_SERVER_URL: media.url,
    MEDIA_SERVER_API_KEY: MEDIA_KEY,
    MEDIA_SERVER_TIMEOUT_SECONDS: '2',
  };
  const t = createTestApp(database.handle, {
    config: testConfig({ BOT_NOTIFY_URL: bot.url }),
    now,
    settingsEnv,
  });
  const admin = await aUser().admin().create(t.context.db);
  const adminToken = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
  const film = [...media.state.items.values()].find((i) => i.type === 'Movie')!;
  let seq = 0;
  return {
    t,
    database,
    settingsEnv,
    media,
    smtp,
    bot,
    adminToken,
    now,
    advance: (ms) => {
      at += ms;
    },
    set: async (values) => {
      await t.context.settings.update(
        'sharing',
        values,
        { type: 'system', id: null, label: 'test' },
        { ip: null, requestId: 'test' },
      );
    },
    member: async (options = {}) => {
      const name = `viewer_${++seq}`;
      const server = await t.context.integrations.mediaServer.get();
      const mediaUser = await server.createUser(name, 'media-pw-1');
      const row = await aUser()
        .named(name)
        .withEmail(`${name}@example.org`)
        .linkedTo(mediaUser.id)
        .expiresAt(new Date(at + 365 * 86_400_000))
        .create(t.context.db);
      if (options.locale) {
        await t.context.db
          .update(users)
          .set({ locale: options.locale })
          .where(eq(users.id, row.id));
      }
      if (options.maxStreams !== undefined) {
        const planId = uuidv7();
        await t.context.db.insert(plans).values({
          id: planId,
          name: `Plan ${seq}`,
          days: 30,
          price: 500,
          currency: 'eur',
          maxStreams: options.maxStreams,
        });
        await t.context.db.insert(payments).values({
          id: uuidv7(),
          userId: row.id,
          planId,
          username: name,
          planName: `Plan ${seq}`,
          amount: 500,
          currency: 'eur',
          days: 30,
          status: 'completed',
          expiresAt: new Date(at + HOUR),
          completedAt: new Date(at - HOUR),
        });
      }
      return {
        id: row.id,
        username: name,
        email: `${name}@example.org`,
        mediaUserId: mediaUser.id,
      };
    },
    play: (member, deviceId, address) =>
      addLiveSession(media.state, {
        userId: member.mediaUserId,
        deviceId,
        deviceName: `Device ${deviceId}`,
        client: 'Emby Web',
        remoteEndPoint: address,
        itemId: film.id,
      }),
    keepPlaying: () => {
      for (const s of media.state.sessions.values()) s.lastActivity = now();
    },
    runWatch: async () => {
      const { runId, done } = await t.context.scheduler.runNow('sharing_watch');
      const status = await done;
      const [row] = await t.context.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
      return { status, summary: row!.summary as Record<string, unknown> };
    },
    events: (userId) =>
      t.context.db.select().from(sharingEvents).where(eq(sharingEvents.userId, userId)),
    reset: async () => {
      media.state.sessions.clear();
      media.state.sessionCommands.length = 0;
      await t.context.db.delete(sharingEvents);
      await t.context.db.delete(sharingObservations);
      at += 2 * HOUR;
    },
    close: async () => {
      await t.context.notify.idle();
      await database.close();
      await Promise.all([media.close(), smtp.close(), new Promise((r) => bot.server.close(r))]);
    },
  };
}

/**
 * The hooks of a sharing suite: one env for the suite, reset before each test with `settings`
 * (the sharing group) applied. The returned object stands for the env once `beforeAll` ran.
 */
export function useSharingEnv(
  flavour: Flavour,
  settings: Record<string, SettingValue | null>,
): SharingEnv {
  let current: SharingEnv | undefined;
  beforeAll(async () => {
    current = await sharingEnv(flavour);
  }, 60_000);
  afterAll(async () => {
    await current?.close();
  });
  beforeEach(async () => {
    await current!.reset();
    await current!.set({ SHARING_ENABLED: true, ...settings });
  });
  return new Proxy({} as SharingEnv, {
    get: (_target, key) => current![key as keyof SharingEnv],
  });
}
