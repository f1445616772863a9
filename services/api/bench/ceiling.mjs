// The bench's ceiling: a bare Hono app on @hono/node-server with a pg pool of the API's size,
// answering GET /me with one primary-key read of the users table — what the machine can do for
// the same work with nothing of Usher around it. Started by api.bench.test.ts:
//   node bench/ceiling.mjs  (env: DATABASE_URL, POOL_MAX, PORT, USER_ID)
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_MAX ?? 10),
});
const userId = process.env.USER_ID;
const app = new Hono();
app.get('/me', async (c) => {
  const { rows } = await pool.query('select * from users where id = $1', [userId]);
  return c.json(rows[0] ?? null);
});
app.get('/health', (c) => c.json({ status: 'ok' }));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' }, () => {
  process.stdout.write('ceiling listening\n');
});
process.on('SIGTERM', () => process.exit(0));
