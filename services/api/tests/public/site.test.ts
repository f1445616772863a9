import { publicSiteSchema } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { bootstrapAdmin } from '../../src/bootstrap.js';
import { settings, users } from '../../src/db/schema/index.js';
import { createApp } from '../../src/app.js';
import { testConfig } from '../support/config.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { memoryLogger } from '../support/logs.js';

describe(`GET /api/v1/public/site (${ENGINE})`, () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.close();
  });

  const site = async (settingsEnv: Record<string, string> = {}) => {
    const { app } = createApp({
      config: testConfig(),
      database: database.handle,
      logger: memoryLogger().logger,
      replicaId: 'r',
      settingsEnv,
    });
    const res = await app.request('/api/v1/public/site');
    expect(res.status).toBe(200);
    return publicSiteSchema.parse(await res.json());
  };

  it('should report defaults, and setupPending until the bootstrap admin signs in', async () => {
    await bootstrapAdmin(database.handle.db, { logger: memoryLogger().logger });
    expect(await site()).toEqual({
      siteName: 'Usher',
      registrationMode: 'invite',
      emailEnabled: false,
      paymentsEnabled: false,
      mediaServerKind: 'emby',
      version: '9.9.9-test',
      setupPending: true,
      tmdbImageBase: 'https://image.tmdb.org/t/p',
      // Single sign-on is off until switched on (tests/sso).
      sso: { enabled: false, label: 'Sign in with SSO', autoRedirect: false, passwordLogin: true },
    });
    await database.handle.db
      .update(users)
      .set({ lastLoginAt: new Date() })
      .where(eq(users.username, 'admin'));
    expect((await site()).setupPending).toBe(false);
  });

  it('should prefer a stored value over the env var, and the env var over the default', async () => {
    const env = {
      SITE_NAME: 'Env Cinema',
      REGISTRATION_MODE: 'open',
      MEDIA_SERVER_KIND: 'jellyfin',
      SMTP_HOST: 'mail.example.org',
      SMTP_PORT: '587',
      SMTP_FROM: 'noreply@example.org',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      PUBLIC_WEB_URL: 'https://media.example.org',
      TMDB_IMAGE_BASE: 'http://127.0.0.1:9/t/p/',
    };
    expect(await site(env)).toMatchObject({
      siteName: 'Env Cinema',
      registrationMode: 'open',
      mediaServerKind: 'jellyfin',
      emailEnabled: true,
      // Keys alone do not sell anything: payments need a plan on sale (tests/payments).
      paymentsEnabled: false,
      tmdbImageBase: 'http://127.0.0.1:9/t/p',
    });
    await database.handle.db.insert(settings).values({ key: 'SITE_NAME', value: 'Stored Cinema' });
    expect((await site(env)).siteName).toBe('Stored Cinema');
    expect((await site({ ...env, SMTP_FROM: '', SMTP_USERNAME: 'user-no-at' })).emailEnabled).toBe(
      false,
    );
  });
});
