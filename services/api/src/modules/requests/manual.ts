import type { AutomationCandidate } from '@usher/contracts';
import { recordAudit, type AuditActor } from '../../audit-log/audit.js';
import { type StoredCandidate } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import { MoviePilotAutomation } from '../../integrations/automation/adapter.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { approvedRequest } from './approved.js';
import { withTransaction } from '../../db/transaction.js';
import { updateRequest } from './queries.js';

const MAX_CANDIDATES = 50;

/** Manual search and dispatch exist for MoviePilot only (50-integrations.md §4). */
async function moviePilot(ctx: ModuleContext): Promise<MoviePilotAutomation> {
  const automation = await ctx.integrations.automation.get();
  if (!(automation instanceof MoviePilotAutomation)) {
    throw new AppError(
      'NOT_SUPPORTED',
      'Manual search and dispatch need AUTOMATION_KIND=moviepilot',
      {
        details: { system: 'automation' },
      },
    );
  }
  return automation;
}

const publicCandidate = ({ raw: _raw, ...rest }: StoredCandidate): AutomationCandidate => rest;

/**
 * `POST /admin/media-requests/:id/search`: MoviePilot's indexer search by TMDB id, in the order
 * MoviePilot ranks them, at most 50; stored with each candidate's `torrent_info` as received.
 */
export async function searchCandidates(
  ctx: ModuleContext,
  id: string,
  season: number | undefined,
): Promise<{ candidates: AutomationCandidate[]; searchedAt: string }> {
  const row = await approvedRequest(ctx, id);
  let scope: number | undefined;
  if (row.type === 'TV') {
    scope = row.season > 0 ? (season ?? row.season) : season;
    if (scope === undefined) {
      throw new AppError('SEASON_REQUIRED', 'Choose a season to search for a whole-series request');
    }
  }
  const automation = await moviePilot(ctx);
  const hits = await automation.searchByMedia(
    row.tmdbId,
    row.type === 'MOVIE' ? 'movie' : 'tv',
    scope,
  );
  const stored: StoredCandidate[] = hits.slice(0, MAX_CANDIDATES).map((hit, index) => ({
    index,
    title: hit.title,
    site: hit.site,
    sizeBytes: hit.sizeBytes,
    seeders: hit.seeders,
    peers: hit.peers,
    publishedAt: hit.publishedAt,
    volumeFactor: hit.volumeFactor,
    raw: hit.torrentInfo,
  }));
  const searchedAt = ctx.now();
  await updateRequest(ctx.db, id, {
    automationCandidates: stored,
    candidatesSearchedAt: searchedAt,
    updatedAt: searchedAt,
  });
  return { candidates: stored.map(publicCandidate), searchedAt: searchedAt.toISOString() };
}

/**
 * `POST /admin/media-requests/:id/dispatch`: sends one stored candidate back to MoviePilot
 * unchanged. Success clears `automation_error`; the request stays APPROVED until ingest.
 */
export async function dispatchCandidate(
  ctx: ModuleContext,
  id: string,
  candidateIndex: number,
  actor: AuditActor,
  meta: RequestMeta,
): Promise<void> {
  const row = await approvedRequest(ctx, id);
  const candidate = row.automationCandidates?.find((c) => c.index === candidateIndex);
  if (!candidate) {
    throw new AppError('CANDIDATE_NOT_FOUND', 'That candidate is gone; search again');
  }
  const automation = await moviePilot(ctx);
  const downloadId = await automation.download(candidate.raw);
  const now = ctx.now();
  await withTransaction(ctx, async (tx) => {
    await updateRequest(tx, id, {
      dispatchedAt: now,
      automationRef: downloadId,
      automationError: null,
      updatedAt: now,
    });
    await recordAudit(tx, {
      actor,
      action: 'request.dispatch',
      target: { type: 'media_request', id },
      details: { candidate: candidate.title, site: candidate.site, downloadId },
      ip: meta.ip,
      requestId: meta.requestId,
    });
  });
}
