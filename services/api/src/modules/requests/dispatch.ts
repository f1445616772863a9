import { recordAudit, type AuditActor } from '../../audit-log/audit.js';
import { type MediaRequestRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import { IntegrationError } from '../../integrations/errors.js';
import type { AutomationRequest } from '../../integrations/automation/types.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { cachedTv } from '../metadata/index.js';
import { assertRequestId } from './dto.js';
import { findRequest, updateRequest } from './queries.js';

export type DispatchOutcome =
  | { kind: 'dispatched' }
  | { kind: 'not_configured'; error: IntegrationError }
  | { kind: 'failed'; error: IntegrationError };

/** What the tool needs: for TV also the TVDB id and season numbers (real Sonarr needs both). */
async function automationRequest(
  ctx: ModuleContext,
  row: MediaRequestRow,
): Promise<AutomationRequest> {
  const base: AutomationRequest = {
    type: row.type === 'MOVIE' ? 'movie' : 'tv',
    tmdbId: row.tmdbId,
    title: row.name,
    year: row.year,
    season: row.type === 'TV' && row.season > 0 ? row.season : null,
  };
  if (row.type !== 'TV') return base;
  try {
    const tv = await cachedTv(ctx, row.tmdbId);
    return {
      ...base,
      tvdbId: tv.tvdbId,
      seasonNumbers: tv.seasons.map((s) => s.seasonNumber).filter((n) => n > 0),
    };
  } catch (err) {
    // TMDB being down must not block the hand-off; MoviePilot keys on the TMDB id alone.
    if (!(err instanceof IntegrationError)) throw err;
    return base;
  }
}

/**
 * One hand-off to the automation tool (20-api.md §8.6). Success stores `dispatched_at` and the
 * tool's id and clears the error; failure stores `automation_error` and the request stays
 * APPROVED. Not configured: nothing is sent and nothing stored.
 */
export async function dispatchOnce(
  ctx: ModuleContext,
  row: MediaRequestRow,
): Promise<DispatchOutcome> {
  let error: IntegrationError;
  try {
    const automation = await ctx.integrations.automation.get();
    const outcome = await automation.submit(await automationRequest(ctx, row));
    await updateRequest(ctx.db, row.id, {
      dispatchedAt: ctx.now(),
      automationRef: outcome.externalId === null ? null : String(outcome.externalId),
      automationError: null,
      updatedAt: ctx.now(),
    });
    return { kind: 'dispatched' };
  } catch (err) {
    // Upstream failures are the outcome to store; anything else is a bug and propagates.
    if (!(err instanceof IntegrationError)) throw err;
    error = err;
  }
  if (error.kind === 'not_configured') return { kind: 'not_configured', error };
  await updateRequest(
    ctx.db,
    row.id,
    { automationError: error.message.slice(0, 500), updatedAt: ctx.now() },
    'APPROVED',
  );
  ctx.logger.warn({ requestId: row.id, kind: error.kind }, 'automation hand-off failed');
  return { kind: 'failed', error };
}

/**
 * After an approval commits: hand the request off in the background when
 * `AUTOMATION_AUTO_DISPATCH` is on, never inside the approving transaction.
 */
export function dispatchAfterApproval(ctx: ModuleContext, requestId: string): void {
  ctx.background.run('dispatch', async () => {
    if (!(await ctx.settings.store.get('AUTOMATION_AUTO_DISPATCH'))) return;
    const row = await findRequest(ctx.db, requestId);
    if (!row || row.status !== 'APPROVED') return;
    await dispatchOnce(ctx, row);
  });
}

/** `POST /admin/media-requests/:id/redispatch`: one synchronous retry after an error. */
export async function redispatch(
  ctx: ModuleContext,
  id: string,
  actor: AuditActor,
  meta: RequestMeta,
): Promise<MediaRequestRow> {
  assertRequestId(id);
  const row = await findRequest(ctx.db, id);
  if (!row) throw new AppError('REQUEST_NOT_FOUND', 'No such request');
  if (row.status !== 'APPROVED' || row.automationError === null) {
    throw new AppError(
      'NOT_REDISPATCHABLE',
      'Only an APPROVED request whose hand-off failed can be sent again',
      { details: { status: row.status } },
    );
  }
  const outcome = await dispatchOnce(ctx, row);
  await recordAudit(ctx.db, {
    actor,
    action: 'request.redispatch',
    target: { type: 'media_request', id },
    details: { outcome: outcome.kind },
    ip: meta.ip,
    requestId: meta.requestId,
  });
  if (outcome.kind !== 'dispatched') throw outcome.error;
  return (await findRequest(ctx.db, id)) ?? row;
}
