import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { SettingsReader } from '../settings-store/reader.js';
import { IntegrationError, type IntegrationErrorKind } from './errors.js';
import type { IntegrationMetrics } from '../metrics/integrations.js';

export type { SettingsReader };

/** What every adapter factory receives besides its settings. */
export interface IntegrationDeps {
  metrics?: IntegrationMetrics;
  logger?: Logger;
}

/** Outcome of an adapter's `probe()` (50-integrations.md §0): a failure is data, not a throw. */
export interface ProbeResult {
  ok: boolean;
  message: string;
  details: string[];
  /** Why it failed, when it did. */
  kind?: IntegrationErrorKind;
}

/**
 * Runs a probe body and turns an `IntegrationError` into a failed result. Anything else is a bug
 * and propagates.
 */
export async function probing(run: () => Promise<ProbeResult>): Promise<ProbeResult> {
  try {
    return await run();
  } catch (err) {
    // Upstream failures are the answer a probe exists to give; only those are caught.
    if (!(err instanceof IntegrationError)) throw err;
    return { ok: false, message: err.message, details: [], kind: err.kind };
  }
}

/** A stable digest of an adapter's settings; secrets only ever leave here hashed. */
export function settingsHash(settings: unknown): string {
  return createHash('sha256').update(JSON.stringify(settings)).digest('hex');
}

/**
 * Keeps one adapter per settings digest, so an edit in the settings center takes effect on the
 * next use without a restart while unchanged settings reuse the adapter (and its caches).
 */
export class PerSettings<S, A> {
  private current: { hash: string; adapter: A } | undefined;

  constructor(private readonly build: (settings: S) => A) {}

  get(settings: S): A {
    const hash = settingsHash(settings);
    if (this.current?.hash !== hash) this.current = { hash, adapter: this.build(settings) };
    return this.current.adapter;
  }
}

/** The error for a feature whose required settings are missing (30-settings.md §5). */
export function notConfigured(
  system: IntegrationError['system'],
  operation: string,
  missing: string[],
): IntegrationError {
  return new IntegrationError(
    system,
    operation,
    'not_configured',
    `Not configured: set ${missing.join(', ')} in the settings center`,
  );
}

/** Base URL without trailing slashes (50-integrations.md §0). */
export const trimBase = (url: string) => url.replace(/\/+$/, '');
