import { randomUUID } from 'node:crypto';
import {
  NOTIFY_BODY_SCHEMAS,
  deliverySchema,
  notifyReplySchema,
  type Delivery,
  type NotifyBodies,
  type NotifyKind,
} from '@usher/contracts';
import type { Counter } from 'prom-client';
import type { Logger } from 'pino';
import { z } from 'zod';

/** Label `outcome` of `usher_notify_total` and the result of one push. */
export type NotifyOutcome = 'sent' | 'failed' | 'timeout' | 'skipped';

export interface NotifyResult {
  outcome: NotifyOutcome;
  /** HTTP status of the bot's reply, when one arrived. */
  status?: number;
  /** The bot's deliveries, read best-effort from a 200 reply or a 502 `DELIVERY_FAILED`. */
  deliveries: Delivery[];
  /** `sent` of the ranking reply; undefined when absent or when no reply arrived. */
  sent?: boolean;
}

/** A body without the two fields every event carries; the notifier fills them in. */
export type NotifyPayload<K extends NotifyKind> = K extends NotifyKind
  ? DistributiveOmit<NotifyBodies[K], 'eventId' | 'occurredAt'>
  : never;
type DistributiveOmit<T, F extends PropertyKey> = T extends unknown ? Omit<T, F> : never;

export interface NotifyOptions {
  /** `X-Request-Id` of the originating request, so both logs line up. */
  requestId?: string;
  /**
   * Called with the outcome once the push ends (reply, failure, timeout or skip). Runs in the
   * background; its errors are logged, never thrown at the originating request.
   */
  onResult?: (result: NotifyResult) => Promise<void> | void;
}

export interface NotifierDeps {
  /** `BOT_NOTIFY_URL` (deployment variable, 30-settings.md §4.7); empty turns pushes off. */
  baseUrl: string | undefined;
  internalSecret: string;
  logger: Logger;
  counter: Counter<'kind' | 'outcome'>;
  now: () => Date;
  /** Per-push deadline; 5 s (20-api.md §1.7). Tests may shorten it. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;

const failedReplySchema = z.object({
  error: z.object({ details: z.array(z.unknown()).optional() }),
});

/**
 * Pushes events to the bot (20-api.md §1.7): after the caller's commit, fire-and-forget
 * `POST {BOT_NOTIFY_URL}/notify/<kind>` with `X-Internal-Secret` and `X-Request-Id`, 5 s timeout,
 * no retry, skipped when no URL is configured, counted in `usher_notify_total{kind,outcome}`.
 *
 * `push` never waits and never throws; `deliver` is the awaitable form for background work
 * that needs the reply (the ranking push outcome). `idle()` lets tests and shutdown wait for
 * pushes still in flight.
 */
export class Notifier {
  private readonly baseUrl: string | undefined;
  private readonly timeoutMs: number;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly deps: NotifierDeps) {
    this.baseUrl = deps.baseUrl?.replace(/\/+$/, '') || undefined;
    this.timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** Whether pushes are switched on (`BOT_NOTIFY_URL` set). */
  get enabled(): boolean {
    return this.baseUrl !== undefined;
  }

  /** Fire-and-forget: starts the push and returns at once. */
  push<K extends NotifyKind>(
    kind: K,
    payload: NotifyPayload<K>,
    options: NotifyOptions = {},
  ): void {
    const task = this.deliver(kind, payload, options.requestId).then(async (result) => {
      if (!options.onResult) return;
      try {
        await options.onResult(result);
      } catch (err) {
        // The follow-up (e.g. recording admin-copy states) is best effort by definition.
        this.deps.logger.warn({ err, kind }, 'notify follow-up failed');
      }
    });
    this.track(task);
  }

  /** Sends one event and resolves with its outcome; never rejects. */
  async deliver<K extends NotifyKind>(
    kind: K,
    payload: NotifyPayload<K>,
    requestId?: string,
  ): Promise<NotifyResult> {
    const eventId = randomUUID();
    const body = { eventId, occurredAt: this.deps.now().toISOString(), ...payload };
    const log = this.deps.logger.child({ notify: kind, eventId, requestId });
    // A body the contract refuses is our bug: log it and do not send it, the bot would answer 400.
    const checked = NOTIFY_BODY_SCHEMAS[kind].safeParse(body);
    if (!checked.success) {
      log.error({ issues: checked.error.issues }, 'notify body does not match the contract');
      return this.finish(kind, { outcome: 'failed', deliveries: [] });
    }
    if (!this.baseUrl) return this.finish(kind, { outcome: 'skipped', deliveries: [] });

    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/notify/${kind}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-internal-secret': this.deps.internalSecret,
          'x-request-id': requestId ?? `api-${eventId}`,
        },
        body: JSON.stringify(body),
        signal,
      });
    } catch (err) {
      // fetch rejects on network errors and on the timeout's abort; both end the push.
      const timedOut = signal.aborted;
      log.warn({ err: timedOut ? undefined : errorText(err) }, `notify ${kind}: no reply`);
      return this.finish(kind, { outcome: timedOut ? 'timeout' : 'failed', deliveries: [] });
    }
    const result = await this.readReply(response);
    if (result.outcome !== 'sent') {
      log.warn({ status: response.status }, `notify ${kind}: bot answered ${response.status}`);
    }
    return this.finish(kind, result);
  }

  /** Resolves when every push started so far has finished (tests, graceful shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Pushes still in flight (what a bounded shutdown reports as abandoned). */
  get pending(): number {
    return this.inFlight.size;
  }

  private async readReply(response: Response): Promise<NotifyResult> {
    const status = response.status;
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      // Unreadable or cut-off body (the deadline may hit while reading): no deliveries to learn.
      json = undefined;
    }
    if (response.ok) {
      const reply = notifyReplySchema.safeParse(json);
      return {
        outcome: 'sent',
        status,
        deliveries: reply.success ? reply.data.deliveries : [],
        sent: reply.success ? reply.data.sent : undefined,
      };
    }
    const failed = failedReplySchema.safeParse(json);
    const deliveries = failed.success
      ? (failed.data.error.details ?? []).flatMap((d) => {
          const parsed = deliverySchema.safeParse(d);
          return parsed.success ? [parsed.data] : [];
        })
      : [];
    return { outcome: 'failed', status, deliveries };
  }

  private finish(kind: NotifyKind, result: NotifyResult): NotifyResult {
    this.deps.counter.inc({ kind, outcome: result.outcome });
    return result;
  }

  private track(task: Promise<unknown>): void {
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
  }
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.cause instanceof Error ? err.cause.message : err.message;
  return String(err);
}
