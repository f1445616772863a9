/**
 * ci/hardened-values.yaml: NetworkPolicies with the edges of 70-deploy.md §7's table, the
 * ServiceMonitors, the HPAs and the Ingress TLS. Edges are summarised as component names
 * (`api`, `web`…), `namespace` (a namespaceSelector), `dns` and `external`.
 */
import {
  component,
  find,
  get,
  name,
  notes,
  ofKind,
  render,
  type Manifest,
} from './support/chart.js';
import { describeWithTool, findHelm } from './support/tools.js';

function peers(list: Manifest[] | undefined): string[] {
  return (list ?? []).map((peer) => {
    if (peer.podSelector) return peer.podSelector.matchLabels['app.kubernetes.io/component'];
    if (peer.namespaceSelector) return 'namespace';
    if (peer.ipBlock) return `external:${peer.ipBlock.cidr}`;
    return '?';
  });
}

/** Every source allowed in, with the port it may use. */
function ingressEdges(policy: Manifest): string[] {
  return (policy.spec.ingress ?? []).flatMap((rule: Manifest) =>
    peers(rule.from).map((p) => `${p}→${rule.ports.map((x: Manifest) => x.port).join(',')}`),
  );
}

/** Every destination allowed out; a rule without `to` is the DNS rule. */
function egressEdges(policy: Manifest): string[] {
  return (policy.spec.egress ?? []).flatMap((rule: Manifest) => {
    if (!rule.to) return [rule.ports.every((p: Manifest) => p.port === 53) ? 'dns' : 'any-host'];
    const port = rule.ports ? `:${rule.ports.map((x: Manifest) => x.port).join(',')}` : '';
    return peers(rule.to).map((p) => `${p}${port}`);
  });
}

describeWithTool('helm', findHelm(), 'rendered manifests: ci/hardened-values.yaml', (helm) => {
  const docs = () => render(helm, 'hardened');
  const policy = (c: string) => get(docs(), 'NetworkPolicy', name(c));

  it('should render one NetworkPolicy per component, each restricting ingress and egress', () => {
    const policies = ofKind(docs(), 'NetworkPolicy');
    expect(policies.map((p) => component(p)).sort()).toEqual(['api', 'bot', 'postgres', 'web']);
    for (const p of policies) expect(p.spec.policyTypes).toEqual(['Ingress', 'Egress']);
  });

  it('should let only the API into postgres (the Bot is in webhook mode) and nothing out', () => {
    expect(ingressEdges(policy('postgres'))).toEqual(['api→postgres']);
    expect(egressEdges(policy('postgres'))).toEqual([]);
  });

  it('should let web, the Bot, the test pod and Prometheus into the API', () => {
    expect(ingressEdges(policy('api')).sort()).toEqual(
      ['bot→http', 'namespace→http', 'test→http', 'web→http'].sort(),
    );
    const prometheus = policy('api').spec.ingress[1].from[0].namespaceSelector;
    expect(prometheus).toEqual({ matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } });
  });

  it('should let the API reach DNS, postgres and the Bot, and nothing external (allowExternalEgress=false)', () => {
    expect(egressEdges(policy('api')).sort()).toEqual(['bot:8000', 'dns', 'postgres:5432']);
  });

  it('should let only the ingress controller namespace and the test pod into web', () => {
    expect(ingressEdges(policy('web')).sort()).toEqual(['namespace→http', 'test→http']);
    const from = policy('web').spec.ingress[0].from[0].namespaceSelector;
    expect(from).toEqual({ matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } });
    expect(egressEdges(policy('web')).sort()).toEqual(['api:8080', 'bot:8000', 'dns']);
  });

  it('should let the ingress controller, the API, web, the test pod and Prometheus into the Bot', () => {
    expect(ingressEdges(policy('bot')).sort()).toEqual(
      ['api→http', 'namespace→http', 'namespace→http', 'test→http', 'web→http'].sort(),
    );
  });

  it('should let the Bot reach DNS, the API and the messenger platform, but not postgres in webhook mode', () => {
    expect(egressEdges(policy('bot')).sort()).toEqual(
      ['api:8080', 'dns', 'external:0.0.0.0/0', 'external:::/0'].sort(),
    );
  });

  it('should add the polling lease edge (Bot → postgres) only in polling mode', () => {
    const polling = render(helm, 'hardened', ['--set', 'bot.mode=polling']);
    const pg = find(polling, 'NetworkPolicy', name('postgres'))!;
    expect(ingressEdges(pg).sort()).toEqual(['api→postgres', 'bot→postgres']);
    expect(egressEdges(find(polling, 'NetworkPolicy', name('bot'))!)).toContain('postgres:5432');
  });

  it('should open the API to the outside world when allowExternalEgress=true', () => {
    const open = render(helm, 'hardened', ['--set', 'networkPolicy.allowExternalEgress=true']);
    expect(egressEdges(find(open, 'NetworkPolicy', name('api'))!)).toContain('external:0.0.0.0/0');
  });

  it('should render ServiceMonitors for the API and the Bot on /metrics with the extra labels', () => {
    const monitors = ofKind(docs(), 'ServiceMonitor');
    expect(monitors.map((m) => component(m)).sort()).toEqual(['api', 'bot']);
    for (const m of monitors) {
      expect(m.metadata.labels.release).toBe('kube-prometheus-stack');
      expect(m.spec.endpoints).toEqual([{ port: 'http', path: '/metrics', interval: '30s' }]);
    }
  });

  it('should autoscale the API and the Bot on CPU and leave replicas to the HPA', () => {
    const hpas = ofKind(docs(), 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual([name('api'), name('bot')]);
    for (const h of hpas) {
      expect(h.apiVersion).toBe('autoscaling/v2');
      expect(h.spec.metrics[0].resource).toEqual({
        name: 'cpu',
        target: { type: 'Utilization', averageUtilization: 70 },
      });
    }
    expect(get(docs(), 'Deployment', name('api')).spec.replicas).toBeUndefined();
    expect(get(docs(), 'PodDisruptionBudget', name('api'))).toBeDefined();
  });

  it('should serve the Ingress over TLS with the operator annotations', () => {
    const ingress = ofKind(docs(), 'Ingress')[0]!;
    expect(ingress.spec.ingressClassName).toBe('nginx');
    expect(ingress.metadata.annotations).toEqual({ 'nginx.ingress.kubernetes.io/hsts': 'true' });
    expect(ingress.spec.tls[0].hosts).toEqual(['usher.example.com']);
  });

  it('should render no ServiceMonitor or NetworkPolicy in the default set', () => {
    const plain = render(helm, 'default');
    expect(ofKind(plain, 'ServiceMonitor')).toEqual([]);
    expect(ofKind(plain, 'NetworkPolicy')).toEqual([]);
  });

  it('should warn in NOTES when ServiceMonitor is asked for but the CRD is not served', () => {
    // `helm install --dry-run=client` knows no monitoring.coreos.com/v1, like a cluster without it.
    expect(notes(helm, 'hardened')).toContain('does not serve monitoring.coreos.com/v1');
  });
});
