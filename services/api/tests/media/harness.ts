// Set-up of the media suites: a database, the app pointed at a seeded testkit media server of
// either flavour through the settings' env fallbacks, one clock shared by the app and the fake,
// and helpers to link Usher users to the fake's seeded people.
import { startFakeMediaServer, type FakeMediaServer } from '@usher/testkit';
import { errorBodySchema } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import type { Config } from '../../src/config/env.js';
import type { JobDefinition } from '../../src/scheduler/scheduler.js';
import type { ModuleContext } from '../../src/modules/context.js';
import { users, type UserRow } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import type { SimulatedClock } from '../support/clock.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import type { Flavour } from '../support/flavours.js';
import { aUser } from '../support/users.js';

export { FLAVOURS, type Flavour } from '../support/flavours.js';
export const MEDIA_KEY = 'UsherTestKey0123456789abcdef';
export const HOUR = 3_600_000;

export interface MediaWorld {
  t: TestApp;
  fake: FakeMediaServer;
  database: TestDatabase;
  clock: { now: Date };
  admin: UserRow;
  adminToken: string;
  token(row: UserRow): Promise<string>;
  /** The Usher member linked to one of the fake's seeded users (created once). */
  member(seeded: 'alice' | 'bob'): Promise<UserRow>;
  /** A member with a chosen name, media link and other columns. */
  user(name: string, patch?: Partial<UserRow>): Promise<UserRow>;
  get(path: string, token?: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export async function startMediaWorld(
  flavour: Flavour,
  options: {
    now?: Date;
    serverZone?: string;
    businessZone?: string;
    configured?: boolean;
    /** More settings (env fallbacks), e.g. the ranking keys. */
    settings?: Record<string, string>;
    /** The app's configuration, e.g. with `BOT_NOTIFY_URL`. */
    config?: Config;
    /** Drives the app, the fake and the scheduler's timers instead of `clock.now`. */
    schedulerClock?: SimulatedClock;
    /** The jobs the scheduler knows (default: every module's). */
    jobs?: (context: ModuleContext) => JobDefinition[];
  } = {},
): Promise<MediaWorld> {
  const clock = { now: options.now ?? new Date() };
  const sim = options.schedulerClock;
  const now = sim ? () => sim.now() : () => clock.now;
  const serverZone = options.serverZone ?? 'UTC';
  const fake = await startFakeMediaServer({
    flavour,
    apiKey: MEDIA_KEY,
    seed: true,
    timeZone: serverZone,
    now,
  });
  const database = await createTestDatabase();
  const configured = options.configured ?? true;
  const t = createTestApp(database.handle, {
    now,
    ...(options.config ? { config: options.config } : {}),
    ...(sim ? { schedulerClock: sim } : {}),
    ...(options.jobs ? { jobs: options.jobs } : {}),
    settingsEnv: {
      MEDIA_SERVER_KIND: flavour,
      MEDIA_SERVER_URL: configured ? fake.url : '',
      MEDIA_SERVER_API_KEY: configured ? MEDIA_KEY : '',
      MEDIA_SERVER_TIMEOUT_SECONDS: '2',
      MEDIA_SERVER_TIMEZONE: serverZone,
      SCHEDULE_TIMEZONE: options.businessZone ?? 'UTC',
      ...options.settings,
    },
  });
  const token = async (row: UserRow) =>
    (
      await t.context.tokens.sign({
        sub: row.id,
        role: row.role as 'admin' | 'user',
        ver: row.tokenVersion,
      })
    ).token;
  const admin = await aUser().admin().named(`admin_${flavour}`).create(t.context.db);
  const members = new Map<string, Promise<UserRow>>();
  const user = async (name: string, patch: Partial<UserRow> = {}) => {
    const row = await aUser().named(name).create(t.context.db);
    if (Object.keys(patch).length === 0) return row;
    const [updated] = await t.context.db
      .update(users)
      .set(patch)
      .where(eq(users.id, row.id))
      .returning();
    return updated!;
  };
  return {
    t,
    fake,
    database,
    clock,
    admin,
    adminToken: await token(admin),
    token,
    member: (seeded) => {
      let row = members.get(seeded);
      if (!row) {
        row = user(seeded, { mediaUserId: fake.seeded!.users[seeded]!.id });
        members.set(seeded, row);
      }
      return row;
    },
    user,
    get: (path, tok, headers) => t.call('get', path, { ...(tok ? { token: tok } : {}), headers }),
    close: async () => {
      await t.context.scheduler.stop(1000);
      await fake.close();
      await database.close();
    },
  };
}

export async function errorOf(res: Response) {
  return errorBodySchema.parse(await res.json()).error;
}
