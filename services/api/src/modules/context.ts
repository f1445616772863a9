import type { Logger } from 'pino';
import type { TokenSigner } from '../security/tokens.js';
import type { Config } from '../config/env.js';
import type { Database, DatabaseHandle } from '../db/client.js';
import type { Limiters } from '../http/rate-limit.js';
import type { AppMetrics } from '../metrics/registry.js';
import type { JobScheduler } from '../scheduler/scheduler.js';
import type { SettingsService } from '../settings-store/service.js';
import type { MediaSyncOutcome } from '@usher/contracts';
import type { RetryOrigin } from '../db/schema/retry-queue/constants.js';
import type { MediaAccessWriter } from '../integrations/media-server/port.js';
import type { AutomationFactory } from '../integrations/automation/factory.js';
import type { MailFactory } from '../integrations/mail/factory.js';
import type { MediaServerFactory } from '../integrations/media-server/factory.js';
import type { PaymentsFactory } from '../integrations/payments/factory.js';
import type { TmdbFactory } from '../integrations/tmdb/factory.js';
import type { Notifier } from '../notify/notifier.js';
import type { Background } from './background.js';

/**
 * The outbound adapters, each built from the current settings on `get()` (an edit in the settings
 * center applies on the next call) and throwing `not_configured` while its group is incomplete.
 */
export interface Integrations {
  mediaServer: MediaServerFactory;
  tmdb: TmdbFactory;
  automation: AutomationFactory;
  mail: MailFactory;
  payments: PaymentsFactory;
}

/** What route modules and services receive: built once per app by `createApp`. */
export interface ModuleContext {
  config: Config;
  db: Database;
  database: DatabaseHandle;
  logger: Logger;
  tokens: TokenSigner;
  limiters: Limiters;
  metrics: AppMetrics;
  replicaId: string;
  startedAt: Date;
  now: () => Date;
  /** Runtime settings (settings center): resolution, cache, validated writes. */
  settings: SettingsService;
  integrations: Integrations;
  /** The media server's access switch, built from the current settings on each use. */
  mediaAccess: () => Promise<MediaAccessWriter>;
  /** Media access sync of one user after a committed change (20-api.md §8.2). */
  accessSync: (userId: string, origin: RetryOrigin) => Promise<MediaSyncOutcome>;
  /** Runs jobs under leases; `main.ts` starts its timers once the port is open. */
  scheduler: JobScheduler;
  /** Events pushed to the bot after a commit (20-api.md §1.7): `push` is fire-and-forget. */
  notify: Notifier;
  /**
   * Work that outlives its reply (request hand-offs, account mails): the graceful stop in
   * `main.ts` waits for it, bounded, after the HTTP server has drained.
   */
  background: Background;
  /**
   * Environment fallbacks of runtime settings (30-settings.md §1: each key's env var of the same
   * name). Captured once at start, like the rest of the configuration.
   */
  settingsEnv: Record<string, string | undefined>;
}

export type { Caller, RequestMeta } from '../http/context.js';
