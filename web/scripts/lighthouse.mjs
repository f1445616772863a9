// Lighthouse (mobile preset) on the production build the way the web image serves it: Debian's
// nginx with web/nginx's templates (gzip, cache headers, CSP), and a stub API answering the
// two calls a signed-out first visit makes (`/public/site`; `/me` is not called without a
// token). Best of N runs, as issue 14 asks. Not part of CI: it needs Lighthouse from npm
// (`npx lighthouse@12`), which is not a dependency of the repository.
//
//   node web/scripts/lighthouse.mjs [dist/web/browser] [--runs=3] [--path=/login,/] [--serve]
//     [--dir=/tmp/other]
//
// Prints performance and accessibility scores with FCP, LCP, TBT, CLS, SI and the transfer
// size of each run, and writes the JSON reports to $TMPDIR/usher-lighthouse/.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name, fallback) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const html = resolve(args.find((a) => !a.startsWith('--')) ?? join(web, 'dist/web/browser'));
const runs = Number(flag('runs', '3'));
const paths = flag('path', '/login').split(',');
// --dir= keeps two sites apart (an A/B against an older build).
const out = flag('dir', join(tmpdir(), 'usher-lighthouse'));
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'conf.d'), { recursive: true });
mkdirSync(join(out, 'logs'), { recursive: true });

function listen(server) {
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server.address().port)));
}

// The stub API: what /login needs before its first paint.
const SITE = {
  siteName: 'Usher',
  registrationMode: 'open',
  emailEnabled: false,
  paymentsEnabled: false,
  mediaServerKind: 'emby',
  version: '0.1.0',
  setupPending: false,
  tmdbImageBase: 'https://image.tmdb.org/t/p',
};
const api = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url?.startsWith('/api/v1/public/site')) return res.end(JSON.stringify(SITE));
  res.statusCode = 401;
  res.end(
    JSON.stringify({ error: { code: 'UNAUTHENTICATED', message: 'Sign in', requestId: 'lh' } }),
  );
});
const apiPort = await listen(api);
const probe = createServer();
const port = await listen(probe);
await new Promise((ok) => probe.close(ok));

const env = {
  API_UPSTREAM: `127.0.0.1:${apiPort}`,
  BOT_UPSTREAM: '127.0.0.1:9',
  NGINX_LOCAL_RESOLVERS: '127.0.0.1',
  CSP_IMG_EXTRA: '',
};
for (const file of readdirSync(join(web, 'nginx')).filter((f) => f.endsWith('.template'))) {
  const text = readFileSync(join(web, 'nginx', file), 'utf8')
    .replace(/\$\{([A-Z_]+)\}/g, (whole, name) => env[name] ?? whole)
    .replaceAll('/usr/share/nginx/html', html)
    .replaceAll('/etc/nginx/conf.d/', `${out}/conf.d/`)
    .replaceAll('/var/log/nginx/', `${out}/logs/`)
    .replace(/^(\s*)listen 8080;$/m, `$1listen 127.0.0.1:${port};`);
  writeFileSync(join(out, 'conf.d', file.replace(/\.template$/, '')), text);
}
writeFileSync(
  join(out, 'nginx.conf'),
  `worker_processes 1;
${process.getuid?.() === 0 ? 'user root;' : ''}
error_log ${out}/logs/error.log notice;
pid ${out}/nginx.pid;
events { worker_connections 256; }
http {
  proxy_temp_path ${out}/proxy_temp;
  client_body_temp_path ${out}/client_temp;
  fastcgi_temp_path ${out}/fastcgi_temp;
  uwsgi_temp_path ${out}/uwsgi_temp;
  scgi_temp_path ${out}/scgi_temp;
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log ${out}/logs/access.log;
  sendfile on;
  include ${out}/conf.d/*.conf;
}
`,
);
const nginx = spawn('nginx', ['-p', out, '-c', join(out, 'nginx.conf'), '-g', 'daemon off;'], {
  stdio: 'inherit',
});
await sleep(500);

if (args.includes('--serve')) {
  // Keeps the site up for a manual look or a profiler: Ctrl-C ends it.
  console.log(`serving ${html} at http://127.0.0.1:${port}`);
  await new Promise(() => undefined);
}

const ms = (audit) => Math.round(audit.numericValue);
let failed = false;
try {
  for (const path of paths) {
    const results = [];
    for (let run = 1; run <= runs; run++) {
      const report = join(out, `${path.replaceAll('/', '_') || 'root'}-${run}.json`);
      const lh = spawnSync(
        'npx',
        [
          '--yes',
          'lighthouse@12',
          `http://127.0.0.1:${port}${path}`,
          '--only-categories=performance,accessibility',
          '--output=json',
          `--output-path=${report}`,
          '--quiet',
          `--chrome-path=${process.env.CHROME_PATH ?? '/usr/bin/chromium'}`,
          '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
        ],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
      if (lh.status !== 0) throw new Error(`lighthouse exited ${lh.status}`);
      const { categories: c, audits: a } = JSON.parse(readFileSync(report, 'utf8'));
      results.push({
        performance: Math.round(c.performance.score * 100),
        accessibility: Math.round(c.accessibility.score * 100),
        fcp: ms(a['first-contentful-paint']),
        lcp: ms(a['largest-contentful-paint']),
        tbt: ms(a['total-blocking-time']),
        cls: a['cumulative-layout-shift'].numericValue.toFixed(3),
        si: ms(a['speed-index']),
        transferKB: Math.round(a['total-byte-weight'].numericValue / 1024),
      });
      console.log(path, `run ${run}`, JSON.stringify(results.at(-1)));
    }
    const best = results.reduce((a, b) => (b.performance > a.performance ? b : a));
    console.log(path, 'best', JSON.stringify(best));
  }
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  nginx.kill('SIGQUIT');
  api.close();
}
process.exit(failed ? 1 : 0);
