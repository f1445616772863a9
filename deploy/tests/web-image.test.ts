/**
 * Web image, container-equivalent (70-deploy.md §5, §8). Without a Docker engine this performs
 * web/Dockerfile's steps: scripts/image/assemble-web.sh (the build stage) into a temporary folder,
 * then the runtime stage's layout: the app tree owned by root, the templates rendered like the
 * image's entrypoint does, Debian's real nginx running them as uid 101 (support/nginx.ts). It
 * proxies to the real API (built bundle, throwaway PGlite database, TRUST_PROXY_HOPS=1 as in
 * Compose) and to a stub Bot, and checks what a browser, the messenger platform and an operator
 * see: SPA fallback, cache policy, gzip, security headers and CSP, body limits, an admin login
 * through nginx, the webhook path with and without a Bot.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { eventually } from '@usher/testkit';
import { buildApi, logLine, startApi, type Api } from './support/api.js';
import {
  CONTAINER_PATHS,
  assembleWeb,
  localResolvers,
  nginxPath,
  runsAsRoot,
  startWebSite,
  testConfig,
  renderSite,
  webImageEnv,
  type NginxSite,
  type WebBuild,
} from './support/nginx.js';
import { freePort } from './support/process.js';
import { ROOT, describeWithTool, onPath } from './support/tools.js';

const HASHED = /-[A-Za-z0-9_-]{8,}\.(js|css)$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The CSP the API sends when it serves the app itself, read as text (no cross-project import). */
function apiWebCsp(): string {
  const source = readFileSync(join(ROOT, 'services/api/src/http/web-static.ts'), 'utf8');
  // `webCsp(imgExtra)` returns string pieces joined with `+`; with no extra origins the
  // `${extra}` placeholder is empty, which is what the image sends when CSP_IMG_EXTRA is unset.
  const body = /export function webCsp\([^)]*\): string \{[\s\S]*?return \(([\s\S]*?)\);\n\}/.exec(
    source,
  )?.[1];
  if (!body) throw new Error('webCsp() not found in web-static.ts');
  return [...body.matchAll(/"([^"]*)"|`([^`]*)`/g)]
    .map((m) => (m[1] ?? m[2] ?? '').replaceAll('${extra}', ''))
    .join('');
}
/** envsubst leaves "tmdb.org ;" when CSP_IMG_EXTRA is empty; browsers ignore that space. */
const normaliseCsp = (csp: string | null) => (csp ?? '').replace(/\s+;/g, ';').trim();

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'cross-origin-opener-policy': 'same-origin',
};

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** Raw HTTP (node:http): no automatic decompression, and a chosen local address. */
function send(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
    localAddress?: string;
  } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.localAddress,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode!, headers: res.headers, body, text: body.toString() });
        });
        res.on('error', reject);
      },
    );
    // A body nginx refuses may end the connection before it is all sent: keep the answer.
    req.on('error', reject);
    req.end(options.body);
  });
}

const json = (r: Reply) => JSON.parse(r.text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface BotHit {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A stand-in for the Bot's HTTP server: records webhook calls and answers 200. */
async function startBotStub(): Promise<{
  port: number;
  hits: BotHit[];
  close: () => Promise<void>;
}> {
  const hits: BotHit[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      hits.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    port,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

describeWithTool(
  'nginx, envsubst (and setpriv as root)',
  nginxPath,
  'web image, container-equivalent (nginx + API + Bot stub)',
  (nginx) => {
    let tmp: string;
    let web: WebBuild;
    let out: string;
    let html: string;
    let api: Api;
    let bot: Awaited<ReturnType<typeof startBotStub>>;
    let site: NginxSite;
    let htmlBefore: string[];
    const sites: NginxSite[] = [];

    /** The image on `web`, in `tmp/name`, with these upstreams (stopped in afterAll). */
    async function site2(name: string, env: Record<string, string>): Promise<NginxSite> {
      const started = await startWebSite(nginx, web, join(tmp, name), env);
      sites.push(started);
      return started;
    }

    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'usher-web-image-'));
      chmodSync(tmp, 0o755);
      web = assembleWeb(join(tmp, 'out'));
      ({ out, html } = web);
      htmlBefore = filesUnder(html);
      // The API the image proxies to: its production bundle (what assemble-api.sh ships).
      buildApi();
      const apiDir = join(tmp, 'api');
      mkdirSync(apiDir);
      [api, bot] = await Promise.all([startApi(apiDir), startBotStub()]);
      site = await site2('web', {
        API_UPSTREAM: api.url.replace('http://', ''),
        BOT_UPSTREAM: `127.0.0.1:${bot.port}`,
      });
    }, 900_000);

    afterAll(async () => {
      for (const s of sites) await s.stop();
      await bot?.close();
      await api?.stop();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    describe('assembled runtime files (the build stage)', () => {
      it('should hold the production build in html/ and both templates in templates/', () => {
        expect(readFileSync(join(html, 'index.html'), 'utf8')).toContain('<app-root');
        expect(readdirSync(web.templates).sort()).toEqual([
          'default.conf.template',
          'security-headers.inc.template',
        ]);
        expect(htmlBefore.some((f) => /^main-.*\.js$/.test(f))).toBe(true);
        expect(htmlBefore.filter((f) => f.includes('node_modules') || f.endsWith('.map'))).toEqual(
          [],
        );
      });

      it('should ship an app the CSP allows: no inline script, no inline handler, no eval', () => {
        const index = readFileSync(join(html, 'index.html'), 'utf8');
        const scripts = [...index.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
        expect(scripts.length).toBeGreaterThan(0);
        for (const [, attrs, body] of scripts) {
          expect({ attrs, inline: body!.trim() }).toEqual({
            attrs: expect.stringMatching(/\bsrc="[^":]+"/),
            inline: '',
          });
        }
        expect(index).not.toMatch(/\son[a-z]+\s*=/i);
        // Remote origins would also break `default-src 'self'`.
        expect(index).not.toMatch(/(src|href)="(https?:)?\/\//);
        const bundles = htmlBefore.filter((f) => f.endsWith('.js'));
        const offenders = bundles.filter((f) =>
          /\bnew Function\(|\beval\(/.test(readFileSync(join(html, f), 'utf8')),
        );
        expect(offenders).toEqual([]);
      });

      it('should refuse a non-empty output folder instead of cleaning it', () => {
        const result = spawnSync(join(ROOT, 'scripts/image/assemble-web.sh'), [out], {
          encoding: 'utf8',
        });
        expect(result.status).toBe(1);
        expect(result.stderr).toContain('is not empty');
        expect(statSync(join(html, 'index.html')).isFile()).toBe(true);
      });
    });

    describe('rendered configuration', () => {
      it('should substitute every template variable and keep nginx variables', () => {
        expect(site.conf).not.toMatch(/\$\{[A-Z_]+\}/);
        expect(site.conf).toContain(`set $api_upstream ${api.url.replace('http://', '')};`);
        expect(site.conf).toContain('proxy_pass http://$api_upstream;');
        expect(site.conf).toContain(`resolver ${localResolvers()} valid=10s ipv6=off;`);
      });

      it('should rebase only the container paths named in support/nginx.ts', () => {
        const template = readFileSync(join(ROOT, 'web/nginx/default.conf.template'), 'utf8')
          .split('\n')
          .filter((l) => !/^\s*#/.test(l))
          .join('\n');
        const absolute = [...template.matchAll(/\s(\/(?:usr|etc|var)\/[\w./-]+)/g)].map(
          (m) => m[1]!,
        );
        for (const path of absolute) {
          expect(Object.values(CONTAINER_PATHS).some((p) => path.startsWith(p))).toBe(true);
        }
        expect(template).toMatch(/^\s*listen 8080;$/m);
      });

      it('should pass nginx -t with only the image defaults (upstream names unresolvable here)', () => {
        const dir = join(tmp, 'defaults');
        mkdirSync(dir);
        chmodSync(dir, 0o755);
        renderSite({ templates: web.templates, html, env: webImageEnv(), dir, port: 1 });
        expect(testConfig(nginx, dir)).toMatchObject({ status: 0 });
      });
    });

    describe('the app', () => {
      it('should answer /healthz itself with 200 "ok"', async () => {
        const r = await send(`${site.url}/healthz`);
        expect({ status: r.status, text: r.text }).toEqual({ status: 200, text: 'ok\n' });
      });

      it('should serve index.html with no-cache for / and for deep links (SPA fallback)', async () => {
        const index = readFileSync(join(html, 'index.html'), 'utf8');
        for (const path of [
          '/',
          '/console/account',
          '/admin/settings/media-server',
          '/login?redirect=%2Fconsole',
        ]) {
          const r = await send(`${site.url}${path}`);
          expect({
            path,
            status: r.status,
            type: r.headers['content-type'],
            cache: r.headers['cache-control'],
          }).toEqual({
            path,
            status: 200,
            type: 'text/html; charset=utf-8',
            cache: 'no-cache',
          });
          expect(r.text).toBe(index);
        }
      });

      it('should cache hashed scripts, styles and /media/ for a year, immutable', async () => {
        const hashed = htmlBefore.filter((f) => HASHED.test(f) && !f.includes('/'));
        const media = htmlBefore.find((f) => f.startsWith('media/'));
        expect(hashed.some((f) => f.endsWith('.css'))).toBe(true);
        expect(media).toBeDefined();
        for (const file of [
          ...hashed.slice(0, 3),
          hashed.find((f) => f.endsWith('.css'))!,
          media!,
        ]) {
          const r = await send(`${site.url}/${file}`);
          expect({ file, status: r.status, cache: r.headers['cache-control'] }).toEqual({
            file,
            status: 200,
            cache: IMMUTABLE,
          });
        }
      });

      it('should revalidate unhashed files (boot.js, i18n, favicon) with no-cache and an ETag', async () => {
        for (const path of ['/boot.js', '/i18n/en.json', '/i18n/zh-CN.json', '/favicon.svg']) {
          const r = await send(`${site.url}${path}`);
          expect({ path, status: r.status, cache: r.headers['cache-control'] }).toEqual({
            path,
            status: 200,
            cache: 'no-cache',
          });
          expect(r.headers.etag).toBeTruthy();
          const again = await send(`${site.url}${path}`, {
            headers: { 'if-none-match': r.headers.etag! },
          });
          expect(again.status).toBe(304);
        }
      });

      it('should answer 404, never index.html, for a missing chunk, style, media file or translation', async () => {
        for (const path of [
          '/chunk-ZZZZZZZZ.js',
          '/main-ZZZZZZZZ.js',
          '/styles-ZZZZZZZZ.css',
          '/media/roboto-ZZZZZZZZ.woff2',
          '/i18n/xx.json',
        ]) {
          const r = await send(`${site.url}${path}`);
          expect({ path, status: r.status, app: r.text.includes('<app-root') }).toEqual({
            path,
            status: 404,
            app: false,
          });
          expect(r.headers['cache-control']).toBeUndefined();
        }
      });

      it('should gzip scripts, styles and translations for clients that accept it (Vary set)', async () => {
        const main = htmlBefore.find((f) => /^main-.*\.js$/.test(f))!;
        const css = htmlBefore.find((f) => /^styles-.*\.css$/.test(f))!;
        for (const path of [`/${main}`, `/${css}`, '/i18n/en.json']) {
          const plain = readFileSync(join(html, path));
          const r = await send(`${site.url}${path}`, { headers: { 'accept-encoding': 'gzip' } });
          expect({ path, encoding: r.headers['content-encoding'], vary: r.headers.vary }).toEqual({
            path,
            encoding: 'gzip',
            vary: 'Accept-Encoding',
          });
          expect(gunzipSync(r.body).equals(plain)).toBe(true);
          // Level 6 (issue 14), not nginx's default 1: about gzip -6's size (framing aside).
          expect(r.body.length).toBeLessThanOrEqual(gzipSync(plain, { level: 6 }).length + 64);
          const identity = await send(`${site.url}${path}`);
          expect(identity.headers['content-encoding']).toBeUndefined();
        }
      });

      it("should not proxy the API's /health and /metrics", async () => {
        for (const path of ['/health', '/metrics']) {
          const r = await send(`${site.url}${path}`);
          expect({ path, status: r.status }).toEqual({ path, status: 404 });
          expect(r.text).not.toContain('<app-root');
        }
        expect((await send(`${api.url}/metrics`)).status).toBe(200);
      });

      it('should leave the app tree untouched (nginx writes only its own folders)', () => {
        expect(filesUnder(html)).toEqual(htmlBefore);
        if (runsAsRoot) expect(statSync(join(html, 'index.html')).uid).toBe(0);
      });
    });

    describe('security headers', () => {
      const pathsOf = () => ({
        html: '/console/account',
        asset: `/${htmlBefore.find((f) => /^main-.*\.js$/.test(f))}`,
        api: '/api/v1/public/site',
        apiDocs: '/api/v1/docs',
        notFound: '/chunk-ZZZZZZZZ.js',
        apiNotFound: '/api/v1/internal/ping',
        health: '/healthz',
      });

      it('should send the same CSP the API uses for the app (WEB_CSP)', async () => {
        const r = await send(`${site.url}/`);
        expect(normaliseCsp(r.headers['content-security-policy'] as string)).toBe(apiWebCsp());
      });

      it('should send every header exactly once on HTML, assets, API replies and errors', async () => {
        const expected = apiWebCsp();
        for (const [kind, path] of Object.entries(pathsOf())) {
          const r = await send(`${site.url}${path}`);
          const got = Object.fromEntries(
            Object.keys(SECURITY_HEADERS).map((h) => [h, r.headers[h]]),
          );
          expect({ kind, ...got }).toEqual({ kind, ...SECURITY_HEADERS });
          expect({
            kind,
            csp: normaliseCsp(r.headers['content-security-policy'] as string),
          }).toEqual({
            kind,
            csp: expected,
          });
          expect(r.headers.server).toBe('nginx'); // server_tokens off: no version
        }
      });
    });

    describe('API proxy', () => {
      it("should proxy /api/v1/ and add an X-Request-Id, or keep the client's", async () => {
        const r = await send(`${site.url}/api/v1/public/site`);
        expect(r.status).toBe(200);
        expect(r.headers['content-type']).toMatch(/^application\/json/);
        expect(r.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
        const id = String(r.headers['x-request-id']);
        expect(await logLine(api, (l) => l.includes(`"requestId":"${id}"`))).toBeDefined();
        const mine = await send(`${site.url}/api/v1/public/site`, {
          headers: { 'x-request-id': 'deploy-web-1' },
        });
        expect(mine.headers['x-request-id']).toBe('deploy-web-1');
      });

      it('should log an admin in through nginx with the temporary password from the API log', async () => {
        const login = await send(`${site.url}/api/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: api.password }),
        });
        expect({ status: login.status, body: login.text }).toMatchObject({ status: 200 });
        const { token } = json(login);
        expect(typeof token).toBe('string');
        const me = await send(`${site.url}/api/v1/me`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(me.status).toBe(200);
        expect(json(me)).toMatchObject({
          username: 'admin',
          role: 'admin',
          mustChangePassword: true,
        });
      });

      it('should hand the API the real client address (X-Forwarded-For, TRUST_PROXY_HOPS=1)', async () => {
        // From another loopback address, with a forged header the API must not believe.
        const r = await send(`${site.url}/api/v1/public/site`, {
          localAddress: '127.0.0.7',
          headers: { 'x-request-id': 'deploy-web-ip', 'x-forwarded-for': '203.0.113.9' },
        });
        expect(r.status).toBe(200);
        const line = await logLine(
          api,
          (l) => l.includes('"requestId":"deploy-web-ip"') && l.includes('"msg":"request"'),
        );
        expect(JSON.parse(line ?? '{}')).toMatchObject({ ip: '127.0.0.7' });
      });

      it('should pass webhook bodies up to 5 MiB and refuse larger ones with 413 in the API error body', async () => {
        const four = await send(`${site.url}/api/v1/webhooks/stripe`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-request-id': 'deploy-web-4mib' },
          body: Buffer.alloc(4 * 1024 * 1024, 0x20),
        });
        // The API answered (whatever its verdict on an unsigned body), not nginx's limit.
        expect(four.status).not.toBe(413);
        expect(
          await logLine(api, (l) => l.includes('"requestId":"deploy-web-4mib"')),
        ).toBeDefined();
        const six = await send(`${site.url}/api/v1/webhooks/stripe`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-request-id': 'deploy-web-6mib' },
          body: Buffer.alloc(6 * 1024 * 1024, 0x20),
        });
        expect(six.status).toBe(413);
        expect(six.headers['content-type']).toMatch(/^application\/json/);
        expect(json(six)).toEqual({
          error: {
            code: 'PAYLOAD_TOO_LARGE',
            message: expect.any(String),
            requestId: 'deploy-web-6mib',
          },
        });
        expect(api.log()).not.toContain('"requestId":"deploy-web-6mib"');
      });

      it('should keep the media-server webhook token out of the access log', async () => {
        const token = randomBytes(12).toString('hex');
        await send(`${site.url}/api/v1/webhooks/media-server?token=${token}`, {
          method: 'POST',
          body: '{}',
        });
        await send(`${site.url}/api/v1/webhooks/media-server?token=${token}`, {
          method: 'POST',
          body: Buffer.alloc(6 * 1024 * 1024, 0x20),
        });
        // nginx writes the 413's line once it has drained the rest of the body: poll briefly.
        const lines = () =>
          site.accessLog().match(/POST \/api\/v1\/webhooks\/media-server HTTP/g) ?? [];
        await eventually(() => expect(lines()).toHaveLength(2), {
          timeoutMs: 2000,
          intervalMs: 50,
        });
        expect(site.accessLog()).not.toContain(token);
      });

      it('should replace an unsafe client X-Request-Id, so its own error bodies stay valid JSON', async () => {
        const r = await send(`${site.url}/api/v1/internal/ping`, {
          headers: { 'x-request-id': 'bad", "x": "y' },
        });
        expect(r.status).toBe(404);
        expect(json(r).error.requestId).toMatch(/^[0-9a-f]{32}$/);
        const proxied = await send(`${site.url}/api/v1/public/site`, {
          headers: { 'x-request-id': 'x'.repeat(65) },
        });
        expect(proxied.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
      });

      it('should close the internal routes and any other /api/ path with a JSON 404', async () => {
        const secret = { 'x-internal-secret': 'whatever-the-caller-sends' };
        for (const path of ['/api/v1/internal/ping', '/api/v2/public/site', '/api/health']) {
          const r = await send(`${site.url}${path}`, { headers: secret });
          expect({ path, status: r.status, code: json(r).error?.code }).toEqual({
            path,
            status: 404,
            code: 'NOT_FOUND',
          });
        }
      });
    });

    describe('Bot webhook', () => {
      it('should pass POST /messenger/webhook to the Bot with the secret header and body intact', async () => {
        const update = JSON.stringify({ update_id: 1, message: { text: '/start' } });
        const r = await send(`${site.url}/messenger/webhook`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-telegram-bot-api-secret-token': 'webhook-secret-value',
          },
          body: update,
        });
        expect({ status: r.status, body: r.text }).toEqual({ status: 200, body: '{"ok":true}' });
        const hit = bot.hits.at(-1)!;
        expect(hit).toMatchObject({ method: 'POST', url: '/messenger/webhook', body: update });
        expect(hit.headers['x-telegram-bot-api-secret-token']).toBe('webhook-secret-value');
        expect(hit.headers['x-forwarded-for']).toBe('127.0.0.1');
      });

      it('should answer 405 to other methods without bothering the Bot', async () => {
        const before = bot.hits.length;
        expect((await send(`${site.url}/messenger/webhook`)).status).toBe(405);
        expect(bot.hits.length).toBe(before);
      });

      it('should answer 502 once the Bot is gone, and keep serving the app', async () => {
        await bot.close();
        const r = await send(`${site.url}/messenger/webhook`, { method: 'POST', body: '{}' });
        expect(r.status).toBe(502);
        expect((await send(`${site.url}/console`)).status).toBe(200);
        expect((await send(`${site.url}/api/v1/public/site`)).status).toBe(200);
      });
    });

    describe('without a Bot or an API (Compose without the bot profile, API restarting)', () => {
      let bare: NginxSite;
      beforeAll(async () => {
        // A name that resolves nowhere, like `bot` when its profile is off, and a closed API port.
        bare = await site2('bare', {
          API_UPSTREAM: `127.0.0.1:${await freePort()}`,
          BOT_UPSTREAM: 'usher-bot-absent.invalid:8000',
          CSP_IMG_EXTRA: 'https://img.example.test',
        });
      }, 30_000);

      it('should start and serve the app although the Bot upstream does not resolve', async () => {
        expect((await send(`${bare.url}/healthz`)).status).toBe(200);
        const r = await send(`${bare.url}/console/account`);
        expect(r.status).toBe(200);
        expect(r.text).toContain('<app-root');
      });

      it('should answer 502 on the webhook path', async () => {
        const r = await send(`${bare.url}/messenger/webhook`, { method: 'POST', body: '{}' });
        expect(r.status).toBe(502);
      });

      it('should answer API calls with 503 SERVICE_UNAVAILABLE in the API error body', async () => {
        const r = await send(`${bare.url}/api/v1/public/site`, {
          headers: { 'x-request-id': 'deploy-web-down' },
        });
        expect(r.status).toBe(503);
        expect(r.headers['retry-after']).toBe('5');
        expect(json(r)).toEqual({
          error: {
            code: 'SERVICE_UNAVAILABLE',
            message: expect.any(String),
            requestId: 'deploy-web-down',
          },
        });
        expect(r.headers['x-frame-options']).toBe('DENY');
      });

      it('should append CSP_IMG_EXTRA to img-src', async () => {
        const csp = (await send(`${bare.url}/`)).headers['content-security-policy'] as string;
        expect(csp).toContain(
          "img-src 'self' data: blob: https://image.tmdb.org https://img.example.test;",
        );
      });

      it('should stop gracefully on SIGQUIT (the image STOPSIGNAL)', async () => {
        expect(await bare.stop()).toBe(0);
      });
    });

    describeWithTool('wget', onPath('wget'), 'the image HEALTHCHECK command', () => {
      /** HEALTHCHECK's exec-form argv from web/Dockerfile, aimed at this site's port. */
      const healthcheck = (url: string) => {
        const line = readFileSync(join(ROOT, 'web/Dockerfile'), 'utf8')
          .split('\n')
          .find((l) => l.startsWith('HEALTHCHECK '))!;
        const argv = JSON.parse(line.slice(line.indexOf('CMD ') + 4)) as string[];
        const [cmd, ...args] = argv.map((a) => a.replace('http://127.0.0.1:8080', url));
        return spawnSync(cmd!, args, { timeout: 10_000 }).status;
      };

      it('should pass while nginx runs and fail once it has stopped', async () => {
        const hc = await site2('healthcheck', {});
        expect(healthcheck(hc.url)).toBe(0);
        expect(await hc.stop()).toBe(0);
        expect(healthcheck(hc.url)).not.toBe(0);
      });
    });
  },
);
