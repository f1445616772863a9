import type { AuditEntry } from '@usher/contracts';

/** Translates an `audit.says.*` key with its parameters. */
type Translate = (key: string, params: Record<string, unknown>) => string;

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? value : null;
const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/**
 * A sentence for an audit row (issue 36: "lila paid $4.99 for Monthly, +30 days"), for the
 * actions an operator reads most; null for the rest, which keep the generic field summary.
 * `money` formats minor units of a currency in the UI language.
 */
export function auditSentence(
  entry: AuditEntry,
  t: Translate,
  money: (amount: number, currency: string) => string,
): string | null {
  const d = (entry.details ?? {}) as Record<string, unknown>;
  const actor = entry.actorLabel;
  const days = count(d['days']);
  switch (entry.action) {
    case 'payment.completed': {
      const amount = count(d['amount']);
      const currency = text(d['currency']);
      if (amount === null || !currency) return null;
      return t('audit.says.paid', {
        user: text(d['username']) ?? t('audit.says.someone', {}),
        amount: money(amount, currency),
        plan: text(d['planName']) ?? '—',
        days: days ?? 0,
      });
    }
    case 'redeem.use':
      return days === null ? null : t('audit.says.redeemed', { actor, days });
    case 'user.extend':
      return days === null ? null : t('audit.says.extended', { actor, days });
    case 'user.register':
      return t('audit.says.registered', { actor });
    case 'auth.login':
      return t('audit.says.signedIn', { actor });
    case 'request.create': {
      const name = text(d['name']);
      return name ? t('audit.says.requested', { actor, name }) : null;
    }
    case 'request.approve':
      return t('audit.says.approved', { actor });
    case 'request.reject':
      return t('audit.says.rejected', { actor, reason: text(d['reason']) ?? '—' });
    case 'job.run':
      return t('audit.says.ranJob', { actor, job: entry.targetId ?? '—' });
    default:
      return null;
  }
}
