// Stored rankings (10-data.md §7): one batch per (period, first day), its entries by rank.
import type { RankingPeriod } from '@usher/contracts';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../../db/client.js';
import {
  playbackRankings,
  rankingBatches,
  type PlaybackRankingRow,
  type RankingBatchRow,
} from '../../db/schema/index.js';
import type { RankedItem } from './compute.js';

export interface StoredBatch {
  batch: RankingBatchRow;
  entries: PlaybackRankingRow[];
}

/**
 * Replaces the period's batch: under a lock on (period, first day), so two generations of the
 * same period queue instead of colliding on the unique index; the old batch's entries go with it
 * (cascade). Runs inside the caller's transaction.
 */
export async function replaceBatch(
  tx: Database,
  batch: Omit<RankingBatchRow, 'id'>,
  items: RankedItem[],
): Promise<StoredBatch> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`ranking:${batch.period}:${batch.periodStart}`}))`,
  );
  await tx
    .delete(rankingBatches)
    .where(
      and(
        eq(rankingBatches.period, batch.period),
        eq(rankingBatches.periodStart, batch.periodStart),
      ),
    );
  const [row] = await tx
    .insert(rankingBatches)
    .values({ id: uuidv7(), ...batch })
    .returning();
  const entries =
    items.length === 0
      ? []
      : await tx
          .insert(playbackRankings)
          .values(
            items.map((i) => ({
              id: uuidv7(),
              batchId: row!.id,
              category: i.category,
              rank: i.rank,
              itemKey: i.itemKey,
              itemName: i.name,
              playCount: i.playCount,
              durationS: i.durationS,
            })),
          )
          .returning();
  return { batch: row!, entries };
}

async function entriesOf(db: Database, batchId: string): Promise<PlaybackRankingRow[]> {
  return db
    .select()
    .from(playbackRankings)
    .where(eq(playbackRankings.batchId, batchId))
    .orderBy(asc(playbackRankings.category), asc(playbackRankings.rank));
}

export async function findBatch(db: Database, id: string): Promise<StoredBatch | null> {
  const [batch] = await db.select().from(rankingBatches).where(eq(rankingBatches.id, id)).limit(1);
  return batch ? { batch, entries: await entriesOf(db, id) } : null;
}

/** The batch of the most recent period (the latest first day). */
export async function latestBatch(
  db: Database,
  period: RankingPeriod,
): Promise<StoredBatch | null> {
  const [batch] = await db
    .select()
    .from(rankingBatches)
    .where(eq(rankingBatches.period, period))
    .orderBy(desc(rankingBatches.periodStart))
    .limit(1);
  return batch ? { batch, entries: await entriesOf(db, batch.id) } : null;
}

export async function countBatches(db: Database, period: RankingPeriod): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(rankingBatches)
    .where(eq(rankingBatches.period, period));
  return row?.n ?? 0;
}

/** A page of batches, newest period first, with their entry counts and leaders. */
export async function batchPage(
  db: Database,
  period: RankingPeriod,
  limit: number,
  offset: number,
) {
  const batches = await db
    .select()
    .from(rankingBatches)
    .where(eq(rankingBatches.period, period))
    .orderBy(desc(rankingBatches.periodStart))
    .limit(limit)
    .offset(offset);
  const ids = batches.map((b) => b.id);
  const entries =
    ids.length === 0
      ? []
      : await db
          .select({
            batchId: playbackRankings.batchId,
            category: playbackRankings.category,
            rank: playbackRankings.rank,
            itemName: playbackRankings.itemName,
          })
          .from(playbackRankings)
          .where(inArray(playbackRankings.batchId, ids));
  return batches.map((batch) => {
    const mine = entries.filter((e) => e.batchId === batch.id);
    const top = (category: string) =>
      mine.find((e) => e.category === category && e.rank === 1)?.itemName ?? null;
    return {
      batch,
      movieCount: mine.filter((e) => e.category === 'movie').length,
      seriesCount: mine.filter((e) => e.category === 'series').length,
      topMovie: top('movie'),
      topSeries: top('series'),
    };
  });
}

export async function setPushOutcome(
  db: Database,
  batchId: string,
  outcome: 'sent' | 'skipped' | 'failed',
): Promise<void> {
  await db
    .update(rankingBatches)
    .set({ pushOutcome: outcome })
    .where(eq(rankingBatches.id, batchId));
}
