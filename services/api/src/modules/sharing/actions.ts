// Carrying out an event's action (docs/sharing.md): a message on the offending sessions, stopping
// them, or suspending the member's media access for `SHARING_SUSPEND_HOURS`. The media-server
// calls run outside any transaction; the event's new state and its audit row are written together
// afterwards. A failed call leaves the event open with the upstream's words in `action_error`
// (audited as `sharing.action_failed`), so nothing claims an action that did not happen; a
// suspension whose media-server write fails is finished by the retry queue (access sync).
import { HOUR_MS } from '../../time/units.js';
import { recordAudit, type AuditActor } from '../../audit-log/audit.js';
import type { SharingAction, SharingEventRow } from '../../db/schema/index.js';
import { withTransaction } from '../../db/transaction.js';
import { IntegrationError } from '../../integrations/errors.js';
import type { SessionMessage } from '../../integrations/media-server/port.js';
import { sendSharingSuspensionNotice } from '../lifecycle/index.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { findMember, setSuspendedUntil, updateEvent } from './queries.js';
import type { Evidence } from './rules.js';

export type ActionContext = Pick<
  ModuleContext,
  'db' | 'now' | 'settings' | 'integrations' | 'notify' | 'config' | 'accessSync' | 'logger'
>;

export interface ActionBy {
  actor: AuditActor;
  /** The admin who confirmed it; null for the job. */
  userId: string | null;
  meta?: RequestMeta;
}

const MESSAGES: Record<'en' | 'zh-CN', (limit: number) => SessionMessage> = {
  en: (limit) => ({
    header: 'Account sharing',
    text: `This account is playing in more places or on more devices than its membership allows (limit ${limit}). Please stop one of the streams.`,
    timeoutMs: 15_000,
  }),
  'zh-CN': (limit) => ({
    header: '账号共享提醒',
    text: `此账号正在超出会员允许范围的地点或设备上播放（上限 ${limit}）。请停止其中一个播放。`,
    timeoutMs: 15_000,
  }),
};

/** Sessions an action is aimed at: the live offending ones of the evidence. */
export function offendingSessions(event: SharingEventRow): string[] {
  const evidence = event.evidence as Evidence;
  return [...new Set(evidence.sessions.filter((s) => s.offending).map((s) => s.sessionId))];
}

/** Carries out `action` for the event and records the outcome; the event as it is afterwards. */
export async function carryOut(
  ctx: ActionContext,
  event: SharingEventRow,
  action: SharingAction,
  by: ActionBy,
): Promise<{ event: SharingEventRow; error: IntegrationError | null }> {
  const sessions = offendingSessions(event);
  const details: Record<string, unknown> = { eventId: event.id, rule: event.rule, action };
  let error: IntegrationError | null = null;
  try {
    if (action === 'message' || action === 'stop') {
      const member = await findMember(ctx.db, event.userId);
      const server = await ctx.integrations.mediaServer.get();
      const message = MESSAGES[member?.locale === 'zh-CN' ? 'zh-CN' : 'en'](
        (event.evidence as Evidence).limit,
      );
      let reached = 0;
      for (const id of sessions) {
        const found =
          action === 'message'
            ? await server.sendSessionMessage(id, message)
            : await server.stopPlayback(id);
        if (found) reached += 1;
      }
      Object.assign(details, { sessions: sessions.length, reached });
    } else if (action === 'suspend') {
      const hours = await ctx.settings.store.get('SHARING_SUSPEND_HOURS');
      const until = new Date(ctx.now().getTime() + hours * HOUR_MS);
      const member = await findMember(ctx.db, event.userId);
      // A longer suspension already running is kept.
      const current = member?.sharingSuspendedUntil ?? null;
      const effective = current && current > until ? current : until;
      await setSuspendedUntil(ctx.db, event.userId, effective, ctx.now());
      const outcome = await ctx.accessSync(event.userId, 'sharing');
      Object.assign(details, { until: effective.toISOString(), sync: outcome });
      const notices = await sendSharingSuspensionNotice(ctx, {
        userId: event.userId,
        rule: event.rule,
        until: effective,
        ref: event.id,
      });
      details['notices'] = notices.map((n) => `${n.channel}:${n.outcome}`);
    }
  } catch (err) {
    if (!(err instanceof IntegrationError)) throw err;
    error = err;
    details['error'] = err.message;
  }
  const now = ctx.now();
  const updated = await withTransaction(ctx, async (tx) => {
    const row = await updateEvent(
      tx,
      event.id,
      error
        ? { actionError: error.message }
        : {
            status: 'actioned',
            actionTaken: action,
            actionedAt: now,
            actionedBy: by.userId,
            actionError: null,
          },
    );
    await recordAudit(tx, {
      actor: by.actor,
      action: error ? 'sharing.action_failed' : 'sharing.action',
      target: { type: 'user', id: event.userId },
      details,
      ...(by.meta ? { ip: by.meta.ip, requestId: by.meta.requestId } : {}),
    });
    return row;
  });
  return { event: updated, error };
}
