import type { SettingValue } from '@usher/contracts';
import type { SettingsReader } from '../../src/integrations/common.js';
import { IntegrationError } from '../../src/integrations/errors.js';
import { createMetrics } from '../../src/metrics/registry.js';
import { memoryLogger } from '../support/logs.js';

/** A settings reader over a plain object, editable between calls. */
export class MapSettings implements SettingsReader {
  constructor(readonly values: Record<string, SettingValue>) {}

  async get<T extends SettingValue = SettingValue>(key: string): Promise<T> {
    if (!(key in this.values)) throw new Error(`test settings lack ${key}`);
    return this.values[key] as T;
  }

  async getString(key: string): Promise<string> {
    return String(await this.get(key));
  }
}

/** Metrics and a memory logger, as adapters receive them from the app. */
export function integrationDeps() {
  const metrics = createMetrics({ defaultMetrics: false });
  const logs = memoryLogger('debug');
  return { deps: { metrics: metrics.integrations, logger: logs.logger }, metrics, logs };
}

/** The IntegrationError a promise rejects with (fails the test when it resolves). */
export async function integrationError(promise: Promise<unknown>): Promise<IntegrationError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome))
    throw new Error(`expected a rejection, got ${JSON.stringify(outcome)}`);
  expect(outcome.error).toBeInstanceOf(IntegrationError);
  return outcome.error as IntegrationError;
}
