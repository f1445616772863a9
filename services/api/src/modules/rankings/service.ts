// Rankings (20-api.md "Rankings", `/admin/rankings/*`): preview (computed, not stored), generate
// (stored, replacing the period's batch in one transaction, then pushed to the bot), and the
// member reads. Poster URLs are signed for the reader, like the media home's.
import {
  uuidSchema,
  type RankingBatch,
  type RankingBatchSummary,
  type RankingEntry,
  type RankingGenerateBody,
  type RankingHistoryPage,
  type RankingHistoryQuery,
  type RankingPeriod,
  type RankingPreviewBody,
  type RankingPushOutcome,
} from '@usher/contracts';
import { recordAudit } from '../../audit-log/audit.js';
import type { RankingBatchRow } from '../../db/schema/index.js';
import { paginate } from '../../db/paging.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors/app-error.js';
import type { NotifyPayload, NotifyResult } from '../../notify/notifier.js';
import type { Caller, ModuleContext } from '../context.js';
import type { PosterSigner, PosterUser } from '../media/index.js';
import { computeRanking, type ComputedRanking, type RankedItem } from './compute.js';
import {
  batchPage,
  countBatches,
  findBatch,
  latestBatch,
  replaceBatch,
  setPushOutcome,
  type StoredBatch,
} from './queries.js';

/** Who reads a ranking: poster URLs are signed for this user. */
export interface Reader {
  signer: PosterSigner;
  user: PosterUser;
}

const notFound = () => new AppError('RANKING_NOT_FOUND', 'No such ranking');

function entryOf(item: RankedItem, reader: Reader, now: Date): RankingEntry {
  return {
    rank: item.rank,
    itemKey: item.itemKey,
    name: item.name,
    playCount: item.playCount,
    durationSeconds: item.durationS,
    posterUrl: item.itemKey.startsWith('name:')
      ? null
      : reader.signer.url(reader.user, item.itemKey, now),
  };
}

/** What a batch covers: its period, cut-off, zone and total. */
function batchPeriodOf(b: RankingBatchRow) {
  return {
    period: b.period as RankingPeriod,
    periodStart: b.periodStart,
    periodEnd: b.periodEnd,
    cutoffAt: b.cutoffAt.toISOString(),
    timezone: b.timezone,
    totalDurationSeconds: b.totalDurationS,
  };
}

function batchFieldsOf(b: RankingBatchRow) {
  return {
    ...batchPeriodOf(b),
    generatedAt: b.generatedAt.toISOString(),
    pushOutcome: b.pushOutcome as RankingPushOutcome | null,
    trigger: b.trigger as 'schedule' | 'manual',
  };
}

function itemsOf(stored: StoredBatch): RankedItem[] {
  return stored.entries.map((e) => ({
    category: e.category as 'movie' | 'series',
    rank: e.rank,
    itemKey: e.itemKey,
    name: e.itemName,
    playCount: e.playCount,
    durationS: e.durationS,
  }));
}

export function toRankingBatch(stored: StoredBatch, reader: Reader, now: Date): RankingBatch {
  const items = itemsOf(stored);
  return {
    id: stored.batch.id,
    ...batchFieldsOf(stored.batch),
    movies: items.filter((i) => i.category === 'movie').map((i) => entryOf(i, reader, now)),
    series: items.filter((i) => i.category === 'series').map((i) => entryOf(i, reader, now)),
  };
}

/** `POST /admin/rankings/preview`: the period as it stands, not stored and not pushed. */
export async function previewRanking(
  ctx: ModuleContext,
  reader: Reader,
  body: RankingPreviewBody,
): Promise<RankingBatch> {
  const r = await computeRanking(ctx, body.period, body.date);
  const now = ctx.now();
  return {
    id: null,
    period: r.period,
    periodStart: r.start,
    periodEnd: r.end,
    cutoffAt: r.cutoff.toISOString(),
    timezone: r.timezone,
    totalDurationSeconds: r.totalDurationS,
    generatedAt: now.toISOString(),
    pushOutcome: null,
    trigger: 'manual',
    movies: r.movies.map((i) => entryOf(i, reader, now)),
    series: r.series.map((i) => entryOf(i, reader, now)),
  };
}

/** What the bot receives (40-bot.md §2.4): names and numbers only. */
function pushPayload(stored: StoredBatch): NotifyPayload<'ranking'> {
  const b = stored.batch;
  const items = itemsOf(stored);
  const row = (i: RankedItem) => ({
    rank: i.rank,
    name: i.name,
    playCount: i.playCount,
    durationSeconds: i.durationS,
  });
  return {
    batchId: b.id,
    ...batchPeriodOf(b),
    movies: items.filter((i) => i.category === 'movie').map(row),
    series: items.filter((i) => i.category === 'series').map(row),
  };
}

/**
 * `push_outcome` from the notifier's result: the bot's `sent:false` (no chat configured) and a
 * switched-off notifier (no `BOT_NOTIFY_URL`) are `skipped`; no reply in time is `failed`.
 */
export function pushOutcomeOf(result: NotifyResult): RankingPushOutcome {
  if (result.outcome === 'sent') return result.sent === false ? 'skipped' : 'sent';
  if (result.outcome === 'skipped') return 'skipped';
  return 'failed';
}

export interface GenerateOptions {
  period: RankingPeriod;
  date?: string;
  trigger: 'schedule' | 'manual';
  /** The admin who asked; absent for the scheduled job. */
  caller?: Caller;
}

/**
 * Computes the period and stores it, replacing the period's earlier batch, in one transaction
 * (with the audit row of a manual generation). The computation reads the media server before
 * the transaction opens, so nothing inside it waits for another system.
 */
export async function storeRanking(ctx: ModuleContext, o: GenerateOptions): Promise<StoredBatch> {
  const r: ComputedRanking = await computeRanking(ctx, o.period, o.date);
  return withTransaction(ctx, async (tx) => {
    const stored = await replaceBatch(
      tx,
      {
        period: r.period,
        periodStart: r.start,
        periodEnd: r.end,
        timezone: r.timezone,
        cutoffAt: r.cutoff,
        totalDurationS: r.totalDurationS,
        trigger: o.trigger,
        generatedBy: o.caller?.auth.userId ?? null,
        pushOutcome: null,
        generatedAt: ctx.now(),
      },
      [...r.movies, ...r.series],
    );
    if (o.caller) {
      await recordAudit(tx, {
        actor: o.caller.actor,
        action: 'ranking.generate',
        target: { type: 'ranking_batch', id: stored.batch.id },
        details: {
          period: r.period,
          periodStart: r.start,
          movies: r.movies.length,
          series: r.series.length,
        },
        ...o.caller.meta,
      });
    }
    return stored;
  });
}

/** Pushes a stored batch and waits for the bot's answer (the jobs), recording the outcome. */
export async function pushRanking(
  ctx: ModuleContext,
  stored: StoredBatch,
  requestId?: string,
): Promise<RankingPushOutcome> {
  const outcome = pushOutcomeOf(
    await ctx.notify.deliver('ranking', pushPayload(stored), requestId),
  );
  await setPushOutcome(ctx.db, stored.batch.id, outcome);
  stored.batch.pushOutcome = outcome;
  return outcome;
}

/**
 * `POST /admin/rankings/generate`: stored, then (with `push`) handed to the bot in the
 * background — the reply does not wait for the bot (20-api.md §1.7); `pushOutcome` is recorded
 * on the batch when the bot answers.
 */
export async function generateRanking(
  ctx: ModuleContext,
  reader: Reader,
  body: RankingGenerateBody,
  caller: Caller,
): Promise<RankingBatch> {
  const stored = await storeRanking(ctx, {
    period: body.period,
    ...(body.date ? { date: body.date } : {}),
    trigger: 'manual',
    caller,
  });
  if (body.push) {
    const batchId = stored.batch.id;
    ctx.notify.push('ranking', pushPayload(stored), {
      requestId: caller.meta.requestId,
      onResult: (result) => setPushOutcome(ctx.db, batchId, pushOutcomeOf(result)),
    });
  }
  return toRankingBatch(stored, reader, ctx.now());
}

/** `GET /rankings/latest`. */
export async function latestRanking(
  ctx: ModuleContext,
  reader: Reader,
  period: RankingPeriod,
): Promise<{ batch: RankingBatch | null }> {
  const stored = await latestBatch(ctx.db, period);
  return { batch: stored ? toRankingBatch(stored, reader, ctx.now()) : null };
}

/** `GET /rankings/:batchId`; a malformed id is the same 404 as an unknown one. */
export async function rankingById(
  ctx: ModuleContext,
  reader: Reader,
  batchId: string,
): Promise<RankingBatch> {
  if (!uuidSchema.safeParse(batchId).success) throw notFound();
  const stored = await findBatch(ctx.db, batchId);
  if (!stored) throw notFound();
  return toRankingBatch(stored, reader, ctx.now());
}

/** `GET /rankings/history`: batch summaries, newest period first. */
export async function rankingHistory(
  ctx: ModuleContext,
  q: RankingHistoryQuery,
): Promise<RankingHistoryPage> {
  return paginate(q, countBatches(ctx.db, q.period), async (limit, offset) =>
    (await batchPage(ctx.db, q.period, limit, offset)).map((s): RankingBatchSummary => ({
      id: s.batch.id,
      ...batchFieldsOf(s.batch),
      movieCount: s.movieCount,
      seriesCount: s.seriesCount,
      topMovie: s.topMovie,
      topSeries: s.topSeries,
    })),
  );
}
