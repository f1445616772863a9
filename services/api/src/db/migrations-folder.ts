import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the committed SQL lives: next to main.js in the image and the bundle, `../../drizzle`
 * from these sources (tests).
 */
export function migrationsFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [
    join(here, 'drizzle'),
    join(here, '../drizzle'),
    join(here, '../../drizzle'),
  ]) {
    if (existsSync(join(candidate, 'meta/_journal.json'))) return candidate;
  }
  throw new Error('migrations folder not found next to the API');
}
