// Redeem codes without SQL: generation, derived status and the DTO.
import { randomBytes } from 'node:crypto';
import type { RedeemCode } from '@usher/contracts';
import type { RedeemCodeRow } from '../../db/schema/index.js';

/** 8 random bytes as 16 uppercase hex characters (10-data.md §2). */
export function generateCode(): string {
  return randomBytes(8).toString('hex').toUpperCase();
}

export function codeStatus(row: RedeemCodeRow, now: Date): RedeemCode['status'] {
  if (row.usedCount >= row.maxUses) return 'exhausted';
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

export function toRedeemCode(
  row: RedeemCodeRow,
  creator: { id: string; username: string } | null,
  now: Date,
): RedeemCode {
  return {
    id: row.id,
    code: row.code,
    days: row.days,
    maxUses: row.maxUses,
    usedCount: row.usedCount,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    status: codeStatus(row, now),
    notes: row.notes,
    createdBy: creator,
    createdAt: row.createdAt.toISOString(),
  };
}
