// Shared set-up of the payments suites: a database, the testkit's Stripe fake preset through
// the settings' env fallbacks (STRIPE_API_BASE points the SDK at it), a recording media-access
// writer and a stand-in bot that records every push.
import {
  serialiseStripeEvent as serialiseEvent,
  startFakeStripe,
  stripeSignatureHeader,
  type FakeStripe,
  type StripeEvent,
} from '@usher/testkit';
import { errorBodySchema, planSchema, type Plan } from '@usher/contracts';
import { settle } from '../../src/modules/background.js';
import type { MediaAccessWriter } from '../../src/modules/membership/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { testConfig } from '../support/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { aUser, type UserBuilder } from '../support/users.js';
import { startFakeBot, type FakeBot } from '../requests/harness.js';

export const WEB = 'https://media.example.org';
export const DAY = 86_400_000;

export interface Harness {
  database: TestDatabase;
  t: TestApp;
  stripe: FakeStripe;
  bot: FakeBot;
  /** Media-server writes the access sync made: [mediaUserId, disabled]. */
  writes: [string, boolean][];
  env: Record<string, string>;
  /** Another app on the same database, with some settings changed. */
  appWith(extra: Record<string, string>, options?: { checkoutDeadlineMs?: number }): TestApp;
  user(
    build?: (b: UserBuilder) => UserBuilder,
  ): Promise<{ id: string; username: string; token: string }>;
  admin(): Promise<{ id: string; username: string; token: string }>;
  /** Creates a plan through the admin route. */
  plan(adminToken: string, body?: Record<string, unknown>): Promise<Plan>;
  /** Signs `event` (or a changed payload) like Stripe and posts it to the webhook. */
  deliver(
    event: StripeEvent | string,
    options?: { timestampSeconds?: number; secret?: string; app?: TestApp },
  ): Promise<Response>;
  settle(app?: TestApp): Promise<void>;
  close(): Promise<void>;
}

export const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;

let plans = 0;

export async function startHarness(
  options: { checkoutDeadlineMs?: number; settings?: Record<string, string> } = {},
): Promise<Harness> {
  const database = await createTestDatabase();
  const [stripe, bot] = await Promise.all([startFakeStripe(), startFakeBot()]);
  const env: Record<string, string> = {
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
    PUBLIC_WEB_URL: WEB,
    ...options.settings,
  };
  const writes: [string, boolean][] = [];
  const writer: MediaAccessWriter = {
    setDisabled: async (id, disabled) => {
      writes.push([id, disabled]);
    },
  };
  const config = testConfig({ BOT_NOTIFY_URL: bot.url });
  const apps: TestApp[] = [];
  const appWith: Harness['appWith'] = (extra, more = {}) => {
    const app = createTestApp(database.handle, {
      config,
      settingsEnv: { ...env, ...extra },
      mediaAccess: async () => writer,
      checkoutDeadlineMs: more.checkoutDeadlineMs ?? options.checkoutDeadlineMs,
    });
    apps.push(app);
    return app;
  };
  const t = appWith({});
  const user: Harness['user'] = async (build = (b) => b) => {
    const row = await build(aUser()).create(t.context.db);
    const { token } = await t.context.tokens.sign({
      sub: row.id,
      role: row.role as 'user' | 'admin',
      ver: row.tokenVersion,
    });
    return { id: row.id, username: row.username, token };
  };
  return {
    database,
    t,
    stripe,
    bot,
    writes,
    env,
    appWith,
    user,
    admin: () => user((b) => b.admin()),
    async plan(adminToken, body = {}) {
      const res = await t.call('POST', '/api/v1/admin/plans', {
        token: adminToken,
        body: { name: `Plan ${++plans}`, days: 30, price: 500, currency: 'usd', ...body },
      });
      if (res.status !== 201) throw new Error(`plan: ${res.status} ${await res.text()}`);
      return planSchema.parse(await res.json());
    },
    deliver(event, o = {}) {
      const payload = typeof event === 'string' ? event : serialiseEvent(event);
      const timestamp = o.timestampSeconds ?? Math.floor(Date.now() / 1000);
      const signature = stripeSignatureHeader(
        payload,
        [o.secret ?? stripe.webhookSecret],
        timestamp,
      );
      return (o.app ?? t).call('POST', '/api/v1/webhooks/stripe', {
        body: payload,
        headers: { 'stripe-signature': signature },
      });
    },
    async settle(app = t) {
      await settle(app.context);
      await stripe.settled();
    },
    async close() {
      for (const app of apps) await settle(app.context);
      await stripe.close();
      await new Promise((r) => bot.server.close(r));
      await database.close();
    },
  };
}
