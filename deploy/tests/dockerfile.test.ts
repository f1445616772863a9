/**
 * Text rules for the Dockerfiles and .dockerignore (70-deploy.md §5, §8). No Docker engine here,
 * so the images are checked by reading them; the build steps themselves are exercised by the
 * container-equivalent smoke (api-image.test.ts), which runs the same assemble script.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDockerfile } from './support/dockerfile.js';
import { ROOT } from './support/tools.js';

const NODE_DOCKERFILES = ['Dockerfile.api', 'Dockerfile.bot'].filter((f) =>
  existsSync(join(ROOT, f)),
);
const ALL_DOCKERFILES = [...NODE_DOCKERFILES, 'web/Dockerfile'].filter((f) =>
  existsSync(join(ROOT, f)),
);
const SECRETISH = /(SECRET|PASSWORD|PASSWD|TOKEN|PRIVATE|CREDENTIAL|_KEY\b|^KEY\b)/i;

describe.each(ALL_DOCKERFILES)('%s', (file) => {
  const { args, stages } = parseDockerfile(readFileSync(join(ROOT, file), 'utf8'));
  const names = new Set(stages.map((s) => /\bAS\s+(\S+)/i.exec(s[0]!.args)?.[1]).filter(Boolean));
  const final = stages.at(-1)!;
  const all = stages.flat();

  it('should be a multi-stage build', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
  });

  it('should pin every external base to a minor tag plus a sha256 digest', () => {
    for (const stage of stages) {
      let image = stage[0]!.args.replace(/^--platform=\S+\s+/, '').split(/\s+/)[0]!;
      image = image.replace(/^\$\{?(\w+)\}?$/, (_, arg: string) => args.get(arg) ?? '');
      if (names.has(image)) continue; // FROM an earlier stage
      expect(image).toMatch(/^[\w./-]+:\d+\.\d+[\w.-]*@sha256:[0-9a-f]{64}$/);
    }
  });

  it('should end in a stage with a numeric non-root USER, a HEALTHCHECK and EXPOSE', () => {
    const user = final.filter((i) => i.op === 'USER').at(-1)?.args ?? '';
    expect(user).toMatch(/^\d+(:\d+)?$/);
    expect(Number(user.split(':')[0])).toBeGreaterThan(0);
    expect(final.some((i) => i.op === 'HEALTHCHECK' && /\bCMD\b/.test(i.args))).toBe(true);
    expect(final.some((i) => i.op === 'EXPOSE')).toBe(true);
  });

  it('should put no secret into any ARG or ENV', () => {
    for (const ins of all.concat([...args.keys()].map((k) => ({ op: 'ARG', args: k })))) {
      if (ins.op !== 'ARG' && ins.op !== 'ENV') continue;
      const keys = [...ins.args.matchAll(/(?:^|\s)([A-Za-z_][\w]*)(?==|\s|$)/g)].map((m) => m[1]!);
      for (const key of keys)
        expect({ op: ins.op, key, secretish: SECRETISH.test(key) }).toMatchObject({
          secretish: false,
        });
    }
  });

  it('should carry the OCI source, version and revision labels from build args', () => {
    const labels = final
      .filter((i) => i.op === 'LABEL')
      .map((i) => i.args)
      .join(' ');
    for (const label of ['source', 'version', 'revision']) {
      expect(labels).toMatch(new RegExp(`org\\.opencontainers\\.image\\.${label}="?\\$\\{?\\w+`));
    }
  });
});

describe.each(NODE_DOCKERFILES)('%s (Node service image)', (file) => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const { stages } = parseDockerfile(text);
  const final = stages.at(-1)!;
  const component = file.replace('Dockerfile.', '');

  it('should build in a stage that RUNs scripts/image/assemble-<component>.sh', () => {
    const runs = stages
      .flat()
      .filter((i) => i.op === 'RUN')
      .map((i) => i.args);
    expect(runs).toContain(`scripts/image/assemble-${component}.sh /out`);
  });

  it('should install production dependencies only, with npm ci --omit=dev, in the final stage', () => {
    const runs = final
      .filter((i) => i.op === 'RUN')
      .map((i) => i.args)
      .join('\n');
    expect(runs).toMatch(/npm ci --omit=dev --ignore-scripts/);
    expect(final.some((i) => i.op === 'COPY' && /--from=build \/out\//.test(i.args))).toBe(true);
  });

  it('should run node main.js from /app with NODE_ENV=production and healthcheck.mjs', () => {
    expect(final).toContainEqual({ op: 'WORKDIR', args: '/app' });
    expect(final).toContainEqual({ op: 'ENTRYPOINT', args: '["node","main.js"]' });
    expect(final.find((i) => i.op === 'ENV')?.args).toMatch(/NODE_ENV=production/);
    expect(final.find((i) => i.op === 'HEALTHCHECK')?.args).toBe(
      '--interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["node","healthcheck.mjs"]',
    );
  });
});

describe('Dockerfile.api specifics', () => {
  const text = readFileSync(join(ROOT, 'Dockerfile.api'), 'utf8');
  const assemble = readFileSync(join(ROOT, 'scripts/image/assemble-api.sh'), 'utf8');

  it('should set PORT=8080, expose 8080 and make only /app/data writable for uid 1000', () => {
    expect(text).toMatch(/^ENV NODE_ENV=production PORT=8080$/m);
    expect(text).toMatch(/^EXPOSE 8080$/m);
    expect(text).toMatch(/^RUN chown 1000:1000 \/app\/data/m);
    expect(text).toMatch(/^USER 1000:1000$/m);
  });

  it('should copy drizzle/ (the committed migrations) into the runtime tree', () => {
    expect(assemble).toMatch(/cp -R "\$ROOT\/services\/api\/drizzle" "\$OUT\/drizzle"/);
  });
});

describe('.dockerignore', () => {
  const lines = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  it.each([
    'node_modules',
    '**/node_modules',
    'dist',
    '**/dist',
    '.git',
    '.env*',
    '**/.env*',
    '**/*.spec.ts',
    '**/e2e',
    '.cache',
  ])('should exclude %s', (pattern) => {
    expect(lines).toContain(pattern);
  });

  it('should not re-include any .env file', () => {
    expect(lines.filter((l) => l.startsWith('!') && l.includes('.env'))).toEqual([]);
  });
});
