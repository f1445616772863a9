// The secret-destination attack, for every secret the registry binds to a destination: an admin
// session moves one destination key (URL, host, port, user) to a listener of its own, without
// the secret, in a connection test and in a save. The listener must receive nothing, the reply
// must be 422 SECRET_REENTRY_REQUIRED naming the secret, and the settings must not change. Then,
// with the secret typed again, the same test reaches the listener (the attack would be seen).
import { sql } from 'drizzle-orm';
import { SECRET_BINDINGS } from '../src/settings-store/binding.js';
import { startRecordingListener, type RecordingListener } from '../tests/support/listener.js';
import { recordFigures } from './figures.js';
import { reliabilityEnv, secretFindings, type ReliabilityEnv } from './harness.js';

/** Secrets the harness leaves unset (servarr keys, SSO): given here so the attack has a target. */
const EXTRA = {
  OIDC_ISSUER_URL: 'https://id.example/application/o/usher/',
  OIDC_CLIENT_ID: 'usher',
  OIDC_CLIENT_SECRET: 'MarkerOidcSecret7f3a9c1e5d2b',
  AUTOMATION_API_KEY: 'MarkerRadarrKey7f3a9c1e5d2b',
  AUTOMATION_SERIES_API_KEY: 'MarkerSonarrKey7f3a9c1e5d2b',
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: '2',
  SMTP_USERNAME: 'mailer',
  SMTP_SECURITY: 'none',
};

/** Greets like a server (so an SMTP client talks), records every byte, then hangs up. */
const startListener = () => startRecordingListener({ greeting: '220 listener ESMTP\r\n' });

/** The value that points one destination key at the listener. */
function moved(key: string, l: RecordingListener): string | number {
  if (key.endsWith('_URL') || key.endsWith('_BASE')) return `http://127.0.0.1:${l.port}`;
  if (key === 'SMTP_PORT') return l.port;
  if (key === 'SMTP_HOST') return 'localhost';
  if (key === 'SMTP_SECURITY') return 'tls';
  return 'eve';
}

let env: ReliabilityEnv;
let listener: RecordingListener;
afterAll(async () => {
  await listener?.close();
  await env?.close();
});

const settingsDigest = async (e: ReliabilityEnv) =>
  (
    (await e.t.context.db.execute(
      sql`select count(*)::text || ':' || coalesce(md5(string_agg(s::text, ',' order by s::text)), '') as d from settings s`,
    )) as unknown as { rows: { d: string }[] }
  ).rows[0]!.d;

describe('secret destination', () => {
  it('should send no bound secret to a destination the draft moves, in a test or a save', async () => {
    env = await reliabilityEnv(EXTRA);
    listener = await startListener();
    const admin = await env.admin();
    let attempts = 0;
    let refused = 0;
    const problems: string[] = [];
    const before = await settingsDigest(env);
    for (const b of SECRET_BINDINGS) {
      const stored = await env.t.context.settings.store.getString(b.secret);
      expect([b.secret, stored.length > 0]).toEqual([b.secret, true]);
      for (const key of b.destinations) {
        const values = { [key]: moved(key, listener) };
        const g = b.group;
        for (const [method, path] of [
          ['POST', `/api/v1/admin/settings/${g}/test`],
          ['PUT', `/api/v1/admin/settings/${g}`],
        ] as const) {
          attempts++;
          const seen = listener.connections;
          const { res, text } = await env.send(method, path, {
            token: admin.token,
            body: { values },
          });
          const label = `${method} ${g} moving ${key} (${b.secret})`;
          const body = JSON.parse(text) as {
            error?: { code: string; details?: { keys: string[] } };
          };
          if (res.status !== 422 || body.error?.code !== 'SECRET_REENTRY_REQUIRED') {
            problems.push(`${label}: ${res.status} ${text.slice(0, 120)}`);
          } else if (!body.error.details?.keys.includes(b.secret)) {
            problems.push(`${label}: details.keys lacks the secret`);
          } else refused++;
          if (listener.connections !== seen) problems.push(`${label}: the listener was called`);
          if (listener.received.includes(stored)) problems.push(`${label}: the secret arrived`);
        }
      }
    }
    const after = await settingsDigest(env);

    // The same move with every secret of the group typed again is let through: the listener
    // is called, so the attack above would have been seen.
    const reached = listener.connections;
    const retyped = await env.send('POST', '/api/v1/admin/settings/metadata/test', {
      token: admin.token,
      body: {
        values: {
          TMDB_API_BASE: `http://127.0.0.1:${listener.port}`,
          TMDB_API_KEY: '0123456789abcdef'.repeat(2),
        },
      },
    });

    recordFigures('secret destination (every bound secret × destination key × test/save)', {
      bindings: SECRET_BINDINGS.length,
      attempts,
      refused,
      listenerConnections: reached,
    });
    expect(problems).toEqual([]);
    expect(after).toBe(before);
    expect(retyped.res.status).toBe(200);
    expect(listener.connections).toBeGreaterThan(reached);
    expect(
      secretFindings(env).concat(
        Object.values(EXTRA)
          .filter((v) => v.startsWith('Marker'))
          .filter((v) => env.replies.join('\n').includes(v) || env.t.logs.text().includes(v)),
      ),
    ).toEqual([]);
  });
});
