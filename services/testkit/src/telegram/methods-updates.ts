import { Described, type MethodContext, type MethodHandler } from './context.js';
import { bool, int, object, str, type Params } from './params.js';
import { DEFAULT_ALLOWED_UPDATES, updateType, type TelegramState } from './state.js';
import { TelegramApiError, badRequest, type TgUpdate } from './types.js';

export interface WebhookDelivery {
  update: TgUpdate;
  /** HTTP status of the bot's reply; 0 when the connection failed. */
  status: number;
  body: string;
  error?: string;
}

interface PollWaiter {
  wake(): void;
  fail(error: TelegramApiError): void;
}

const CONFLICT_OTHER_POLL =
  'Conflict: terminated by other getUpdates request; ' +
  'make sure that only one bot instance is running';
const CONFLICT_WEBHOOK =
  "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete " +
  'the webhook first';
const WEBHOOK_PORTS = ['443', '80', '88', '8443'];

/**
 * The update queue behind getUpdates and the webhook. Updates stay pending until getUpdates
 * confirms them with a higher `offset` or the webhook answers 2xx, as on the real server.
 */
export class UpdateHub {
  private waiter: PollWaiter | null = null;
  private delivery: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly state: TelegramState,
    /** Runs a method found in a webhook reply body (`{"method": …}`), like Telegram does. */
    private readonly runWebhookReply: (method: string, params: Params) => Promise<void>,
  ) {}

  /** Adds an update unless `allowed_updates` excludes its type; wakes an open long poll. */
  enqueue(update: TgUpdate): boolean {
    if (!this.state.allowedUpdates.includes(updateType(update))) return false;
    this.state.pending.push(update);
    this.waiter?.wake();
    return true;
  }

  /** Answers an open long poll with 409, as a newer poll or setWebhook does on the real API. */
  terminatePoll(description: string) {
    this.waiter?.fail(new TelegramApiError(409, description));
  }

  close() {
    this.waiter?.wake();
  }

  /** Posts pending updates to the webhook in order, stopping at the first failure. */
  deliverPending(): Promise<WebhookDelivery[]> {
    const run = this.delivery.then(() => this.deliverNow());
    this.delivery = run.catch(() => undefined);
    return run;
  }

  private async deliverNow(): Promise<WebhookDelivery[]> {
    const deliveries: WebhookDelivery[] = [];
    const webhook = this.state.webhook;
    while (webhook && this.state.webhook === webhook && this.state.pending.length > 0) {
      const update = this.state.pending[0]!;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (webhook.secretToken) headers['x-telegram-bot-api-secret-token'] = webhook.secretToken;
      let response: Response;
      try {
        response = await fetch(webhook.url, {
          method: 'POST',
          headers,
          body: JSON.stringify(update),
          signal: AbortSignal.timeout(60_000),
        });
      } catch (error) {
        // A refused or dropped connection is what Telegram reports in getWebhookInfo.
        const cause = (error as { cause?: { code?: string } }).cause;
        const message = cause?.code === 'ECONNREFUSED' ? 'Connection refused' : String(error);
        webhook.lastErrorDate = Math.floor(Date.now() / 1000);
        webhook.lastErrorMessage = message;
        deliveries.push({ update, status: 0, body: '', error: message });
        break;
      }
      const body = await response.text();
      deliveries.push({ update, status: response.status, body });
      if (!response.ok) {
        webhook.lastErrorDate = Math.floor(Date.now() / 1000);
        const reason = `${response.status} ${response.statusText}`;
        webhook.lastErrorMessage = `Wrong response from the webhook: ${reason}`;
        break;
      }
      this.state.pending.shift();
      await this.maybeRunReply(response, body);
    }
    return deliveries;
  }

  private async maybeRunReply(response: Response, body: string) {
    if (!(response.headers.get('content-type') ?? '').includes('application/json')) return;
    let reply: unknown;
    try {
      reply = JSON.parse(body);
    } catch (_error) {
      // Telegram ignores a webhook reply it cannot read.
      return;
    }
    if (reply && typeof reply === 'object' && typeof (reply as Params).method === 'string') {
      const { method, ...params } = reply as Params;
      await this.runWebhookReply(method as string, params);
    }
  }

  private applyOffset(offset: number | undefined) {
    if (offset === undefined) return;
    if (offset < 0) this.state.pending = this.state.pending.slice(offset);
    else this.state.pending = this.state.pending.filter((u) => u.update_id >= offset);
  }

  readonly methods: Record<string, MethodHandler> = {
    getUpdates: (ctx, params) => this.getUpdates(ctx, params),
    setWebhook: (ctx, params) => this.setWebhook(ctx, params),
    deleteWebhook: (_ctx, params) => this.deleteWebhook(params),
    getWebhookInfo: () => {
      const webhook = this.state.webhook;
      return {
        url: webhook?.url ?? '',
        has_custom_certificate: false,
        pending_update_count: this.state.pending.length,
        ...(webhook
          ? {
              ip_address: '127.0.0.1',
              max_connections: webhook.maxConnections,
              ...(webhook.allowedUpdates ? { allowed_updates: webhook.allowedUpdates } : {}),
              ...(webhook.lastErrorMessage
                ? {
                    last_error_date: webhook.lastErrorDate,
                    last_error_message: webhook.lastErrorMessage,
                  }
                : {}),
            }
          : {}),
      };
    },
  };

  private async getUpdates(ctx: MethodContext, params: Params) {
    if (this.state.webhook) throw new TelegramApiError(409, CONFLICT_WEBHOOK);
    this.terminatePoll(CONFLICT_OTHER_POLL);
    const allowed = object(params, 'allowed_updates', 'allowed_updates');
    if (Array.isArray(allowed)) {
      this.state.allowedUpdates =
        allowed.length > 0 ? allowed.map(String) : DEFAULT_ALLOWED_UPDATES;
    }
    this.applyOffset(int(params, 'offset'));
    const limit = Math.min(100, Math.max(1, int(params, 'limit') ?? 100));
    const timeout = Math.max(0, int(params, 'timeout') ?? 0);
    const take = () => this.state.pending.slice(0, limit);
    if (this.state.pending.length > 0 || timeout === 0) return take();
    return new Promise<TgUpdate[]>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        if (this.waiter === waiter) this.waiter = null;
      };
      const waiter: PollWaiter = {
        wake: () => {
          finish();
          resolve(take());
        },
        fail: (error) => {
          finish();
          reject(error);
        },
      };
      const timer = setTimeout(waiter.wake, timeout * 1000);
      this.waiter = waiter;
      // A client that gives up (telegraf's stop) must not keep a ghost poll open.
      const abandon = () => {
        finish();
        resolve([]);
      };
      if (ctx.signal.aborted) abandon();
      else ctx.signal.addEventListener('abort', abandon, { once: true });
    });
  }

  private setWebhook(ctx: MethodContext, params: Params) {
    const url = str(params, 'url') ?? '';
    if (url === '') return this.deleteWebhook(params);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch (_error) {
      throw badRequest('invalid webhook URL specified');
    }
    const local = ctx.settings.insecureWebhookHosts.includes(parsed.hostname);
    if (!local && parsed.protocol !== 'https:') {
      throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
    }
    if (!local && !WEBHOOK_PORTS.includes(parsed.port || '443')) {
      throw badRequest('bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443');
    }
    const secretToken = str(params, 'secret_token');
    if (secretToken !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secretToken)) {
      throw badRequest('secret token contains unallowed characters');
    }
    const allowed = object(params, 'allowed_updates', 'allowed_updates');
    if (Array.isArray(allowed)) {
      this.state.allowedUpdates =
        allowed.length > 0 ? allowed.map(String) : DEFAULT_ALLOWED_UPDATES;
    }
    if (bool(params, 'drop_pending_updates')) this.state.pending = [];
    this.terminatePoll('Conflict: terminated by setWebhook request');
    const previous = this.state.webhook;
    const same = previous?.url === url && previous.secretToken === secretToken;
    this.state.webhook = {
      url,
      secretToken,
      allowedUpdates: Array.isArray(allowed) ? allowed.map(String) : previous?.allowedUpdates,
      maxConnections: Math.min(100, Math.max(1, int(params, 'max_connections') ?? 40)),
    };
    return new Described(true, same ? 'Webhook is already set' : 'Webhook was set');
  }

  private deleteWebhook(params: Params) {
    if (bool(params, 'drop_pending_updates')) this.state.pending = [];
    const had = this.state.webhook !== null;
    this.state.webhook = null;
    return new Described(true, had ? 'Webhook was deleted' : 'Webhook is already deleted');
  }
}
