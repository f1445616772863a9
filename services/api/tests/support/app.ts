import type { Logger } from 'pino';
import { createApp, type UsherApp } from '../../src/app.js';
import type { Config } from '../../src/config/env.js';
import type { DatabaseHandle } from '../../src/db/client.js';
import type { JobDefinition, JobScheduler, SchedulerClock } from '../../src/scheduler/scheduler.js';
import type { ModuleContext } from '../../src/modules/context.js';
import type { MediaAccessWriter } from '../../src/modules/membership/access-sync.js';
import { testConfig } from './config.js';
import { memoryLogger } from './logs.js';

export interface TestApp extends UsherApp {
  config: Config;
  logs: ReturnType<typeof memoryLogger>;
  /** Sends a request through the whole app (no socket); JSON bodies are encoded for you. */
  call(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
}

export function createTestApp(
  database: DatabaseHandle,
  options: {
    config?: Config;
    logger?: Logger;
    replicaId?: string;
    now?: () => Date;
    scheduler?: JobScheduler;
    schedulerClock?: SchedulerClock;
    jobs?: (context: ModuleContext) => JobDefinition[];
    settingsEnv?: Record<string, string>;
    settingsRefreshMs?: number;
    mediaAccess?: () => Promise<MediaAccessWriter>;
    connectionTestDeadlineMs?: number;
    checkoutDeadlineMs?: number;
    ssoDeadlineMs?: number;
  } = {},
): TestApp {
  const logs = memoryLogger();
  const config = options.config ?? testConfig();
  const built = createApp({
    config,
    database,
    logger: options.logger ?? logs.logger,
    replicaId: options.replicaId ?? 'test-replica',
    now: options.now,
    scheduler: options.scheduler,
    schedulerClock: options.schedulerClock,
    jobs: options.jobs,
    settingsEnv: options.settingsEnv,
    settingsRefreshMs: options.settingsRefreshMs,
    mediaAccess: options.mediaAccess,
    connectionTestDeadlineMs: options.connectionTestDeadlineMs,
    checkoutDeadlineMs: options.checkoutDeadlineMs,
    ssoDeadlineMs: options.ssoDeadlineMs,
  });
  return {
    ...built,
    config,
    logs,
    call: (method, path, { token, body, headers = {} } = {}) => {
      // fetch upper-cases only some methods; `patch` would stay lower case and match no route.
      const init: RequestInit = { method: method.toUpperCase(), headers: { ...headers } };
      if (token) (init.headers as Record<string, string>).authorization = `Bearer ${token}`;
      if (body !== undefined) {
        (init.headers as Record<string, string>)['content-type'] = 'application/json';
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
      }
      return Promise.resolve(built.app.request(path, init));
    },
  };
}
