/**
 * `scripts/gen-secrets` (70-deploy.md §3 and the "secrets script" row of §8).
 * Every case runs the real script with `sh` in a private temp directory, never on the repo's own files.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { parse } from 'yaml';
import { checkSecrets } from '../../src/config/secret-rules.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const script = path.join(repoRoot, 'scripts', 'gen-secrets');
const rootExample = path.join(repoRoot, '.env.example');

/** Expected hex length of each generated secret: 16 bytes for the database, 32 for the rest. */
const SECRET_LENGTHS = {
  DATABASE_PASSWORD: 32,
  JWT_SECRET: 64,
  CONFIG_ENCRYPTION_KEY: 64,
  INTERNAL_API_SECRET: 64,
  MESSENGER_WEBHOOK_SECRET: 64,
} as const;
type SecretName = keyof typeof SECRET_LENGTHS;
const SECRET_NAMES = Object.keys(SECRET_LENGTHS) as SecretName[];

/** The Helm values key of each variable. */
const HELM_KEYS: Record<SecretName, string> = {
  DATABASE_PASSWORD: 'databasePassword',
  JWT_SECRET: 'jwtSecret',
  CONFIG_ENCRYPTION_KEY: 'configEncryptionKey',
  INTERNAL_API_SECRET: 'internalApiSecret',
  MESSENGER_WEBHOOK_SECRET: 'messengerWebhookSecret',
};

/** Tools the script calls, for the PATH that has no openssl. */
const TOOLS_WITHOUT_OPENSSL = [
  'sh',
  'dirname',
  'mktemp',
  'awk',
  'od',
  'tr',
  'chmod',
  'mv',
  'rm',
  'cat',
  'sed',
];

interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

// spawnSync rather than execFileSync: the assertions need stderr (the rotation warning) and the
// exit status of failing runs as well as stdout.
function runScript(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): RunResult {
  const result = spawnSync('sh', [script, ...args], {
    cwd: options.cwd ?? os.tmpdir(),
    env: options.env ?? process.env,
    encoding: 'utf8',
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function findExecutable(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir !== '' && fs.existsSync(candidate)) return candidate;
  }
  throw new Error(`${name} is not on PATH; the test needs it`);
}

const tempDirs: string[] = [];
function makeTempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'usher-gen-secrets-'));
  tempDirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A temp dir holding a copy of the real `.env.example`. */
function dirWithExample(): string {
  const dir = makeTempDir();
  fs.copyFileSync(rootExample, path.join(dir, '.env.example'));
  return dir;
}

function readEnv(file: string): Record<string, string | undefined> {
  return parseEnv(fs.readFileSync(file, 'utf8'));
}

function secretValues(env: Record<string, string | undefined>): string[] {
  return SECRET_NAMES.map((name) => env[name] ?? '');
}

/** Turns every generated `NAME=<hex>` line back into `NAME=`, as in the example. */
function blankSecrets(text: string): string {
  return text.replace(
    new RegExp(`^(${SECRET_NAMES.join('|')})=[0-9a-f]+$`, 'gm'),
    (_line, name: string) => `${name}=`,
  );
}

function commentLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trimStart().startsWith('#'));
}

function fileMode(file: string): number {
  return fs.statSync(file).mode & 0o777;
}

function expectWellFormed(env: Record<string, string | undefined>): void {
  for (const name of SECRET_NAMES) {
    expect({ name, value: env[name] }).toEqual({
      name,
      value: expect.stringMatching(new RegExp(`^[0-9a-f]{${SECRET_LENGTHS[name]}}$`)),
    });
  }
}

describe('scripts/gen-secrets', () => {
  describe('filling a file', () => {
    it('should create a missing file from the .env.example next to it with every secret as lowercase hex of the right length', () => {
      const dir = dirWithExample();
      const file = path.join(dir, '.env');

      const result = runScript([file]);

      expect(result.status).toBe(0);
      expect(fs.existsSync(file)).toBe(true);
      expectWellFormed(readEnv(file));
    });

    it('should fill ./.env in the working directory when no FILE is given', () => {
      const dir = dirWithExample();

      const result = runScript([], { cwd: dir });

      expect(result.status).toBe(0);
      expectWellFormed(readEnv(path.join(dir, '.env')));
    });

    it('should give every secret a different value', () => {
      const dir = dirWithExample();
      const file = path.join(dir, '.env');

      runScript([file]);

      const values = secretValues(readEnv(file));
      expect(new Set(values).size).toBe(SECRET_NAMES.length);
    });

    it('should keep every comment and every other line of the example in order', () => {
      const dir = dirWithExample();
      const file = path.join(dir, '.env');
      const example = fs.readFileSync(rootExample, 'utf8');

      runScript([file]);

      const filled = fs.readFileSync(file, 'utf8');
      expect(commentLines(example).length).toBeGreaterThan(0);
      expect(commentLines(filled)).toEqual(commentLines(example));
      expect(blankSecrets(filled)).toBe(example);
    });

    it('should set the file mode to 0600', () => {
      const dir = dirWithExample();
      const file = path.join(dir, '.env');
      fs.copyFileSync(rootExample, file);
      fs.chmodSync(file, 0o644);

      const result = runScript([file]);

      expect(result.status).toBe(0);
      expect(fileMode(file).toString(8)).toBe('600');
    });

    it('should change nothing and report nothing filled on a second run', () => {
      const dir = dirWithExample();
      const file = path.join(dir, '.env');
      const first = runScript([file]);
      const afterFirst = fs.readFileSync(file);

      const second = runScript([file]);

      expect(second.status).toBe(0);
      expect(fs.readFileSync(file).equals(afterFirst)).toBe(true);
      for (const name of SECRET_NAMES) {
        expect(first.stdout).toContain(name);
        expect(second.stdout).not.toContain(name);
      }
      expect(fileMode(file).toString(8)).toBe('600');
    });

    it('should never print a generated value', () => {
      const dir = dirWithExample();
      const file = path.join(dir, '.env');

      const first = runScript([file]);
      const second = runScript([file]);

      const output = [first.stdout, first.stderr, second.stdout, second.stderr].join('\n');
      for (const value of secretValues(readEnv(file))) {
        expect(value).not.toBe('');
        expect(output).not.toContain(value);
      }
    });

    it('should warn that rotating JWT_SECRET signs everyone out and rotating CONFIG_ENCRYPTION_KEY loses stored settings', () => {
      const dir = dirWithExample();

      const result = runScript([path.join(dir, '.env')]);

      expect(result.stderr).toMatch(/JWT_SECRET signs every user out/);
      expect(result.stderr).toMatch(
        /CONFIG_ENCRYPTION_KEY makes the stored sensitive settings undecryptable/,
      );
    });

    it('should never overwrite a value that is already set and fill only the empty ones', () => {
      const dir = makeTempDir();
      const file = path.join(dir, '.env');
      const presetJwt = '0123456789abcdef'.repeat(4);
      fs.writeFileSync(
        file,
        [
          '# operator notes stay',
          `JWT_SECRET=${presetJwt}`,
          'DATABASE_PASSWORD="" # quoted empty counts as empty',
          'INTERNAL_API_SECRET=',
          'CONFIG_ENCRYPTION_KEY=',
          'LOG_LEVEL=debug',
          '',
        ].join('\n'),
        { mode: 0o644 },
      );

      const result = runScript([file]);

      expect(result.status).toBe(0);
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      expect(lines[0]).toBe('# operator notes stay');
      expect(lines[1]).toBe(`JWT_SECRET=${presetJwt}`);
      expect(lines[2]).toMatch(/^DATABASE_PASSWORD=[0-9a-f]{32} # quoted empty counts as empty$/);
      expect(lines[5]).toBe('LOG_LEVEL=debug');
      expectWellFormed(readEnv(file));
      expect(result.stdout).not.toContain('JWT_SECRET');
      for (const name of SECRET_NAMES.filter((n) => n !== 'JWT_SECRET')) {
        expect(result.stdout).toContain(name);
      }
    });

    it('should append a secret that is missing from the file', () => {
      const dir = makeTempDir();
      const file = path.join(dir, '.env');
      fs.writeFileSync(file, '# no webhook secret here\nLOG_LEVEL=info\n');

      runScript([file]);

      const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
      expect(lines.slice(0, 2)).toEqual(['# no webhook secret here', 'LOG_LEVEL=info']);
      expect(lines.slice(2).map((line) => line.split('=')[0])).toEqual(SECRET_NAMES);
      expectWellFormed(readEnv(file));
    });

    it('should produce a file that passes the API secret rules', () => {
      const dir = dirWithExample();
      const file = path.join(dir, '.env');
      expect(checkSecrets(readEnv(path.join(dir, '.env.example')))).not.toEqual([]);

      runScript([file]);

      expect(checkSecrets(readEnv(file))).toEqual([]);
    });

    it('should fall back to the repository .env.example when the target directory has none', () => {
      const dir = makeTempDir();
      const file = path.join(dir, '.env');

      const result = runScript([file]);

      expect(result.status).toBe(0);
      expect(blankSecrets(fs.readFileSync(file, 'utf8'))).toBe(
        fs.readFileSync(rootExample, 'utf8'),
      );
      expectWellFormed(readEnv(file));
    });

    it('should write no temporary file next to the target', () => {
      const dir = dirWithExample();

      runScript([path.join(dir, '.env')]);

      expect(fs.readdirSync(dir).sort()).toEqual(['.env', '.env.example']);
    });
  });

  describe('without a working openssl', () => {
    it('should generate the secrets through od when openssl is not installed', () => {
      const dir = dirWithExample();
      const file = path.join(dir, '.env');
      const bin = makeTempDir();
      for (const tool of TOOLS_WITHOUT_OPENSSL) {
        fs.symlinkSync(findExecutable(tool), path.join(bin, tool));
      }
      expect(fs.readdirSync(bin)).not.toContain('openssl');

      const result = runScript([file], { env: { PATH: bin } });

      expect(result).toMatchObject({ status: 0, stderr: expect.not.stringMatching(/not found/) });
      expectWellFormed(readEnv(file));
      expect(new Set(secretValues(readEnv(file))).size).toBe(SECRET_NAMES.length);
      expect(checkSecrets(readEnv(file))).toEqual([]);
    });

    it('should fall back to od when openssl fails', () => {
      const dir = dirWithExample();
      const file = path.join(dir, '.env');
      const fakeBin = makeTempDir();
      const marker = path.join(fakeBin, 'openssl-called');
      fs.writeFileSync(
        path.join(fakeBin, 'openssl'),
        `#!/bin/sh\necho called >> '${marker}'\nexit 127\n`,
        { mode: 0o755 },
      );

      const result = runScript([file], {
        env: { ...process.env, PATH: `${fakeBin}${path.delimiter}${process.env.PATH ?? ''}` },
      });

      expect(result.status).toBe(0);
      expect(fs.existsSync(marker)).toBe(true);
      expectWellFormed(readEnv(file));
      expect(new Set(secretValues(readEnv(file))).size).toBe(SECRET_NAMES.length);
    });
  });

  describe('--format helm', () => {
    it('should print a quoted secrets block with five distinct hex values and write nothing', () => {
      const cwd = makeTempDir();

      const result = runScript(['--format', 'helm'], { cwd });

      expect(result.status).toBe(0);
      const doc = parse(result.stdout) as { secrets?: Record<string, unknown> };
      expect(Object.keys(doc.secrets ?? {}).sort()).toEqual(Object.values(HELM_KEYS).sort());
      const env = Object.fromEntries(
        SECRET_NAMES.map((name) => [name, doc.secrets?.[HELM_KEYS[name]] as string | undefined]),
      );
      expectWellFormed(env);
      expect(new Set(secretValues(env)).size).toBe(SECRET_NAMES.length);
      for (const name of SECRET_NAMES) {
        expect(result.stdout).toMatch(new RegExp(`^ {2}${HELM_KEYS[name]}: "[0-9a-f]+"$`, 'm'));
      }
      expect(fs.readdirSync(cwd)).toEqual([]);
    });
  });

  describe('--format k8s-secret', () => {
    it('should print an Opaque v1 Secret whose stringData keys are the variable names and write nothing', () => {
      const cwd = makeTempDir();

      const result = runScript(['--format', 'k8s-secret', 'my-secret'], { cwd });

      expect(result.status).toBe(0);
      const doc = parse(result.stdout) as {
        apiVersion?: unknown;
        kind?: unknown;
        metadata?: { name?: unknown };
        type?: unknown;
        stringData?: Record<string, string | undefined>;
        data?: unknown;
      };
      expect(doc).toMatchObject({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'my-secret' },
        type: 'Opaque',
      });
      expect(doc.data).toBeUndefined();
      const stringData = doc.stringData ?? {};
      expect(Object.keys(stringData).sort()).toEqual([...SECRET_NAMES].sort());
      expectWellFormed(stringData);
      expect(new Set(secretValues(stringData)).size).toBe(SECRET_NAMES.length);
      expect(checkSecrets(stringData)).toEqual([]);
      expect(fs.readdirSync(cwd)).toEqual([]);
    });

    it('should exit 2 without output when NAME is missing or not a valid Secret name', () => {
      const cwd = makeTempDir();

      const missing = runScript(['--format', 'k8s-secret'], { cwd });
      const invalid = runScript(['--format', 'k8s-secret', 'Not_Valid'], { cwd });

      expect(missing).toMatchObject({ status: 2, stdout: '' });
      expect(invalid).toMatchObject({ status: 2, stdout: '' });
      expect(fs.readdirSync(cwd)).toEqual([]);
    });
  });

  describe('command line', () => {
    it.each([['-h'], ['--help']])('should print usage on stdout and exit 0 for %s', (flag) => {
      const cwd = makeTempDir();

      const result = runScript([flag], { cwd });

      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/^Usage: gen-secrets \[FILE\]/);
      expect(fs.readdirSync(cwd)).toEqual([]);
    });

    it('should print usage on stderr, exit 2 and write nothing for an unknown option', () => {
      const cwd = dirWithExample();

      const result = runScript(['--rotate-everything'], { cwd });

      expect(result.status).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/unknown option: --rotate-everything/);
      expect(result.stderr).toMatch(/Usage: gen-secrets \[FILE\]/);
      expect(fs.readdirSync(cwd)).toEqual(['.env.example']);
    });

    it('should exit 2 for an unknown format', () => {
      const cwd = makeTempDir();

      const result = runScript(['--format', 'xml'], { cwd });

      expect(result).toMatchObject({ status: 2, stdout: '' });
      expect(result.stderr).toMatch(/unknown format: xml/);
    });
  });
});
