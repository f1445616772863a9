/**
 * ci/backup-values.yaml: scheduled backups (docs/operations.md "Backup and restore") — a CronJob
 * running `usher backup` in the API image, a claim kept across uninstalls, the same claim in the
 * API pods at BACKUP_DIR, and the database policy letting the job in.
 */
import {
  component,
  containerOf,
  envOf,
  find,
  get,
  name,
  ofKind,
  render,
  secretKeysOf,
  type Manifest,
} from './support/chart.js';
import { describeWithTool, findHelm } from './support/tools.js';

describeWithTool('helm', findHelm(), 'rendered manifests: scheduled backups', (helm) => {
  const docs = (extra: string[] = []) => render(helm, 'backup', extra);
  const jobSpec = (d: Manifest[]) => get(d, 'CronJob', name('backup')).spec;
  const podSpec = (d: Manifest[]) => jobSpec(d).jobTemplate.spec.template.spec;

  it('should run `usher backup --keep N` in the API image on the schedule, one at a time', () => {
    const d = docs();
    const spec = jobSpec(d);
    expect(spec).toMatchObject({
      schedule: '0 3 * * *',
      timeZone: 'Europe/Berlin',
      concurrencyPolicy: 'Forbid',
    });
    const c = podSpec(d).containers[0];
    expect(c.image).toBe(containerOf(get(d, 'Deployment', name('api'))).image);
    expect(c.args).toEqual(['backup', '--keep', '14']);
    expect(envOf(c).get('BACKUP_DIR')?.value).toBe('/app/data/backups');
    expect(envOf(c).get('DATABASE_URL')?.value).toBe(
      envOf(containerOf(get(d, 'Deployment', name('api')))).get('DATABASE_URL')?.value,
    );
    expect(secretKeysOf(podSpec(d)).sort()).toEqual([
      'CONFIG_ENCRYPTION_KEY',
      'DATABASE_PASSWORD',
      'INTERNAL_API_SECRET',
      'JWT_SECRET',
    ]);
  });

  it('should write to a claim that helm uninstall keeps and that the API pods mount at BACKUP_DIR', () => {
    const d = docs();
    const pvc = get(d, 'PersistentVolumeClaim', name('backup'));
    expect(pvc.metadata.annotations['helm.sh/resource-policy']).toBe('keep');
    expect(pvc.spec.accessModes).toEqual(['ReadWriteOnce']);
    const claimOf = (spec: Manifest) =>
      spec.volumes.find((v: Manifest) => v.persistentVolumeClaim)?.persistentVolumeClaim.claimName;
    expect(claimOf(podSpec(d))).toBe(name('backup'));
    const api = get(d, 'Deployment', name('api')).spec.template.spec;
    expect(claimOf(api)).toBe(name('backup'));
    expect(api.containers[0].volumeMounts).toContainEqual({
      name: 'backups',
      mountPath: '/app/data/backups',
    });
    expect(envOf(api.containers[0]).get('BACKUP_DIR')?.value).toBe('/app/data/backups');
  });

  it('should place the job beside an API pod on a ReadWriteOnce claim, anywhere on ReadWriteMany', () => {
    const rwo = podSpec(docs()).affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution;
    expect(rwo[0]).toMatchObject({
      topologyKey: 'kubernetes.io/hostname',
      labelSelector: { matchLabels: { 'app.kubernetes.io/component': 'api' } },
    });
    const rwx = docs(['--set', 'backup.persistence.accessMode=ReadWriteMany']);
    expect(podSpec(rwx).affinity).toBeUndefined();
    expect(get(rwx, 'PersistentVolumeClaim', name('backup')).spec.accessModes).toEqual([
      'ReadWriteMany',
    ]);
  });

  it('should use an existing claim instead of creating one', () => {
    const d = docs(['--set', 'backup.persistence.existingClaim=my-backups']);
    expect(find(d, 'PersistentVolumeClaim', name('backup'))).toBeUndefined();
    const claim = podSpec(d).volumes.find((v: Manifest) => v.persistentVolumeClaim);
    expect(claim.persistentVolumeClaim.claimName).toBe('my-backups');
  });

  it('should let the backup job reach the bundled database through its NetworkPolicy', () => {
    const policy = get(docs(), 'NetworkPolicy', name('postgres'));
    const from = policy.spec.ingress[0].from.map(
      (p: Manifest) => p.podSelector.matchLabels['app.kubernetes.io/component'],
    );
    expect(from).toEqual(['api', 'backup']);
  });

  it('should render nothing for backups while backup.enabled is false', () => {
    const d = docs(['--set', 'backup.enabled=false']);
    expect(ofKind(d, 'CronJob')).toEqual([]);
    expect(d.filter((x) => component(x) === 'backup')).toEqual([]);
    const api = get(d, 'Deployment', name('api')).spec.template.spec;
    expect(envOf(api.containers[0]).has('BACKUP_DIR')).toBe(false);
  });
});
