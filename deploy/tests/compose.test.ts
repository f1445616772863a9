/**
 * compose/compose.yaml through Debian's docker-compose 1.29 (70-deploy.md §6, §8): the strictest
 * parser an operator meets. `config` validates and interpolates without a Docker engine. 1.29's
 * `config --services` ignores profiles, so the profile is asserted on the parsed file.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { COMPOSE_DIR, ROOT, describeWithTool, onPath, run } from './support/tools.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Service = Record<string, any>;

const REQUIRED = [
  'DATABASE_PASSWORD',
  'JWT_SECRET',
  'CONFIG_ENCRYPTION_KEY',
  'INTERNAL_API_SECRET',
];
const COMPOSE_FILE = join(COMPOSE_DIR, 'compose.yaml');
const source = readFileSync(COMPOSE_FILE, 'utf8');
const raw = parse(source, { merge: true }) as { services: Record<string, Service> } & Service;

let dir: string;
/** An env file made the way the README says: copy .env.example, run scripts/gen-secrets. */
let testEnv: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'usher-compose-'));
  copyFileSync(join(COMPOSE_DIR, '.env.example'), join(dir, '.env.example'));
  testEnv = join(dir, '.env');
  const gen = run(join(ROOT, 'scripts/gen-secrets'), [testEnv]);
  if (gen.status !== 0) throw new Error(gen.stderr);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The variables `${…}` refers to in compose.yaml. */
const interpolated = [...new Set([...source.matchAll(/\$\{([A-Z_]+)/g)].map((m) => m[1]!))];
/** Variable names an env file assigns or mentions in a commented-out assignment. */
const namesIn = (text: string) =>
  new Set([...text.matchAll(/^#?\s?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!));

describe('compose files (parsed as text)', () => {
  it('should avoid what docker-compose 1.29 rejects: top-level name, include, develop, start_interval', () => {
    expect(raw.name).toBeUndefined();
    expect(raw.include).toBeUndefined();
    for (const s of Object.values(raw.services)) {
      expect(s.develop).toBeUndefined();
      expect(s.healthcheck?.start_interval).toBeUndefined();
    }
  });

  it('should list every interpolated variable in compose/.env.example', () => {
    const listed = namesIn(readFileSync(join(COMPOSE_DIR, '.env.example'), 'utf8'));
    expect(interpolated.filter((v) => !listed.has(v))).toEqual([]);
  });

  it('should keep compose/.env.example secrets empty, COMPOSE_PROJECT_NAME=usher, names as in the root .env.example', () => {
    const text = readFileSync(join(COMPOSE_DIR, '.env.example'), 'utf8');
    for (const v of [
      ...REQUIRED,
      'ADMIN_PASSWORD',
      'MESSENGER_BOT_TOKEN',
      'MESSENGER_WEBHOOK_SECRET',
    ]) {
      expect(text).toMatch(new RegExp(`^${v}=$`, 'm'));
    }
    expect(text).toMatch(/^COMPOSE_PROJECT_NAME=usher$/m);
    const root = namesIn(readFileSync(join(ROOT, '.env.example'), 'utf8'));
    expect([...namesIn(text)].filter((v) => !root.has(v))).toEqual([]);
  });

  it('should default the image tag to the version this file ships with', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const s of ['api', 'web', 'bot']) {
      expect(raw.services[s]!.image).toBe(
        `\${USHER_REGISTRY:-ghcr.io/usher-app}/usher-${s}:\${USHER_VERSION:-${version}}`,
      );
    }
  });

  it('should write each required secret as ${VAR:?…} and the Bot secrets as ${VAR:-}', () => {
    for (const v of REQUIRED)
      expect(source).toContain(`\${${v}:?${v} is empty — run scripts/gen-secrets}`);
    expect(raw.services.bot!.environment.MESSENGER_BOT_TOKEN).toBe('${MESSENGER_BOT_TOKEN:-}');
    expect(raw.services.bot!.environment.MESSENGER_WEBHOOK_SECRET).toBe(
      '${MESSENGER_WEBHOOK_SECRET:-}',
    );
  });
});

describeWithTool(
  'docker-compose',
  onPath('docker-compose'),
  'compose config (docker-compose 1.29)',
  (compose) => {
    /** `config` with a clean environment: CI's own variables must not leak into interpolation. */
    const config = (envFile: string, files = ['compose.yaml']) =>
      run(
        compose,
        [...files.flatMap((f) => ['-f', join(COMPOSE_DIR, f)]), '--env-file', envFile, 'config'],
        {
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir },
        },
      );
    let services: Record<string, Service>;
    let rendered: Service;

    beforeAll(() => {
      const result = config(testEnv);
      if (result.status !== 0) throw new Error(result.stderr);
      rendered = parse(result.stdout) as Service;
      services = rendered.services;
    });

    it('should validate with the test env (exit 0) and render the four services', () => {
      expect(Object.keys(services).sort()).toEqual(['api', 'bot', 'database', 'web']);
    });

    it.each(REQUIRED)('should exit non-zero naming %s when it is missing', (variable) => {
      const broken = join(dir, `missing-${variable}.env`);
      const text = readFileSync(testEnv, 'utf8').replace(
        new RegExp(`^${variable}=.*$`, 'm'),
        `${variable}=`,
      );
      writeFileSync(broken, text);
      const result = config(broken);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain(`${variable} is empty — run scripts/gen-secrets`);
    });

    it('should start with the root .env.example too, once its secrets are filled', () => {
      const rootEnv = join(dir, 'root.env');
      copyFileSync(join(ROOT, '.env.example'), join(dir, 'root.env.example'));
      writeFileSync(rootEnv, readFileSync(join(dir, 'root.env.example'), 'utf8'));
      expect(run(join(ROOT, 'scripts/gen-secrets'), [rootEnv]).status).toBe(0);
      expect(config(rootEnv).status).toBe(0);
    });

    it('should keep the Bot behind the `bot` profile and nothing else', () => {
      expect(services.bot!.profiles).toEqual(['bot']);
      for (const s of ['database', 'api', 'web']) expect(services[s]!.profiles).toBeUndefined();
    });

    it('should publish no database port and keep the database on the internal backend network only', () => {
      expect(services.database!.ports).toBeUndefined();
      expect(Object.keys(services.database!.networks)).toEqual(['backend']);
      expect(rendered.networks.backend.internal).toBe(true);
      expect(rendered.networks.frontend.internal).toBeUndefined();
    });

    it('should publish web on WEB_PORT and API/Bot on loopback by default', () => {
      const ports = (s: string) =>
        services[s]!.ports.map((p: Service | string) =>
          typeof p === 'string' ? p : `${p.host_ip ?? ''}:${p.published}:${p.target}`,
        );
      expect(ports('web').join()).toMatch(/80:8080/);
      expect(ports('api').join()).toMatch(/^127\.0\.0\.1:8080:8080/);
      expect(ports('bot').join()).toMatch(/^127\.0\.0\.1:8000:8000/);
    });

    it('should gate api on a healthy database, and web and bot on a healthy api', () => {
      expect(services.api!.depends_on).toEqual({ database: { condition: 'service_healthy' } });
      expect(services.web!.depends_on).toEqual({ api: { condition: 'service_healthy' } });
      expect(services.bot!.depends_on).toEqual({ api: { condition: 'service_healthy' } });
    });

    it('should health-check every service as §6 says', () => {
      expect(services.database!.healthcheck).toMatchObject({
        test: ['CMD', 'pg_isready', '-U', 'usher', '-d', 'usher'],
        interval: '10s',
        timeout: '5s',
        retries: 5,
        start_period: '30s',
      });
      for (const s of ['api', 'bot']) {
        expect(services[s]!.healthcheck).toMatchObject({
          test: ['CMD', 'node', 'healthcheck.mjs'],
          interval: '30s',
          timeout: '5s',
          retries: 3,
        });
      }
      expect(services.api!.healthcheck.start_period).toBe('1m');
      expect(services.web!.healthcheck.test.join(' ')).toContain(
        'wget -q -O /dev/null http://127.0.0.1:8080/healthz',
      );
    });

    it('should apply x-defaults and x-hardening to every service', () => {
      for (const [id, s] of Object.entries(services)) {
        expect({ id, restart: s.restart, init: s.init }).toEqual({
          id,
          restart: 'unless-stopped',
          init: true,
        });
        expect(s.logging).toEqual({
          driver: 'json-file',
          options: { 'max-size': '10m', 'max-file': '3' },
        });
        expect(s.read_only).toBe(true);
        expect(s.cap_drop).toEqual(['ALL']);
        expect(s.security_opt).toEqual(['no-new-privileges:true']);
        expect(s.tmpfs).toContain('/tmp');
      }
      expect(services.web!.tmpfs).toContain('/etc/nginx/conf.d');
      expect(services.database!.stop_grace_period).toBe('60s');
    });

    it('should keep backups in their own volume at the API BACKUP_DIR, off until BACKUP_CRON is set', () => {
      const api = services.api!;
      expect(api.environment).toMatchObject({
        BACKUP_DIR: '/app/data/backups',
        BACKUP_CRON: '',
        BACKUP_KEEP: '7',
      });
      expect(JSON.stringify(api.volumes)).toMatch(
        /backups.*\/app\/data\/backups|\/app\/data\/backups.*backups/,
      );
      expect(Object.keys(rendered.volumes)).toEqual(
        expect.arrayContaining(['database', 'backups']),
      );
    });

    it('should wire the service addresses of §2', () => {
      const api = services.api!.environment;
      expect(api).toMatchObject({
        PORT: '8080',
        BOT_NOTIFY_URL: 'http://bot:8000',
        TRUST_PROXY_HOPS: '1',
        DATABASE_URL: 'postgres://usher@database:5432/usher',
      });
      expect(services.web!.environment).toMatchObject({
        API_UPSTREAM: 'api:8080',
        BOT_UPSTREAM: 'bot:8000',
      });
      const bot = services.bot!.environment;
      expect(bot).toMatchObject({ API_URL: 'http://api:8080', BOT_PORT: '8000' });
      expect(bot.DATABASE_URL).toBe(
        `postgres://usher:${api.DATABASE_PASSWORD}@database:5432/usher`,
      );
      expect(bot.JWT_SECRET).toBeUndefined();
      expect(bot.CONFIG_ENCRYPTION_KEY).toBeUndefined();
      expect(services.web!.environment.JWT_SECRET).toBeUndefined();
    });

    it('should accept compose.build.yaml on top, building each image from the repository root', () => {
      const result = config(testEnv, ['compose.yaml', 'compose.build.yaml']);
      expect(result.status).toBe(0);
      const built = (parse(result.stdout) as Service).services;
      expect(built.api.build).toEqual({ context: ROOT, dockerfile: 'Dockerfile.api' });
      expect(built.web.build).toEqual({ context: ROOT, dockerfile: 'web/Dockerfile' });
      expect(built.bot.build).toEqual({ context: ROOT, dockerfile: 'Dockerfile.bot' });
    });
  },
);
