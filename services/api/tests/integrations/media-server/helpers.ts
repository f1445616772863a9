// Shared set-up for the media-server adapter tests: a testkit fake per test, an adapter built by
// the real factory, and a metrics registry plus an in-memory log to assert on.
import { createMetrics } from '../../../src/metrics/registry.js';
import { IntegrationError } from '../../../src/integrations/errors.js';
import {
  createMediaServer,
  type MediaServerConfig,
} from '../../../src/integrations/media-server/factory.js';
import type { MediaServer } from '../../../src/integrations/media-server/port.js';
import { startFakeMediaServer } from '@usher/testkit';
import type { FakeMediaServer, FakeMediaServerOptions } from '@usher/testkit';
import { memoryLogger } from '../../support/logs.js';

export const API_KEY = 'UsherTestKey0123456789abcdef';

/** The three behaviours the fake distinguishes (§1.8): Emby, Jellyfin 10.11, Jellyfin 12. */
export type Mode = 'emby' | 'jellyfin10' | 'jellyfin12';
export const MODES: readonly Mode[] = ['emby', 'jellyfin10', 'jellyfin12'];
/** Emby and the current Jellyfin: where 10.11 behaves the same, two flavours are enough. */
export const FLAVOURS: readonly Mode[] = ['emby', 'jellyfin12'];

export function fakeOptions(mode: Mode): Pick<FakeMediaServerOptions, 'flavour' | 'version'> {
  if (mode === 'emby') return { flavour: 'emby' };
  return { flavour: 'jellyfin', version: mode === 'jellyfin10' ? '10.11.6' : '12.0.0' };
}

export interface Env {
  fake: FakeMediaServer;
  adapter: MediaServer;
  metrics: ReturnType<typeof createMetrics>;
  logs: ReturnType<typeof memoryLogger>;
  /** A second adapter on the same fake with other settings (key, timeout, kind, URL). */
  adapterWith(config: Partial<MediaServerConfig>): MediaServer;
  seeded: NonNullable<FakeMediaServer['seeded']>;
}

/** Registers an afterEach that closes every fake a test started. */
export function harness(): (
  mode: Mode,
  extra?: Partial<FakeMediaServerOptions>,
  config?: Partial<MediaServerConfig>,
) => Promise<Env> {
  const open: FakeMediaServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((f) => f.close()));
  });
  return async (mode, extra = {}, config = {}) => {
    const fake = await startFakeMediaServer({
      ...fakeOptions(mode),
      apiKey: API_KEY,
      seed: true,
      ...extra,
    });
    open.push(fake);
    const metrics = createMetrics({ defaultMetrics: false });
    const logs = memoryLogger('debug');
    const deps = { metrics: metrics.integrations, logger: logs.logger };
    const base: MediaServerConfig = {
      kind: mode === 'emby' ? 'emby' : 'jellyfin',
      url: fake.url,
      apiKey: API_KEY,
      timeoutSeconds: 5,
      ...config,
    };
    const seeded = fake.seeded;
    if (!seeded) throw new Error('the fake was started without its seed');
    return {
      fake,
      adapter: createMediaServer(base, deps),
      metrics,
      logs,
      adapterWith: (c) => createMediaServer({ ...base, ...c }, deps),
      seeded,
    };
  };
}

/** The IntegrationError a promise rejects with (fails the test when it resolves). */
export async function failure(promise: Promise<unknown>): Promise<IntegrationError> {
  const outcome = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(outcome instanceof IntegrationError)) {
    throw new Error(`expected an IntegrationError, got ${String(outcome)}`);
  }
  return outcome;
}

/** `usher_integration_requests_total` for one label set (0 when never counted). */
export async function requestCount(
  env: Pick<Env, 'metrics'>,
  system: string,
  operation: string,
  outcome: string,
): Promise<number> {
  const { values } = await env.metrics.integrations.requests.get();
  const hit = values.find(
    (v) =>
      v.labels.system === system &&
      v.labels.operation === operation &&
      v.labels.outcome === outcome,
  );
  return hit?.value ?? 0;
}

/** Jellyfin's dashed "D" form of a 32-hex id. */
export function dashed(id: string): string {
  return [id.slice(0, 8), id.slice(8, 12), id.slice(12, 16), id.slice(16, 20), id.slice(20)].join(
    '-',
  );
}

/** Requests the adapter sent, without the Emby prefix, as `METHOD /Path`. */
export function sent(fake: FakeMediaServer, path?: string): string[] {
  return fake.requests(path).map((r) => `${r.method} ${r.path.replace(/^\/emby(?=\/)/i, '')}`);
}
