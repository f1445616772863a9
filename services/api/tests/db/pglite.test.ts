import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initdbApart, openPglite } from '../../src/db/client.js';

/** The embedded engine as `npm start` opens it (issue 21: its resident memory). */
describe('openPglite on a folder', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'usher-pglite-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('should create the database on an empty folder, keep its rows and reopen it', async () => {
    const data = join(dir, 'db');
    const first = await openPglite(data);
    expect(existsSync(join(data, 'PG_VERSION'))).toBe(true);
    await first.client.exec('create table kept (n int); insert into kept values (42)');
    await first.close();

    const again = await openPglite(data);
    const rows = await again.client.query<{ n: number }>('select n from kept');
    expect(rows.rows).toEqual([{ n: 42 }]);
    await again.close();
  });

  it('should start with 16 MB of shared buffers and pg_trgm available', async () => {
    const handle = await openPglite(join(dir, 'db'));
    const shown = await handle.client.query<{ shared_buffers: string }>('show shared_buffers');
    expect(shown.rows[0]?.shared_buffers).toBe('16MB');
    await handle.client.exec('create extension if not exists pg_trgm');
    const sim = await handle.client.query<{ s: number }>(`select similarity('usher', 'usher') s`);
    expect(sim.rows[0]?.s).toBe(1);
    await handle.close();
  });

  it('should run initdb in a throwaway process that leaves a database behind', async () => {
    const data = join(dir, 'apart');
    await initdbApart(data);
    expect(existsSync(join(data, 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(data, 'base'))).toBe(true);
  });

  it('should reject with the error of the child when initdb cannot write the folder', async () => {
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'x');
    await expect(initdbApart(join(file, 'db'))).rejects.toThrow(/PGlite initdb failed/);
  });
});
