// The user a media route names (the member's own home, a portrait, a history filter).
import type { Database } from '../../db/client.js';
import type { UserRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import { findUser } from './queries.js';

/** The user row, or 404 `USER_NOT_FOUND`. */
export async function requireUser(db: Database, id: string): Promise<UserRow> {
  const row = await findUser(db, id);
  if (!row) throw new AppError('USER_NOT_FOUND', 'No such user');
  return row;
}
