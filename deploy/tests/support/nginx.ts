/**
 * Runs the web image's nginx configuration on Debian's nginx, the way the image does
 * (70-deploy.md §5, §8): the templates rendered with envsubst restricted to their own variables
 * (the image's entrypoint substitutes only defined variables, and the image defines all of ours),
 * a main nginx.conf equivalent to the base image's, and the container's absolute paths rebased
 * into a temporary directory. As root, nginx runs as the image's uid 101 (setpriv) so the
 * read-only app tree and the writable /tmp are exercised like in the container.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, start, waitForStatus, type Started } from './process.js';
import { ROOT, onPath } from './tools.js';

export const NGINX_UID = 101;

/** The container paths the templates name, and the folder each lives in under `tmp`. */
export const CONTAINER_PATHS = {
  html: '/usr/share/nginx/html',
  confd: '/etc/nginx/conf.d/',
  logs: '/var/log/nginx/',
} as const;

/** `${NAME}` references of a template (what envsubst would touch). */
export function templateVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)\}/g)].map((m) => m[1]!))].sort();
}

/** What the image entrypoint's 15-local-resolvers.envsh computes from /etc/resolv.conf. */
export function localResolvers(): string {
  let conf = '';
  try {
    conf = readFileSync('/etc/resolv.conf', 'utf8');
  } catch {
    // No resolv.conf: fall back below.
  }
  const servers = conf
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([key, value]) => key === 'nameserver' && value)
    .map(([, value]) => (value!.includes(':') ? `[${value}]` : value!));
  return servers.join(' ') || '127.0.0.1';
}

export interface NginxSite {
  /** http://127.0.0.1:port */
  url: string;
  dir: string;
  /** The rendered default.conf, after rebasing. */
  conf: string;
  /** Access log lines so far. */
  accessLog: () => string;
  errorLog: () => string;
  process: Started;
  /** SIGQUIT (the image's STOPSIGNAL: graceful), resolves with the exit code. */
  stop: () => Promise<number | string>;
}

export interface SiteOptions {
  /** Folder with default.conf.template and security-headers.inc.template. */
  templates: string;
  /** The app files (the image's /usr/share/nginx/html). */
  html: string;
  /** Values for the templates' variables (the image's ENV plus the entrypoint's resolvers). */
  env: Record<string, string>;
  /** A fresh folder for this nginx (config, logs, pid, temp files). */
  dir: string;
  port: number;
}

export const runsAsRoot = process.getuid?.() === 0;
/**
 * nginx when everything the web suite needs is there: nginx, envsubst, and setpriv when running as
 * root (nginx then drops to the image's uid, as in the container).
 */
export const nginxPath =
  onPath('envsubst') && (!runsAsRoot || onPath('setpriv')) ? onPath('nginx') : undefined;

/** Renders the templates into `dir/conf.d` and writes `dir/nginx.conf`; returns default.conf. */
export function renderSite(options: SiteOptions): string {
  const { templates, html, env, dir, port } = options;
  const confd = join(dir, 'conf.d');
  const logs = join(dir, 'logs');
  mkdirSync(confd, { recursive: true });
  mkdirSync(logs, { recursive: true });
  for (const file of readdirSync(templates).filter((f) => f.endsWith('.template'))) {
    const text = readFileSync(join(templates, file), 'utf8');
    const vars = templateVariables(text);
    const missing = vars.filter((v) => env[v] === undefined);
    if (missing.length) throw new Error(`${file}: no value for ${missing.join(', ')}`);
    const rendered = spawnSync('envsubst', [vars.map((v) => `\${${v}}`).join(' ')], {
      input: text,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    });
    if (rendered.status !== 0) throw new Error(`envsubst ${file} failed: ${rendered.stderr}`);
    const rebased = rendered.stdout
      .split(CONTAINER_PATHS.html)
      .join(html)
      .split(CONTAINER_PATHS.confd)
      .join(`${confd}/`)
      .split(CONTAINER_PATHS.logs)
      .join(`${logs}/`)
      // The container's port, on loopback here.
      .replace(/^(\s*)listen 8080;$/m, `$1listen 127.0.0.1:${port};`);
    writeFileSync(join(confd, file.replace(/\.template$/, '')), rebased);
  }
  // The base image's /etc/nginx/nginx.conf (nginx-unprivileged): no `user`, pid and temp paths
  // in /tmp, mime types, the `main` access log, sendfile, conf.d/*.conf inside http.
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
error_log ${logs}/error.log notice;
pid ${dir}/nginx.pid;
events { worker_connections 256; }
http {
    proxy_temp_path ${dir}/proxy_temp;
    client_body_temp_path ${dir}/client_temp;
    fastcgi_temp_path ${dir}/fastcgi_temp;
    uwsgi_temp_path ${dir}/uwsgi_temp;
    scgi_temp_path ${dir}/scgi_temp;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    log_format main '$remote_addr - $remote_user [$time_local] "$request" '
                    '$status $body_bytes_sent "$http_referer" '
                    '"$http_user_agent" "$http_x_forwarded_for"';
    access_log ${logs}/access.log main;
    sendfile on;
    keepalive_timeout 65;
    include ${confd}/*.conf;
}
`,
  );
  writeFileSync(join(logs, 'access.log'), '');
  writeFileSync(join(logs, 'error.log'), '');
  if (runsAsRoot) {
    // Writable for the nginx uid: what /tmp and the log symlinks are in the container.
    for (const p of [dir, logs, join(logs, 'access.log'), join(logs, 'error.log')]) {
      chownSync(p, NGINX_UID, NGINX_UID);
    }
  }
  return readFileSync(join(confd, 'default.conf'), 'utf8');
}

/** `nginx -t` on a rendered site: returns status and output. */
export function testConfig(nginx: string, dir: string): { status: number | null; output: string } {
  const result = spawnSync(
    nginx,
    ['-t', '-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'logs/error.log')],
    { encoding: 'utf8' },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Renders and starts nginx in the foreground; resolves once /healthz answers 200. */
export async function startSite(nginx: string, options: SiteOptions): Promise<NginxSite> {
  const conf = renderSite(options);
  const { dir, port } = options;
  const args = [
    '-p',
    dir,
    '-c',
    join(dir, 'nginx.conf'),
    '-e',
    join(dir, 'logs/error.log'),
    '-g',
    'daemon off;',
  ];
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  const proc = runsAsRoot
    ? start(
        'setpriv',
        [`--reuid=${NGINX_UID}`, `--regid=${NGINX_UID}`, '--clear-groups', '--', nginx, ...args],
        dir,
        env,
      )
    : start(nginx, args, dir, env);
  const url = `http://127.0.0.1:${port}`;
  const status = await waitForStatus(`${url}/healthz`, 200, 15_000);
  const read = (f: string) => () => readFileSync(join(dir, 'logs', f), 'utf8');
  if (status !== 200) {
    proc.child.kill('SIGKILL');
    throw new Error(
      `nginx did not answer /healthz (${status}):\n${proc.output()}\n${read('error.log')()}`,
    );
  }
  return {
    url,
    dir,
    conf,
    accessLog: read('access.log'),
    errorLog: read('error.log'),
    process: proc,
    stop: async () => {
      if (proc.child.exitCode === null && proc.child.signalCode === null)
        proc.child.kill('SIGQUIT');
      return proc.exited;
    },
  };
}

/** What scripts/image/assemble-web.sh leaves in its output folder (web/Dockerfile's build stage). */
export interface WebBuild {
  out: string;
  /** The production Angular build (the image's /usr/share/nginx/html). */
  html: string;
  /** web/nginx/*.template (the image's /etc/nginx/templates). */
  templates: string;
}

/** The build stage: `RUN scripts/image/assemble-web.sh /out`, into `out`. */
export function assembleWeb(out: string): WebBuild {
  const assembled = spawnSync(join(ROOT, 'scripts/image/assemble-web.sh'), [out], {
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (assembled.status !== 0) throw new Error(`assemble-web.sh failed:\n${assembled.stderr}`);
  return { out, html: join(out, 'html'), templates: join(out, 'templates') };
}

/** The web image's ENV (plus what its entrypoint exports), with `over` on top. */
export function webImageEnv(over: Record<string, string> = {}): Record<string, string> {
  return {
    API_UPSTREAM: 'api:8080',
    BOT_UPSTREAM: 'bot:8000',
    CSP_IMG_EXTRA: '',
    NGINX_LOCAL_RESOLVERS: localResolvers(),
    ...over,
  };
}

/**
 * The web image running `web` in a fresh folder `dir` on a free port, with the image's ENV plus
 * `env` (typically API_UPSTREAM and BOT_UPSTREAM).
 */
export async function startWebSite(
  nginx: string,
  web: WebBuild,
  dir: string,
  env: Record<string, string>,
): Promise<NginxSite> {
  mkdirSync(dir);
  chmodSync(dir, 0o755);
  return startSite(nginx, {
    templates: web.templates,
    html: web.html,
    env: webImageEnv(env),
    dir,
    port: await freePort(),
  });
}
