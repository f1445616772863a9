// The one lookup the ingest check and the manual hand-offs start from.
import { AppError } from '../../errors/app-error.js';
import type { ModuleContext } from '../context.js';
import { assertRequestId } from './dto.js';
import { findRequest } from './queries.js';

/** The request, which must be APPROVED (ingest checks and the manual hand-offs act on nothing else). */
export async function approvedRequest(ctx: Pick<ModuleContext, 'db'>, id: string) {
  assertRequestId(id);
  const row = await findRequest(ctx.db, id);
  if (!row) throw new AppError('REQUEST_NOT_FOUND', 'No such request');
  if (row.status !== 'APPROVED') {
    throw new AppError('REQUEST_STATE_CHANGED', `The request is ${row.status}, not APPROVED`, {
      details: { status: row.status },
    });
  }
  return row;
}
