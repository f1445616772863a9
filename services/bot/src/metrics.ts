import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The bot's metrics (40-bot.md §11.3), on a registry per instance so tests never share them. */
export interface BotMetrics {
  registry: Registry;
  updates: Counter<'type' | 'outcome'>;
  updateDuration: Histogram<'type'>;
  notify: Counter<'kind' | 'event' | 'outcome'>;
  telegramCalls: Counter<'method' | 'outcome'>;
  apiCalls: Counter<'route' | 'status'>;
  webhookRegistered: Gauge;
  pollingLeaseHeld: Gauge;
  httpRequests: Counter<'route' | 'method' | 'status'>;
}

export function createMetrics(options: { defaultMetrics: boolean }): BotMetrics {
  const registry = new Registry();
  const p = 'usher_bot_';
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: p });
  const registers = [registry];
  return {
    registry,
    updates: new Counter({
      name: `${p}updates_total`,
      help: 'Telegram updates handled, by type and outcome',
      labelNames: ['type', 'outcome'] as const,
      registers,
    }),
    updateDuration: new Histogram({
      name: `${p}update_duration_seconds`,
      help: 'Time to handle one Telegram update',
      labelNames: ['type'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    notify: new Counter({
      name: `${p}notify_total`,
      help: 'Notify requests from the API, by kind, event and outcome',
      labelNames: ['kind', 'event', 'outcome'] as const,
      registers,
    }),
    telegramCalls: new Counter({
      name: `${p}telegram_calls_total`,
      help: 'Bot API calls, by method and outcome',
      labelNames: ['method', 'outcome'] as const,
      registers,
    }),
    apiCalls: new Counter({
      name: `${p}api_calls_total`,
      help: 'Calls to the Usher API, by route template and status',
      labelNames: ['route', 'status'] as const,
      registers,
    }),
    webhookRegistered: new Gauge({
      name: `${p}webhook_registered`,
      help: '1 when the webhook is registered with Telegram',
      registers,
    }),
    pollingLeaseHeld: new Gauge({
      name: `${p}polling_lease_held`,
      help: '1 while this instance holds the polling lease',
      registers,
    }),
    httpRequests: new Counter({
      name: `${p}http_requests_total`,
      help: 'HTTP requests served, by route template, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      registers,
    }),
  };
}
