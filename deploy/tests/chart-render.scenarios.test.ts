/**
 * What each ci value set must render (70-deploy.md §7, §8 "rendered-manifest assertions").
 * NetworkPolicy edges are checked against the table in §7.
 */
import {
  component,
  containerOf,
  envOf,
  find,
  get,
  name,
  notes,
  ofKind,
  pods,
  render,
  secretKeysOf,
  type Manifest,
} from './support/chart.js';
import { describeWithTool, findHelm } from './support/tools.js';

const bySelector = (docs: Manifest[], c: string) => docs.filter((d) => component(d) === c);

describeWithTool('helm', findHelm(), 'rendered manifests: scenarios', (helm) => {
  describe('ci/default-values.yaml', () => {
    const docs = () => render(helm, 'default');

    it('should render the bundled PostgreSQL as a one-replica StatefulSet with an 8Gi claim', () => {
      const sts = get(docs(), 'StatefulSet', name('postgres'));
      expect(sts.spec.replicas).toBe(1);
      expect(sts.spec.serviceName).toBe(name('postgres-hl'));
      expect(sts.spec.volumeClaimTemplates[0].spec.resources.requests.storage).toBe('8Gi');
      expect(envOf(containerOf(sts)).get('PGDATA')?.value).toBe('/var/lib/postgresql/data/pgdata');
      expect(get(docs(), 'Service', name('postgres-hl')).spec.clusterIP).toBe('None');
      expect(get(docs(), 'Service', name('postgres')).spec.ports[0].port).toBe(5432);
    });

    it('should point the API at the bundled database without a password in the URL', () => {
      const env = envOf(containerOf(get(docs(), 'Deployment', name('api'))));
      expect(env.get('DATABASE_URL')?.value).toBe(
        'postgres://usher@t-postgres:5432/usher?sslmode=disable',
      );
      expect(env.get('DATABASE_PASSWORD')?.valueFrom.secretKeyRef).toEqual({
        name: 't-secrets',
        key: 'DATABASE_PASSWORD',
      });
      expect(env.get('ADMIN_PASSWORD')?.valueFrom.secretKeyRef.optional).toBe(true);
    });

    it('should render nothing for the Bot when bot.enabled=false', () => {
      expect(bySelector(docs(), 'bot')).toEqual([]);
      expect(get(docs(), 'ConfigMap', name('api')).data.BOT_NOTIFY_URL).toBe('');
      expect(find(docs(), 'Secret', 't-secrets')?.data.MESSENGER_BOT_TOKEN).toBeUndefined();
    });

    it('should render no Ingress, ServiceMonitor, NetworkPolicy, HPA or PDB', () => {
      for (const kind of [
        'Ingress',
        'ServiceMonitor',
        'NetworkPolicy',
        'HorizontalPodAutoscaler',
        'PodDisruptionBudget',
      ]) {
        expect(ofKind(docs(), kind)).toEqual([]);
      }
    });

    it('should use the appVersion tag and the ghcr.io/usher-app registry', () => {
      expect(containerOf(get(docs(), 'Deployment', name('api'))).image).toBe(
        'ghcr.io/usher-app/usher-api:0.1.0',
      );
      expect(containerOf(get(docs(), 'Deployment', name('web'))).image).toBe(
        'ghcr.io/usher-app/usher-web:0.1.0',
      );
    });

    it('should expose web on port 80 and give nginx FQDN upstreams', () => {
      expect(get(docs(), 'Service', name('web')).spec.ports[0]).toMatchObject({
        port: 80,
        targetPort: 'http',
      });
      expect(get(docs(), 'ConfigMap', name('web')).data).toMatchObject({
        API_UPSTREAM: 't-api.default.svc.cluster.local:8080',
        BOT_UPSTREAM: 't-bot.default.svc.cluster.local:8000',
      });
    });

    it('should keep NOTES honest: the TEMPORARY PASSWORD command and helm test', () => {
      const text = notes(helm, 'default');
      expect(text).toContain(
        'logs -l app.kubernetes.io/instance=t,app.kubernetes.io/component=api --prefix --tail=-1 | grep "TEMPORARY PASSWORD"',
      );
      expect(text).toContain('kubectl -n default port-forward svc/t-web 8080:80');
      expect(text).toContain('reset-admin-password');
      expect(text).toContain('forces a password change');
      expect(text).toContain('helm test t');
      expect(text).toContain('bundled PostgreSQL is a single instance');
    });
  });

  describe('ci/external-db-values.yaml', () => {
    const docs = () => render(helm, 'external-db');

    it('should render no StatefulSet and no postgres Service', () => {
      expect(ofKind(docs(), 'StatefulSet')).toEqual([]);
      expect(bySelector(docs(), 'postgres')).toEqual([]);
    });

    it('should set the external host, port, database, user and sslmode in the URL', () => {
      const env = envOf(containerOf(get(docs(), 'Deployment', name('api'))));
      expect(env.get('DATABASE_URL')?.value).toBe(
        'postgres://usher_app@db.example.internal:5433/usher_prod?sslmode=verify-full',
      );
    });

    it('should render no Secret with existingSecret and reference the existing one', () => {
      expect(ofKind(docs(), 'Secret')).toEqual([]);
      for (const { spec } of pods(docs())) {
        for (const c of spec.containers) {
          for (const e of c.env ?? []) {
            if (e.valueFrom?.secretKeyRef)
              expect(e.valueFrom.secretKeyRef.name).toBe('usher-secrets');
          }
        }
      }
    });

    it('should tell the operator to restart after editing the existing Secret', () => {
      expect(notes(helm, 'external-db')).toContain('rollout restart');
    });
  });

  describe('ci/bot-webhook-values.yaml', () => {
    const docs = () => render(helm, 'bot-webhook');
    const bot = () => get(docs(), 'Deployment', name('bot'));

    it('should run the requested Bot replicas with a rolling update', () => {
      expect(bot().spec.replicas).toBe(2);
      expect(bot().spec.strategy).toBeUndefined();
      expect(get(docs(), 'PodDisruptionBudget', name('bot')).spec.maxUnavailable).toBe(1);
    });

    it('should keep the database away from the Bot in webhook mode', () => {
      const keys = secretKeysOf(bot().spec.template.spec);
      expect(keys.sort()).toEqual([
        'INTERNAL_API_SECRET',
        'MESSENGER_BOT_TOKEN',
        'MESSENGER_WEBHOOK_SECRET',
      ]);
      expect(envOf(containerOf(bot())).has('DATABASE_URL')).toBe(false);
    });

    it('should configure the Bot and point the API at it', () => {
      expect(get(docs(), 'ConfigMap', name('bot')).data).toEqual({
        MESSENGER_UPDATE_MODE: 'webhook',
        WEBHOOK_URL: 'https://usher.example.com',
        API_URL: 'http://t-api:8080',
        BOT_PORT: '8000',
        BOT_LANGUAGE: 'en',
        MESSENGER_API_ROOT: 'https://api.telegram.org',
        LOG_LEVEL: 'info',
      });
      expect(get(docs(), 'ConfigMap', name('api')).data.BOT_NOTIFY_URL).toBe('http://t-bot:8000');
      expect(containerOf(bot()).image).toBe('ghcr.io/usher-app/usher-bot:0.1.0');
    });

    it('should add the Ingress path /messenger/webhook (Exact) to the Bot next to / on web', () => {
      const ingress = ofKind(docs(), 'Ingress')[0]!;
      expect(ingress.spec.tls).toEqual([{ secretName: 'usher-tls', hosts: ['usher.example.com'] }]);
      const paths = ingress.spec.rules[0].http.paths;
      expect(paths).toContainEqual({
        path: '/messenger/webhook',
        pathType: 'Exact',
        backend: { service: { name: 't-bot', port: { number: 8000 } } },
      });
      expect(paths).toContainEqual({
        path: '/',
        pathType: 'Prefix',
        backend: { service: { name: 't-web', port: { number: 80 } } },
      });
    });

    it('should spread multi-replica pods softly by hostname and add PDBs', () => {
      const spread = get(docs(), 'Deployment', name('api')).spec.template.spec
        .topologySpreadConstraints;
      expect(spread[0]).toMatchObject({
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'ScheduleAnyway',
      });
      expect(
        ofKind(docs(), 'PodDisruptionBudget')
          .map((p) => component(p))
          .sort(),
      ).toEqual(['api', 'bot', 'web']);
    });

    it('should let the helm test pod check the Bot too', () => {
      const pod = ofKind(docs(), 'Pod')[0]!;
      expect(envOf(containerOf(pod)).get('SMOKE_BOT_URL')?.value).toBe('http://t-bot:8000');
    });
  });

  describe('ci/bot-polling-values.yaml', () => {
    const docs = () => render(helm, 'bot-polling');
    const bot = () => get(docs(), 'Deployment', name('bot'));

    it('should render one replica with the Recreate strategy and no HPA or PDB', () => {
      expect(bot().spec.replicas).toBe(1);
      expect(bot().spec.strategy).toEqual({ type: 'Recreate' });
      expect(
        ofKind(docs(), 'HorizontalPodAutoscaler').filter((h) => component(h) === 'bot'),
      ).toEqual([]);
      expect(find(docs(), 'PodDisruptionBudget', name('bot'))).toBeUndefined();
    });

    it('should give the Bot DATABASE_PASSWORD and a URL expanded from it, in that order', () => {
      const env = containerOf(bot()).env.map((e: Manifest) => e.name);
      expect(env.indexOf('DATABASE_PASSWORD')).toBeGreaterThanOrEqual(0);
      expect(env.indexOf('DATABASE_PASSWORD')).toBeLessThan(env.indexOf('DATABASE_URL'));
      expect(envOf(containerOf(bot())).get('DATABASE_URL')?.value).toBe(
        'postgres://usher:$(DATABASE_PASSWORD)@t-postgres:5432/usher?sslmode=disable',
      );
    });

    it('should not add a webhook route or WEBHOOK_URL', () => {
      expect(get(docs(), 'ConfigMap', name('bot')).data.WEBHOOK_URL).toBeUndefined();
      expect(get(docs(), 'ConfigMap', name('bot')).data.MESSENGER_UPDATE_MODE).toBe('polling');
    });

    it('should warn in NOTES that the replicas were forced to 1', () => {
      expect(notes(helm, 'bot-polling')).toContain('bot.mode=polling runs exactly one replica');
    });
  });

  describe('webhook route rules', () => {
    it('should not route /messenger/webhook in polling mode even with an Ingress', () => {
      const docs = render(helm, 'bot-polling', [
        '--set',
        'ingress.enabled=true',
        '--set',
        'ingress.hosts={u.example}',
      ]);
      const paths = ofKind(docs, 'Ingress')[0]!.spec.rules[0].http.paths.map(
        (p: Manifest) => p.path,
      );
      expect(paths).toEqual(['/']);
    });

    it('should warn in NOTES when the Bot webhook is served by an Ingress without TLS', () => {
      const noTls = ['--set-json', 'ingress.tls=[]'];
      expect(ofKind(render(helm, 'bot-webhook', noTls), 'Ingress')[0]!.spec.tls).toBeUndefined();
      expect(notes(helm, 'bot-webhook', noTls)).toContain('the Ingress has no TLS');
      expect(notes(helm, 'bot-webhook')).not.toContain('the Ingress has no TLS');
    });
  });
});
