import type { SettingCheck, SettingCheckStatus } from '@usher/contracts';
import type { Config } from '../../../config/env.js';
import type { IntegrationDeps, ProbeResult, SettingsReader } from '../../../integrations/common.js';
import { IntegrationError } from '../../../integrations/errors.js';

/** What one group's connection test receives. */
export interface TestContext {
  /** The stored settings with the request's draft overlaid. */
  settings: SettingsReader;
  deps: IntegrationDeps;
  config: Config;
  /** Env fallbacks captured at start; `STRIPE_API_BASE` lives only here. */
  env: Record<string, string | undefined>;
  /** The group's bound per check (media server: its own timeout; others 10 s). */
  timeoutMs: number;
  now: () => Date;
  /** Email group: where to send a test message. */
  to?: string;
}

export type GroupTest = (ctx: TestContext) => Promise<SettingCheck[]>;

export interface CheckResult {
  status: SettingCheckStatus;
  message: string;
}

export const ok = (message: string): CheckResult => ({ status: 'ok', message });
export const warn = (message: string): CheckResult => ({ status: 'warn', message });
export const fail = (message: string): CheckResult => ({ status: 'fail', message });

/** An adapter probe as a check: a failed probe fails the check. */
export const fromProbe = (probe: ProbeResult): CheckResult =>
  probe.ok ? ok(probe.message) : fail(probe.message);

/**
 * Runs one check within `timeoutMs` and times it. An `IntegrationError` (for instance
 * `not_configured`) becomes a failed check; a check still running at the bound fails with a
 * timeout message while its call is left to its own, shorter-lived timeout.
 */
export async function runCheck(
  target: string,
  timeoutMs: number,
  run: () => Promise<CheckResult>,
): Promise<SettingCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(
      () => resolve(fail(`No answer within ${Math.round(timeoutMs / 100) / 10} s`)),
      timeoutMs,
    );
  });
  let result: CheckResult;
  try {
    result = await Promise.race([run(), bound]);
  } catch (err) {
    // Adapters signal upstream and configuration problems by throwing; those are results here.
    if (!(err instanceof IntegrationError)) throw err;
    result = fail(err.message);
  } finally {
    clearTimeout(timer);
  }
  return {
    target,
    status: result.status,
    message: result.message,
    latencyMs: Math.max(0, Math.round(performance.now() - started)),
  };
}
