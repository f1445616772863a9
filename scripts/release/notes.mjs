#!/usr/bin/env node
// Release notes and version checks for the release workflow (.github/workflows/release.yml,
// docs/deployment.md "Releases"). Only Node built-ins: it runs before `npm ci`.
//
//   node scripts/release/notes.mjs v1.2.3 > notes.md
//
// Fails (exit 1, one line) unless the tag is a version, package.json, the chart's version and
// appVersion and Compose's default USHER_VERSION all say that version, and CHANGELOG.md has a
// `## [1.2.3] - YYYY-MM-DD` section, whose body is printed.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = /^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/;

/** The body of `## [version] - date` in a Keep a Changelog text, or undefined. */
export function changelogSection(text, version) {
  const lines = text.split('\n');
  const heading = new RegExp(
    `^## \\[${version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\] - \\d{4}-\\d{2}-\\d{2}\\s*$`,
  );
  const start = lines.findIndex((l) => heading.test(l));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .trim();
}

/** Problems that stop a release of `tag` from the checkout at `root`; empty when it may go. */
export function releaseProblems(root, tag) {
  const match = VERSION.exec(tag);
  if (!match) return [`"${tag}" is not a version tag (v1.2.3 or v1.2.3-rc.1)`];
  const version = match[1];
  const problems = [];
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  if (pkg !== version) problems.push(`package.json says ${pkg}, the tag ${version}`);
  const chart = readFileSync(join(root, 'charts/usher/Chart.yaml'), 'utf8');
  const field = (name) => new RegExp(`^${name}:\\s*'?"?([^'"\\s]+)`, 'm').exec(chart)?.[1];
  if (field('version') !== version)
    problems.push(`charts/usher/Chart.yaml version is ${field('version')}, the tag ${version}`);
  if (field('appVersion') !== version)
    problems.push(
      `charts/usher/Chart.yaml appVersion is ${field('appVersion')}, the tag ${version}`,
    );
  const compose = readFileSync(join(root, 'compose/compose.yaml'), 'utf8');
  for (const [, tagged] of compose.matchAll(/\$\{USHER_VERSION:-([^}]+)\}/g)) {
    if (tagged !== version) {
      problems.push(`compose/compose.yaml defaults USHER_VERSION to ${tagged}, the tag ${version}`);
      break;
    }
  }
  const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  if (!changelogSection(changelog, version))
    problems.push(`CHANGELOG.md has no "## [${version}] - YYYY-MM-DD" section with notes`);
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
  const tag = process.argv[2] ?? '';
  const problems = releaseProblems(root, tag);
  if (problems.length > 0) {
    process.stderr.write(`release ${tag}: ${problems.join('; ')}\n`);
    process.exit(1);
  }
  const version = VERSION.exec(tag)[1];
  process.stdout.write(
    `${changelogSection(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), version)}\n`,
  );
}
