import type { SettingCheck, SettingCheckReason, SettingCheckStatus } from '@usher/contracts';
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
  /** The whole test's limit (10 s): pass it to every `runCheck`, race it where there is none. */
  deadline: TestDeadline;
  now: () => Date;
  /** The registered jobs and the cron setting each follows (schedule group). */
  jobs?: { name: string; scheduleSetting?: string }[];
  /** Email group: where to send a test message. */
  to?: string;
}

export type GroupTest = (ctx: TestContext) => Promise<SettingCheck[]>;

export interface CheckResult {
  status: SettingCheckStatus;
  message: string;
  /** Why it did not pass, when known (translated by the web). */
  reason?: SettingCheckReason;
}

export const ok = (message: string): CheckResult => ({ status: 'ok', message });
export const warn = (message: string, reason?: SettingCheckReason): CheckResult => ({
  status: 'warn',
  message,
  ...(reason ? { reason } : {}),
});
export const fail = (message: string, reason?: SettingCheckReason): CheckResult => ({
  status: 'fail',
  message,
  ...(reason ? { reason } : {}),
});

/** An adapter probe as a check: a failed probe fails the check, with the failure's kind. */
export const fromProbe = (probe: ProbeResult): CheckResult =>
  probe.ok ? ok(probe.message) : fail(probe.message, probe.kind);

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}`;

/**
 * One clock for a whole connection test: however many checks a group runs, one after another or
 * side by side, the reply comes back within `totalMs` (10 s) with a reason for each check cut
 * short. Build one per test and `dispose()` it when the reply is ready.
 */
export class TestDeadline {
  readonly signal: AbortSignal;
  private readonly endsAt: number;
  private readonly timer: NodeJS.Timeout;

  constructor(readonly totalMs: number) {
    const controller = new AbortController();
    this.signal = controller.signal;
    this.endsAt = performance.now() + totalMs;
    this.timer = setTimeout(() => controller.abort(), totalMs);
  }

  remainingMs(): number {
    return Math.max(0, this.endsAt - performance.now());
  }

  /** Why a check still waiting at the deadline failed. */
  get timedOutMessage(): string {
    const s = seconds(this.totalMs);
    return `Timed out after ${s} s: no answer before the connection test's ${s} s limit`;
  }

  /** Why a check due to start after the deadline was not run. */
  get notRunMessage(): string {
    return `Not run: the connection test's ${seconds(this.totalMs)} s limit had passed`;
  }

  /**
   * `work`'s result, or whichever bound passes first: this deadline (`onDeadline`) or the
   * caller's own (`own.ms`; left out when the deadline comes first, so one reason is reported).
   */
  async race<T>(
    work: Promise<T>,
    onDeadline: () => T,
    own?: { ms: number; onExpiry: () => T },
  ): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    let listener: (() => void) | undefined;
    const bounds: Promise<T>[] = [];
    if (own && own.ms < this.remainingMs()) {
      bounds.push(
        new Promise<T>((resolve) => (timer = setTimeout(() => resolve(own.onExpiry()), own.ms))),
      );
    }
    bounds.push(
      new Promise<T>((resolve) => {
        listener = () => resolve(onDeadline());
        if (this.signal.aborted) listener();
        else this.signal.addEventListener('abort', listener, { once: true });
      }),
    );
    try {
      return await Promise.race([work, ...bounds]);
    } finally {
      clearTimeout(timer);
      this.signal.removeEventListener('abort', listener!);
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}

/** A check's own bound, and the whole test's deadline (a `TestContext` has both). */
export interface CheckBounds {
  timeoutMs: number;
  deadline: TestDeadline;
}

/**
 * Runs one check within `timeoutMs` and the test's `deadline`, and times it. An `IntegrationError`
 * (for instance `not_configured`) becomes a failed check; a check still running at its bound
 * fails with a timeout message while its call is left to its own, shorter-lived timeout. A check
 * due to start after the deadline fails without running.
 */
export async function runCheck(
  target: string,
  { timeoutMs, deadline }: CheckBounds,
  run: () => Promise<CheckResult>,
): Promise<SettingCheck> {
  if (deadline.signal.aborted) {
    return {
      target,
      status: 'fail',
      message: deadline.notRunMessage,
      reason: 'not_run',
      latencyMs: 0,
    };
  }
  const started = performance.now();
  let result: CheckResult;
  try {
    result = await deadline.race(run(), () => fail(deadline.timedOutMessage, 'deadline'), {
      ms: timeoutMs,
      onExpiry: () => fail(`No answer within ${seconds(timeoutMs)} s`, 'timeout'),
    });
  } catch (err) {
    // Adapters signal upstream and configuration problems by throwing; those are results here.
    if (!(err instanceof IntegrationError)) throw err;
    result = fail(err.message, err.kind);
  }
  return {
    target,
    status: result.status,
    message: result.message,
    ...(result.reason && result.status !== 'ok' ? { reason: result.reason } : {}),
    latencyMs: Math.max(0, Math.round(performance.now() - started)),
  };
}
