// `helm test` smoke check (70-deploy.md §7), run in the API image: `node smoke.mjs`.
// Walks the checks in order and exits 1 on the first failure, naming it; 0 when all pass.
//
//   SMOKE_API_URL  e.g. http://usher-api:8080   (required)
//   SMOKE_WEB_URL  e.g. http://usher-web:80     (required)
//   SMOKE_BOT_URL  e.g. http://usher-bot:8000   (only when the Bot is enabled)
//   SMOKE_ATTEMPTS tries per check, default 5
//
// Each check gets a few attempts: `helm test` may run while a rollout is still settling.
/* global fetch, AbortSignal, setTimeout */
const ATTEMPTS = Math.max(1, Number(process.env.SMOKE_ATTEMPTS) || 5);
const PAUSE_MS = 2000;
const TIMEOUT_MS = 5000;

const env = (name) => (process.env[name] ?? '').replace(/\/+$/, '');
const api = env('SMOKE_API_URL');
const web = env('SMOKE_WEB_URL');
const bot = env('SMOKE_BOT_URL');
if (!api || !web) {
  console.error('smoke: SMOKE_API_URL and SMOKE_WEB_URL must be set');
  process.exit(2);
}

/** Each check returns a problem description, or '' when it passed. */
const checks = [
  ['API /health returns 200', `${api}/health`, (res) => expectStatus(res)],
  ['Web /healthz returns 200', `${web}/healthz`, (res) => expectStatus(res)],
  [
    'Web / returns HTML containing <app-root',
    `${web}/`,
    (res, body) => expectStatus(res) || (body.includes('<app-root') ? '' : 'no <app-root in body'),
  ],
  [
    'Web /api/v1/public/site returns 200 JSON (proxy to the API)',
    `${web}/api/v1/public/site`,
    (res, body) => expectStatus(res) || expectJson(res, body),
  ],
];
if (bot) checks.push(['Bot /health returns 200', `${bot}/health`, (res) => expectStatus(res)]);

function expectStatus(res) {
  return res.status === 200 ? '' : `status ${res.status}`;
}

function expectJson(res, body) {
  if (!(res.headers.get('content-type') ?? '').includes('application/json')) {
    return `content-type ${res.headers.get('content-type')}`;
  }
  try {
    JSON.parse(body);
    return '';
  } catch {
    return 'body is not JSON';
  }
}

async function attempt(url, verify) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' });
    return verify(res, await res.text());
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

for (const [name, url, verify] of checks) {
  let problem = '';
  for (let i = 1; i <= ATTEMPTS; i++) {
    problem = await attempt(url, verify);
    if (!problem) break;
    if (i < ATTEMPTS) await new Promise((r) => setTimeout(r, PAUSE_MS));
  }
  if (problem) {
    console.error(`smoke: FAILED: ${name} (${url}): ${problem}`);
    process.exit(1);
  }
  console.log(`smoke: ok: ${name}`);
}
console.log('smoke: all checks passed');
