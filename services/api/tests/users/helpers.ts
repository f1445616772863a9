// Shared set-up for the admin user and membership tests: a database, an app whose media-server
// settings point at a testkit fake of the chosen flavour, an admin and a few seeded members.
import { startFakeMediaServer, type FakeMediaServer } from '@usher/testkit';
import { errorBodySchema } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { auditLog, users, type UserRow } from '../../src/db/schema/index.js';
import type { MediaServer } from '../../src/integrations/media-server/port.js';
import type { MediaAccessWriter } from '../../src/modules/membership/access-sync.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import type { Flavour } from '../support/flavours.js';
import { aUser } from '../support/users.js';

export const API_KEY = 'UsherTestKey0123456789abcdef';
export const DAY = 86_400_000;

export { FLAVOURS, type Flavour } from '../support/flavours.js';

export interface World {
  database: TestDatabase;
  t: TestApp;
  fake: FakeMediaServer;
  admin: UserRow & { password: string };
  adminToken: string;
  /** A member token signed for `row` with its current token version. */
  tokenFor(row: Pick<UserRow, 'id' | 'role' | 'tokenVersion'>): Promise<string>;
  /** A member whose media account exists on the fake (enabled), linked in Usher. */
  linkedMember(options?: { expiresAt?: Date | null; disabled?: boolean }): Promise<UserRow>;
  /** The fake's policy of a media user. */
  policyOf(mediaUserId: string): Record<string, unknown>;
  row(id: string): Promise<UserRow | undefined>;
  actions(targetId: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startWorld(
  flavour: Flavour,
  options: {
    settingsRefreshMs?: number;
    /** Wraps the app's media access switch (the real adapter against the fake), e.g. to hold calls. */
    wrapMediaAccess?: (writer: MediaAccessWriter) => MediaAccessWriter;
    /**
     * Wraps the media-server adapter every `integrations.mediaServer.get()` returns (the default
     * access switch and the admin routes included), e.g. to hold `updatePolicy` or `deleteUser`.
     */
    wrapMediaServer?: (server: MediaServer) => MediaServer;
  } = {},
): Promise<World> {
  const fake = await startFakeMediaServer({ flavour, apiKey: API_KEY, seed: true });
  const database = await createTestDatabase();
  const wrap = options.wrapMediaAccess;
  // The same switch `createApp` builds by default, reached through the app created below.
  const mediaAccess = wrap
    ? async (): Promise<MediaAccessWriter> => {
        const server = await t.context.integrations.mediaServer.get();
        return wrap({
          setDisabled: (mediaUserId, disabled) => server.updatePolicy(mediaUserId, { disabled }),
        });
      }
    : undefined;
  const t: TestApp = createTestApp(database.handle, {
    mediaAccess,
    settingsRefreshMs: options.settingsRefreshMs,
    settingsEnv: {
      MEDIA_SERVER_KIND: flavour,
      MEDIA_SERVER_URL: fake.url,
      MEDIA_SERVER_API_KEY: API_KEY,
      MEDIA_SERVER_TIMEOUT_SECONDS: '2',
    },
  });
  if (options.wrapMediaServer) {
    const factory = t.context.integrations.mediaServer;
    const get = factory.get.bind(factory);
    const wrapServer = options.wrapMediaServer;
    factory.get = async () => wrapServer(await get());
  }
  const admin = await aUser().admin().create(t.context.db);
  const tokenFor = async (row: Pick<UserRow, 'id' | 'role' | 'tokenVersion'>) =>
    (
      await t.context.tokens.sign({
        sub: row.id,
        role: row.role as 'admin' | 'user',
        ver: row.tokenVersion,
      })
    ).token;
  let n = 0;
  return {
    database,
    t,
    fake,
    admin,
    adminToken: await tokenFor(admin),
    tokenFor,
    linkedMember: async (options = {}) => {
      n += 1;
      const name = `member_${flavour}_${n}_${Math.random().toString(36).slice(2, 7)}`;
      // Created through the real adapter, as registration would.
      const server = await t.context.integrations.mediaServer.get();
      const media = await server.createUser(name, 'media-pw-1');
      if (options.disabled) await server.updatePolicy(media.id, { disabled: true });
      const builder = aUser()
        .named(name)
        .linkedTo(media.id, {
          mediaDisabled: options.disabled ?? false,
        });
      if (options.expiresAt !== undefined) builder.expiresAt(options.expiresAt);
      return builder.create(t.context.db);
    },
    policyOf: (mediaUserId) => {
      const user = fake.state.users.get(mediaUserId);
      if (!user) throw new Error(`the fake has no user ${mediaUserId}`);
      return user.policy;
    },
    row: async (id) => (await t.context.db.select().from(users).where(eq(users.id, id)))[0],
    actions: async (targetId) =>
      (
        await t.context.db
          .select({ action: auditLog.action })
          .from(auditLog)
          .where(eq(auditLog.targetId, targetId))
      ).map((r) => r.action),
    close: async () => {
      await t.context.scheduler.stop(1000);
      await fake.close();
      await database.close();
    },
  };
}

/** The error of a reply, parsed with the shared error body schema. */
export async function errorOf(res: Response) {
  return errorBodySchema.parse(await res.json()).error;
}
