/**
 * Invariants every ci value set must keep (70-deploy.md §7 "secure defaults", probes, secrets),
 * asserted on `helm template` output. One describe per ci set.
 */
import {
  CI_SETS,
  component,
  containerOf,
  get,
  name,
  ofKind,
  pods,
  render,
  secretKeysOf,
  type Manifest,
} from './support/chart.js';
import { describeWithTool, findHelm } from './support/tools.js';

const UID: Record<string, number> = {
  api: 1000,
  backup: 1000,
  bot: 1000,
  test: 1000,
  web: 101,
  postgres: 70,
};

/** The secrets each component may read; anything else is a leak (§7 "only its own keys"). */
const ALLOWED_SECRETS: Record<string, string[]> = {
  // `usher backup` reads the API's environment, whose rules need the four; never ADMIN_PASSWORD.
  backup: ['DATABASE_PASSWORD', 'JWT_SECRET', 'CONFIG_ENCRYPTION_KEY', 'INTERNAL_API_SECRET'],
  api: [
    'DATABASE_PASSWORD',
    'JWT_SECRET',
    'CONFIG_ENCRYPTION_KEY',
    'INTERNAL_API_SECRET',
    'ADMIN_PASSWORD',
  ],
  bot: [
    'MESSENGER_BOT_TOKEN',
    'MESSENGER_WEBHOOK_SECRET',
    'INTERNAL_API_SECRET',
    'DATABASE_PASSWORD',
  ],
  postgres: ['DATABASE_PASSWORD'],
  web: [],
  test: [],
};

const mountPaths = (spec: Manifest) =>
  spec.containers.flatMap((c: Manifest) =>
    (c.volumeMounts ?? []).map((m: Manifest) => m.mountPath),
  );

describeWithTool('helm', findHelm(), 'rendered manifests: invariants', (helm) => {
  describe.each(CI_SETS)('ci/%s-values.yaml', (set) => {
    const docs = () => render(helm, set);

    it('should render the api and web components and the test pod', () => {
      expect(get(docs(), 'Deployment', name('api'))).toBeDefined();
      expect(get(docs(), 'Deployment', name('web'))).toBeDefined();
      expect(pods(docs()).map(({ owner }) => component(owner))).toContain('test');
    });

    it('should run every pod non-root with its fixed uid, seccomp RuntimeDefault and fsGroup', () => {
      for (const { owner, spec } of pods(docs())) {
        const uid = UID[component(owner)];
        expect(spec.securityContext).toMatchObject({
          runAsNonRoot: true,
          runAsUser: uid,
          runAsGroup: uid,
          fsGroup: uid,
          seccompProfile: { type: 'RuntimeDefault' },
        });
      }
    });

    it('should give every container a read-only root, no privilege escalation and no capabilities', () => {
      for (const { spec } of pods(docs())) {
        for (const c of spec.containers) {
          expect(c.securityContext).toMatchObject({
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ['ALL'] },
          });
        }
      }
    });

    it('should not mount a service-account token into any pod', () => {
      for (const { spec } of pods(docs())) expect(spec.automountServiceAccountToken).toBe(false);
    });

    it('should mount an emptyDir at /tmp everywhere, plus conf.d on web and the socket dir on postgres', () => {
      for (const { owner, spec } of pods(docs())) {
        const paths = mountPaths(spec);
        expect(paths).toContain('/tmp');
        if (component(owner) === 'web') expect(paths).toContain('/etc/nginx/conf.d');
        if (component(owner) === 'postgres') expect(paths).toContain('/var/run/postgresql');
      }
    });

    it('should carry checksum/secret and checksum/config on every pod template', () => {
      for (const { owner, meta } of pods(docs())) {
        if (owner.kind === 'Pod') continue; // the helm test hook is recreated on every run
        expect(meta.annotations).toEqual(
          expect.objectContaining({
            'checksum/secret': expect.stringMatching(/^[0-9a-f]{64}$/),
            'checksum/config': expect.stringMatching(/^[0-9a-f]{64}$/),
          }),
        );
      }
    });

    it('should read secrets only through secretKeyRef, never envFrom on a Secret', () => {
      for (const { spec } of pods(docs())) {
        for (const c of spec.containers) {
          for (const from of c.envFrom ?? []) expect(from.secretRef).toBeUndefined();
        }
      }
    });

    it('should give each component only the secrets it needs', () => {
      for (const { owner, spec } of pods(docs())) {
        const allowed = ALLOWED_SECRETS[component(owner)];
        expect(allowed).toBeDefined();
        for (const key of secretKeysOf(spec)) expect(allowed).toContain(key);
      }
    });

    it('should reference every key of the rendered Secret from some pod', () => {
      const secret = ofKind(docs(), 'Secret')[0];
      if (!secret) return; // existingSecret: asserted in the scenario tests
      const used = new Set(pods(docs()).flatMap(({ spec }) => secretKeysOf(spec)));
      for (const key of Object.keys(secret.data)) expect(used).toContain(key);
    });

    it('should never give the Bot JWT_SECRET or CONFIG_ENCRYPTION_KEY', () => {
      const bot = pods(docs()).find(({ owner }) => component(owner) === 'bot');
      if (!bot) return;
      expect(secretKeysOf(bot.spec)).not.toContain('JWT_SECRET');
      expect(secretKeysOf(bot.spec)).not.toContain('CONFIG_ENCRYPTION_KEY');
    });

    it('should probe the API as §7 says (startup and readiness on /health, liveness on TCP)', () => {
      const api = get(docs(), 'Deployment', name('api'));
      const c = containerOf(api);
      expect(c.startupProbe).toMatchObject({
        httpGet: { path: '/health' },
        periodSeconds: 5,
        failureThreshold: 60,
      });
      expect(c.readinessProbe).toMatchObject({ httpGet: { path: '/health' }, periodSeconds: 10 });
      expect(c.livenessProbe).toMatchObject({
        tcpSocket: { port: 'http' },
        periodSeconds: 20,
        failureThreshold: 3,
      });
      expect(c.livenessProbe.httpGet).toBeUndefined();
      expect(c.ports).toEqual([expect.objectContaining({ name: 'http', containerPort: 8080 })]);
      expect(api.spec.template.spec.terminationGracePeriodSeconds).toBe(30);
    });

    it('should probe web on /healthz and postgres with pg_isready', () => {
      const web = containerOf(get(docs(), 'Deployment', name('web')));
      expect(web.readinessProbe.httpGet.path).toBe('/healthz');
      expect(web.livenessProbe.httpGet.path).toBe('/healthz');
      const pg = ofKind(docs(), 'StatefulSet')[0];
      if (pg) {
        expect(containerOf(pg).readinessProbe.exec.command).toContain('pg_isready');
        expect(containerOf(pg).livenessProbe.exec.command).toContain('pg_isready');
      }
    });

    it('should probe the Bot on /health (readiness and liveness) when it is enabled', () => {
      const bot = ofKind(docs(), 'Deployment').find((d) => component(d) === 'bot');
      if (!bot) return;
      const c = containerOf(bot);
      expect(c.readinessProbe.httpGet).toMatchObject({ path: '/health', port: 'http' });
      expect(c.livenessProbe.httpGet).toMatchObject({ path: '/health', port: 'http' });
      expect(c.ports).toEqual([expect.objectContaining({ containerPort: 8000 })]);
    });

    it('should give the API its non-secret env from its ConfigMap', () => {
      const cm = get(docs(), 'ConfigMap', name('api'));
      expect(Object.keys(cm.data).sort()).toEqual([
        'BOT_NOTIFY_URL',
        'LOG_LEVEL',
        'TRUST_PROXY_HOPS',
      ]);
      const c = containerOf(get(docs(), 'Deployment', name('api')));
      expect(c.envFrom).toEqual([{ configMapRef: { name: name('api') } }]);
    });

    it('should render the helm test pod with its hook annotations, running smoke.mjs', () => {
      const pod = ofKind(docs(), 'Pod').find((p) => component(p) === 'test');
      expect(pod?.metadata.annotations).toEqual({
        'helm.sh/hook': 'test',
        'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
      });
      expect(containerOf(pod!).command).toEqual(['node', 'smoke.mjs']);
      expect(containerOf(pod!).image).toBe(
        containerOf(get(docs(), 'Deployment', name('api'))).image,
      );
    });
  });
});
