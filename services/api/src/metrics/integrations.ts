// The outbound-call metrics of 50-integrations.md §0. They live below both their writer (the
// integrations' HTTP client) and the registry that serves them (`registry.ts`), so neither floor
// imports the other.
import { Counter, Histogram, type Registry } from 'prom-client';

export type Outcome = 'ok' | 'http_4xx' | 'http_5xx' | 'timeout' | 'network' | 'invalid_response';

export interface IntegrationMetrics {
  requests: Counter<'system' | 'operation' | 'outcome'>;
  duration: Histogram<'system' | 'operation'>;
}

/** The two integration metrics of 50-integrations.md §0, registered once per app registry. */
export function createIntegrationMetrics(registry: Registry): IntegrationMetrics {
  return {
    requests: new Counter({
      name: 'usher_integration_requests_total',
      help: 'Outbound calls to external systems by outcome',
      labelNames: ['system', 'operation', 'outcome'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'usher_integration_request_duration_seconds',
      help: 'Outbound call duration',
      labelNames: ['system', 'operation'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
      registers: [registry],
    }),
  };
}
