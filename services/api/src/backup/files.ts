import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKUP_EXTENSION } from './format.js';

/** `usher-20261207T105229.123Z.usher-backup.gz`: sorts by time, safe in every file system. */
export function backupFileName(at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, '');
  return `usher-${stamp}${BACKUP_EXTENSION}`;
}

/** A name `listBackups` accepts, so a download can never name another file. */
export const BACKUP_NAME = /^usher-[0-9A-Za-z._-]{1,64}\.usher-backup\.gz$/;

export interface BackupFile {
  name: string;
  bytes: number;
  modifiedAt: Date;
}

/** Backup files in `dir`, newest first; a missing folder has none. */
export async function listBackups(dir: string): Promise<BackupFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    // No folder yet (no backup made): an empty list, not an error.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const files: BackupFile[] = [];
  for (const name of names) {
    if (!BACKUP_NAME.test(name)) continue;
    const info = await stat(join(dir, name));
    if (info.isFile()) files.push({ name, bytes: info.size, modifiedAt: info.mtime });
  }
  return files.sort(
    (a, b) => b.modifiedAt.getTime() - a.modifiedAt.getTime() || b.name.localeCompare(a.name),
  );
}

/** Deletes all but the newest `keep` backup files; returns the names deleted. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const old = (await listBackups(dir)).slice(Math.max(keep, 1));
  for (const file of old) await rm(join(dir, file.name), { force: true });
  return old.map((f) => f.name);
}
