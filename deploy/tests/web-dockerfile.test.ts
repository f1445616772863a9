/**
 * web/Dockerfile's own rules (70-deploy.md §5), and that Compose and the chart drive the web image
 * with the names and ports its nginx templates use. The generic rules every Dockerfile follows
 * (pinned bases, labels, no secret ARG/ENV) are in dockerfile.test.ts; the image's behaviour is
 * exercised by web-image.test.ts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { containerOf, get, name, render, type Manifest } from './support/chart.js';
import { parseDockerfile, type Instruction } from './support/dockerfile.js';
import { templateVariables } from './support/nginx.js';
import { ROOT, describeWithTool, findHelm } from './support/tools.js';

const TEMPLATE_DIR = join(ROOT, 'web/nginx');
const templates = readdirSync(TEMPLATE_DIR).filter((f) => f.endsWith('.template'));
const templateText = templates.map((f) => readFileSync(join(TEMPLATE_DIR, f), 'utf8')).join('\n');
/** Exported by the image's entrypoint (15-local-resolvers.envsh), not by ENV. */
const ENTRYPOINT_VARS = ['NGINX_LOCAL_RESOLVERS'];
/** The variables an operator (Compose, the chart) sets. */
const OPERATOR_VARS = templateVariables(templateText).filter((v) => !ENTRYPOINT_VARS.includes(v));
const LISTEN_PORT = Number(/^\s*listen (\d+);$/m.exec(templateText)?.[1]);

/** KEY=value pairs of an ENV instruction (quoted values unquoted). */
function envPairs(ins: Instruction): Map<string, string> {
  return new Map(
    [...ins.args.matchAll(/([A-Za-z_]\w*)=("[^"]*"|\S*)/g)].map((m) => [
      m[1]!,
      m[2]!.replace(/^"|"$/g, ''),
    ]),
  );
}

describe('web/Dockerfile', () => {
  const { args, stages } = parseDockerfile(readFileSync(join(ROOT, 'web/Dockerfile'), 'utf8'));
  const final = stages.at(-1)!;
  const build = stages.find((s) => /\bAS build$/i.test(s[0]!.args))!;
  const finalEnv = new Map(final.filter((i) => i.op === 'ENV').flatMap((i) => [...envPairs(i)]));

  it('should have nginx templates with variables and one listen port', () => {
    expect(templates.sort()).toEqual(['default.conf.template', 'security-headers.inc.template']);
    expect(OPERATOR_VARS).toEqual(['API_UPSTREAM', 'BOT_UPSTREAM', 'CSP_IMG_EXTRA']);
    expect(LISTEN_PORT).toBe(8080);
  });

  it('should build the app in a Node stage that RUNs scripts/image/assemble-web.sh /out', () => {
    expect(args.get('NODE_IMAGE')).toMatch(/^node:24\./);
    expect(build[0]!.args).toMatch(/^deps AS build$/);
    const runs = build.filter((i) => i.op === 'RUN').map((i) => i.args);
    expect(runs).toEqual([expect.stringMatching(/scripts\/image\/assemble-web\.sh \/out$/)]);
  });

  it('should use the same Node base as Dockerfile.api', () => {
    const api = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile.api'), 'utf8'));
    expect(args.get('NODE_IMAGE')).toBe(api.args.get('NODE_IMAGE'));
  });

  it('should end on the unprivileged nginx image, with no Node, npm or node_modules', () => {
    expect(final[0]!.args).toBe('${NGINX_IMAGE} AS runtime');
    expect(args.get('NGINX_IMAGE')).toMatch(
      /^nginxinc\/nginx-unprivileged:1\.\d+\.\d+-alpine@sha256:/,
    );
    const text = final.map((i) => `${i.op} ${i.args}`).join('\n');
    expect(text).not.toMatch(/\b(npm|npx|node)\b|node_modules/);
  });

  it('should copy only the built app and the templates from the build stage', () => {
    const copies = final.filter((i) => i.op === 'COPY' || i.op === 'ADD').map((i) => i.args);
    expect(copies).toEqual([
      '--from=build /out/html/ /usr/share/nginx/html/',
      '--from=build /out/templates/ /etc/nginx/templates/',
    ]);
  });

  it('should drop the stock server block so conf.d holds only the rendered templates', () => {
    const runs = final
      .filter((i) => i.op === 'RUN')
      .map((i) => i.args)
      .join('\n');
    expect(runs).toContain('rm -f /etc/nginx/conf.d/default.conf');
  });

  it('should define an ENV default for every template variable, and ask the entrypoint for resolvers', () => {
    for (const v of OPERATOR_VARS) expect({ v, has: finalEnv.has(v) }).toEqual({ v, has: true });
    expect(finalEnv.get('API_UPSTREAM')).toBe('api:8080');
    expect(finalEnv.get('BOT_UPSTREAM')).toBe('bot:8000');
    expect(finalEnv.get('CSP_IMG_EXTRA')).toBe('');
    expect(finalEnv.get('NGINX_ENTRYPOINT_LOCAL_RESOLVERS')).toBe('1');
  });

  it('should run as uid 101, expose the listen port and health-check /healthz there', () => {
    expect(final.filter((i) => i.op === 'USER').at(-1)?.args).toBe('101:101');
    expect(final.filter((i) => i.op === 'EXPOSE').map((i) => i.args)).toEqual([
      String(LISTEN_PORT),
    ]);
    expect(final.find((i) => i.op === 'HEALTHCHECK')?.args).toBe(
      `--interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["wget","-q","-O","/dev/null","http://127.0.0.1:${LISTEN_PORT}/healthz"]`,
    );
  });

  it('should not replace the base image entrypoint, which renders the templates', () => {
    expect(final.filter((i) => i.op === 'ENTRYPOINT' || i.op === 'CMD')).toEqual([]);
  });
});

describe('compose web service drives the image as its templates expect', () => {
  // The file as written (no docker-compose needed); compose.test.ts checks the interpolated form.
  const file = parse(readFileSync(join(ROOT, 'compose/compose.yaml'), 'utf8'), {
    merge: true,
  }) as { services: Record<'api' | 'web' | 'bot', Manifest> };
  const services = file.services;
  const web = services.web;

  it('should set exactly the operator variables of the templates', () => {
    expect(Object.keys(web.environment).sort()).toEqual(OPERATOR_VARS);
  });

  it('should point the upstreams at the api and bot services and their ports', () => {
    expect(web.environment.API_UPSTREAM).toBe(`api:${services.api.environment.PORT}`);
    expect(web.environment.BOT_UPSTREAM).toBe(`bot:${services.bot.environment.BOT_PORT}`);
  });

  it('should publish WEB_PORT (80) to the listen port and check /healthz there', () => {
    expect(web.ports).toEqual([`\${WEB_PORT:-80}:${LISTEN_PORT}`]);
    expect(web.healthcheck.test.join(' ')).toContain(`http://127.0.0.1:${LISTEN_PORT}/healthz`);
  });

  it('should give the read-only container tmpfs for /tmp and the rendered conf.d', () => {
    expect(web.read_only).toBe(true);
    expect(web.tmpfs).toEqual(['/tmp', '/etc/nginx/conf.d']);
  });

  it('should have the API trust exactly this one proxy hop by default', () => {
    expect(services.api.environment.TRUST_PROXY_HOPS).toBe('${TRUST_PROXY_HOPS:-1}');
  });
});

describeWithTool(
  'helm',
  findHelm(),
  'chart web component drives the image as its templates expect',
  (helm) => {
    const docs = () => render(helm, 'default');
    const deployment = (): Manifest => get(docs(), 'Deployment', name('web'));

    it('should set exactly the operator variables of the templates, from its ConfigMap', () => {
      expect(Object.keys(get(docs(), 'ConfigMap', name('web')).data).sort()).toEqual(OPERATOR_VARS);
      expect(containerOf(deployment()).envFrom).toEqual([{ configMapRef: { name: name('web') } }]);
    });

    it("should point the upstreams at the api and bot Services' ports", () => {
      const data = get(docs(), 'ConfigMap', name('web')).data;
      const apiPort = get(docs(), 'Service', name('api')).spec.ports[0].port;
      expect(data.API_UPSTREAM).toBe(`${name('api')}.default.svc.cluster.local:${apiPort}`);
      const withBot = render(helm, 'bot-webhook');
      const botPort = get(withBot, 'Service', name('bot')).spec.ports[0].port;
      expect(get(withBot, 'ConfigMap', name('web')).data.BOT_UPSTREAM).toBe(
        `${name('bot')}.default.svc.cluster.local:${botPort}`,
      );
    });

    it('should run uid 101 on the listen port, probe /healthz and mount conf.d and /tmp writable', () => {
      const spec = deployment().spec.template.spec;
      const c = containerOf(deployment());
      expect(spec.securityContext.runAsUser).toBe(101);
      expect(c.ports).toEqual([{ name: 'http', containerPort: LISTEN_PORT, protocol: 'TCP' }]);
      expect(c.readinessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(c.volumeMounts.map((m: Manifest) => m.mountPath).sort()).toEqual([
        '/etc/nginx/conf.d',
        '/tmp',
      ]);
    });

    it('should have the API trust the Ingress and nginx (two hops)', () => {
      expect(get(docs(), 'ConfigMap', name('api')).data.TRUST_PROXY_HOPS).toBe('2');
    });
  },
);
