/**
 * Secrets that survive upgrades (docs/operations.md "Upgrade and rollback", charts/usher/README.md
 * "Secrets"): with secrets.generate the chart creates the four required secrets once, reuses the
 * release's Secret on later upgrades (`lookup`: empty under `helm template`, so only its first
 * install is rendered here), lets inline values win, and keeps the Secret on uninstall.
 */
import { readFileSync } from 'node:fs';
import { get, name, render, type Manifest } from './support/chart.js';
import { describeWithTool, findHelm, run } from './support/tools.js';
import { CHART_DIR } from './support/tools.js';

const INLINE = '7f3a9c1e5b2d8f4a6c0e9b3d7a1f5c8e2b6d0a4f9c3e7b1d5a8f2c6e0b4d9a3f';
const REQUIRED = [
  'DATABASE_PASSWORD',
  'JWT_SECRET',
  'CONFIG_ENCRYPTION_KEY',
  'INTERNAL_API_SECRET',
];
/** The default set with its inline secrets emptied, as an install without a secrets file. */
const EMPTY = REQUIRED.flatMap((_, i) => [
  '--set',
  `secrets.${['databasePassword', 'jwtSecret', 'configEncryptionKey', 'internalApiSecret'][i]}=`,
]);
const decoded = (secret: Manifest) =>
  Object.fromEntries(
    Object.entries(secret.data as Record<string, string>).map(([k, v]) => [
      k,
      Buffer.from(v, 'base64').toString('utf8'),
    ]),
  );

describeWithTool('helm', findHelm(), 'rendered manifests: secrets', (helm) => {
  it('should create the four required secrets once with secrets.generate, long and distinct', () => {
    const secret = get(
      render(helm, 'default', [...EMPTY, '--set', 'secrets.generate=true']),
      'Secret',
      name('secrets'),
    );
    const values = decoded(secret);
    expect(Object.keys(values).sort()).toEqual([...REQUIRED].sort());
    expect(values.DATABASE_PASSWORD).toMatch(/^[A-Za-z0-9]{48}$/);
    for (const key of REQUIRED.slice(1)) expect(values[key]).toMatch(/^[A-Za-z0-9]{96}$/);
    expect(new Set(Object.values(values)).size).toBe(4);
  });

  it('should let an inline value win over generation', () => {
    const secret = get(
      render(helm, 'default', [
        ...EMPTY,
        '--set',
        'secrets.generate=true',
        '--set',
        `secrets.jwtSecret=${INLINE}`,
      ]),
      'Secret',
      name('secrets'),
    );
    expect(decoded(secret).JWT_SECRET).toBe(INLINE);
  });

  it('should keep the Secret when the release is uninstalled', () => {
    const secret = get(render(helm, 'default'), 'Secret', name('secrets'));
    expect(secret.metadata.annotations['helm.sh/resource-policy']).toBe('keep');
  });

  it('should look up the release Secret before generating (reuse on upgrade)', () => {
    // `helm template` has no cluster, so the lookup's effect cannot be rendered here: assert that
    // both the Secret and the checks read the existing Secret of the release by its name.
    for (const file of ['templates/secret.yaml', 'templates/checks.yaml']) {
      expect(readFileSync(`${CHART_DIR}/${file}`, 'utf8')).toContain(
        'lookup "v1" "Secret" .Release.Namespace (include "usher.secretName" .)',
      );
    }
  });

  it('should still refuse an install without secrets when secrets.generate is off, naming the way out', () => {
    const result = run(helm, [
      'template',
      't',
      CHART_DIR,
      '-f',
      `${CHART_DIR}/ci/default-values.yaml`,
      ...EMPTY,
    ]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      'secrets.databasePassword (DATABASE_PASSWORD) is required (or set secrets.generate=true to have the chart create it once)',
    );
  });
});
