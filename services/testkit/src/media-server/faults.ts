// Fault injection: slow answers, forced status codes and dropped connections.
import type { FaultRule, FaultState } from './types.js';

export interface FaultDecision {
  delayMs: number;
  status?: number;
  body?: string;
  reset: boolean;
}

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method) return false;
  if (rule.path === undefined) return true;
  if (typeof rule.path === 'string') return path.toLowerCase().includes(rule.path.toLowerCase());
  return rule.path.test(path);
}

/** Picks the first matching rule (consuming one of its `times`) plus the global delay. */
export function decideFault(faults: FaultState, method: string, path: string): FaultDecision {
  const decision: FaultDecision = { delayMs: faults.delayMs, reset: false };
  const rule = faults.rules.find((r) => matches(r, method, path));
  if (!rule) return decision;
  if (rule.times !== undefined) {
    rule.times -= 1;
    if (rule.times <= 0) faults.rules.splice(faults.rules.indexOf(rule), 1);
  }
  decision.delayMs += rule.delayMs ?? 0;
  decision.reset = rule.reset === true;
  if (rule.status !== undefined) decision.status = rule.status;
  if (rule.body !== undefined) decision.body = rule.body;
  return decision;
}
