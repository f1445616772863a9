/**
 * Polling mode (40-bot.md §3.2): take the lease, then long-poll through telegraf; renew every
 * 30 s; when the lease is lost stop polling, report 503 and try to take it back every 30 s.
 */
import type { Logger } from 'pino';
import type { Bot } from './bot/context.js';
import { heldMessage, RENEW_EVERY_MS, type PollingLease } from './lease.js';
import type { BotMetrics } from './metrics.js';
import type { HealthState } from './server.js';
import { ALLOWED_UPDATES } from './webhook.js';

export interface PollingDeps {
  bot: Bot;
  lease: PollingLease;
  health: HealthState;
  logger: Logger;
  metrics: BotMetrics;
  /** Fatal end of polling (lease held elsewhere, 409): main prints the line and exits 2. */
  onFatal: (exitCode: number, line: string) => void;
  now?: () => number;
  renewEveryMs?: number;
  timers?: { setInterval(fn: () => void, ms: number): unknown; clearInterval(h: unknown): void };
}

export const CONFLICT_LINE =
  'polling: Telegram refused getUpdates (409 Conflict): a webhook is set or another poller is running';

export class PollingRunner {
  private running: Promise<void> | null = null;
  private timer: unknown = null;
  private expiresAt = 0;
  private stopped = false;
  private held = false;

  constructor(private readonly deps: PollingDeps) {}

  private now() {
    return (this.deps.now ?? Date.now)();
  }

  private get timers() {
    return (
      this.deps.timers ?? {
        setInterval,
        clearInterval: (h: unknown) => clearInterval(h as NodeJS.Timeout),
      }
    );
  }

  /** Takes the lease and starts polling. Returns false (after onFatal) when the lease is held. */
  async start(): Promise<boolean> {
    const got = await this.deps.lease.acquire();
    if (!got.held) {
      this.deps.onFatal(2, heldMessage(got.owner, got.expiresAt));
      return false;
    }
    this.onHeld(got.expiresAt);
    this.launch();
    this.timer = this.timers.setInterval(
      () => void this.tick(),
      this.deps.renewEveryMs ?? RENEW_EVERY_MS,
    );
    return true;
  }

  private onHeld(expiresAt: Date) {
    this.held = true;
    this.expiresAt = expiresAt.getTime();
    this.deps.health.lease = { held: true, expiresAt: expiresAt.toISOString() };
    this.deps.health.degraded = false;
    delete this.deps.health.lastError;
    this.deps.metrics.pollingLeaseHeld.set(1);
  }

  private launch() {
    const { bot } = this.deps;
    this.running = bot
      .launch({ allowedUpdates: ALLOWED_UPDATES as never, dropPendingUpdates: false }, () =>
        this.deps.logger.info({ owner: this.deps.lease.ownerId }, 'polling started'),
      )
      .catch((error: { code?: number; response?: { error_code?: number } }) => {
        const code = error.code ?? error.response?.error_code;
        if (code === 409) this.deps.onFatal(2, CONFLICT_LINE);
        else if (code === 401)
          this.deps.onFatal(3, 'telegram: MESSENGER_BOT_TOKEN was rejected (401 Unauthorized)');
        else this.deps.logger.error({ err: error }, 'polling stopped with an error');
      });
  }

  private async stopPolling() {
    const running = this.running;
    if (!running) return;
    let finished = false;
    void running.finally(() => {
      finished = true;
    });
    // telegraf creates its Polling only after deleteWebhook; a stop that lands before that
    // finds nothing (or the previous, already aborted poller) to abort. Stop again until the
    // launch promise settles.
    while (!finished) {
      try {
        this.deps.bot.stop('lease');
      } catch (_error) {
        // "Bot is not running!": polling has not started yet, or has already ended.
      }
      await Promise.race([running, new Promise((r) => setTimeout(r, 50))]);
    }
    this.running = null;
  }

  /** One renew (or re-acquire) round; exported through `tick` for tests with a fake timer. */
  async tick(): Promise<void> {
    if (this.stopped) return;
    if (!this.held) {
      const got = await this.deps.lease.acquire().catch(() => null);
      if (got?.held) {
        this.deps.logger.info('polling lease taken back; polling again');
        this.onHeld(got.expiresAt);
        this.launch();
      }
      return;
    }
    let renewed: Date | null;
    try {
      renewed = await this.deps.lease.renew();
    } catch (error) {
      // A database error is retried next tick, unless the lease would lapse within 10 s.
      this.deps.logger.warn({ err: (error as Error).message }, 'lease renew failed');
      if (this.expiresAt - this.now() > 10_000) return;
      renewed = null;
    }
    if (renewed) {
      this.onHeld(renewed);
      return;
    }
    this.held = false;
    this.deps.metrics.pollingLeaseHeld.set(0);
    this.deps.health.lease = { held: false };
    this.deps.health.degraded = true;
    this.deps.health.lastError = 'polling lease lost';
    this.deps.logger.error('polling lease lost; polling stopped');
    await this.stopPolling();
  }

  /** Shutdown: stop polling (telegraf confirms the offset), then release the lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.timers.clearInterval(this.timer);
    await this.stopPolling();
    if (this.held) {
      await this.deps.lease.release();
      this.held = false;
      this.deps.metrics.pollingLeaseHeld.set(0);
    }
  }
}
