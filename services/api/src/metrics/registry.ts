// The app's Prometheus registry (`GET /metrics`): HTTP, bot-push and outbound-call metrics.
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { createIntegrationMetrics, type IntegrationMetrics } from './integrations.js';

export interface AppMetrics {
  registry: Registry;
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  notifyTotal: Counter<'kind' | 'outcome'>;
  integrations: IntegrationMetrics;
}

/** A dedicated registry per app instance, so tests with several apps never share counters. */
export function createMetrics(options: { defaultMetrics: boolean }): AppMetrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'usher_' });
  const requestDuration = new Histogram({
    name: 'usher_http_request_duration_seconds',
    help: 'HTTP request duration by route template (never the raw path)',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const notifyTotal = new Counter({
    name: 'usher_notify_total',
    help: 'Events pushed to the bot, by kind and outcome',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  const integrations = createIntegrationMetrics(registry);
  return { registry, requestDuration, notifyTotal, integrations };
}
