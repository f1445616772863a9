// Usher users as the media pages need them: by id, by media-server user id, by name.
import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users, type UserRow } from '../../db/schema/index.js';

export async function findUser(db: Database, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByName(db: Database, name: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, name.toLowerCase()))
    .limit(1);
  return row;
}

export interface LinkedUser {
  id: string;
  username: string;
  mediaUserId: string;
}

/** Usher users linked to any of these media-server user ids, keyed by that id. */
export async function usersByMediaId(
  db: Database,
  mediaUserIds: string[],
): Promise<Map<string, LinkedUser>> {
  const out = new Map<string, LinkedUser>();
  const ids = [...new Set(mediaUserIds)].filter((id) => id !== '');
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .select({ id: users.id, username: users.username, mediaUserId: users.mediaUserId })
      .from(users)
      .where(inArray(users.mediaUserId, ids.slice(i, i + 500)));
    for (const r of rows)
      if (r.mediaUserId) out.set(r.mediaUserId, { ...r, mediaUserId: r.mediaUserId });
  }
  return out;
}
