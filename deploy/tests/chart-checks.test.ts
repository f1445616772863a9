/**
 * `helm lint --strict` over every ci value set, the files that must fail, and checks.yaml kept in
 * step with the API's secret rules (services/api/src/config/secret-rules.ts), 70-deploy.md §3, §8.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { CI_SETS, ciFile, helmTemplate } from './support/chart.js';
import { CHART_DIR, ROOT, describeWithTool, findHelm, run } from './support/tools.js';

const MUST_FAIL_DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/chart-must-fail');
const helmPath = findHelm();

/** What each must-fail file's lint output has to mention (the key at fault). */
const MUST_FAIL: Record<string, RegExp> = {
  'typo-key': /replcas/,
  'bad-bot-mode': /\/bot\/mode/,
  'missing-secrets': /secrets\.jwtSecret \(JWT_SECRET\) is required.*secrets\.internalApiSecret/s,
  'equal-secrets': /secrets\.configEncryptionKey must differ from secrets\.jwtSecret/,
};

/** A value set with valid secrets that each case then breaks in exactly one way. */
function validSecrets(): Record<string, string> {
  const values = parse(readFileSync(ciFile('default'), 'utf8')) as {
    secrets: Record<string, string>;
  };
  return values.secrets;
}

/** The rules' data as secret-rules.ts states it, read as text (no cross-project import). */
function apiRules(): { placeholders: string[]; minLength: Record<string, number> } {
  const source = readFileSync(join(ROOT, 'services/api/src/config/secret-rules.ts'), 'utf8');
  const list = /PLACEHOLDER_VALUES = \[([^\]]*)\]/.exec(source)?.[1] ?? '';
  const lengths = /MIN_LENGTH[^=]*= \{([^}]*)\}/.exec(source)?.[1] ?? '';
  return {
    placeholders: [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]!),
    minLength: Object.fromEntries(
      [...lengths.matchAll(/(\w+): (\d+)/g)].map((m) => [m[1]!, Number(m[2])]),
    ),
  };
}

const VALUE_KEY: Record<string, string> = {
  DATABASE_PASSWORD: 'databasePassword',
  JWT_SECRET: 'jwtSecret',
  CONFIG_ENCRYPTION_KEY: 'configEncryptionKey',
  INTERNAL_API_SECRET: 'internalApiSecret',
};

describeWithTool('helm', helmPath, 'chart lint (helm lint --strict)', (helm) => {
  it('should find the ci value sets: the five of 70-deploy.md §7 and scheduled backups', () => {
    expect(CI_SETS).toEqual([
      'backup',
      'bot-polling',
      'bot-webhook',
      'default',
      'external-db',
      'hardened',
    ]);
  });

  it('should report helm v4.1.x (the version scripts/tools/ensure-helm pins)', () => {
    expect(run(helm, ['version', '--short']).stdout).toMatch(/^v4\.1\./);
  });

  it.each(CI_SETS)('should lint ci/%s-values.yaml with 0 failures', (set) => {
    const result = run(helm, ['lint', '--strict', CHART_DIR, '-f', ciFile(set)]);
    expect(`${result.stdout}${result.stderr}`).toContain('0 chart(s) failed');
    expect(result.status).toBe(0);
  });

  it('should keep one must-fail file per case of 70-deploy.md §8', () => {
    const files = readdirSync(MUST_FAIL_DIR).map((f) => f.replace(/-values\.yaml$/, ''));
    expect(files.sort()).toEqual(Object.keys(MUST_FAIL).sort());
  });

  it.each(Object.entries(MUST_FAIL))('should fail lint for %s, naming the key', (file, why) => {
    const valueFile = join(MUST_FAIL_DIR, `${file}-values.yaml`);
    const result = run(helm, [
      'lint',
      '--strict',
      CHART_DIR,
      '-f',
      ciFile('default'),
      '-f',
      valueFile,
    ]);
    expect(result.status).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toMatch(why);
  });

  it('should fail the plain default values (no secrets) and point to scripts/gen-secrets', () => {
    const result = helmTemplate(helm, []);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('scripts/gen-secrets --format helm');
  });
});

describeWithTool('helm', helmPath, 'chart checks mirror secret-rules.ts', (helm) => {
  const rules = apiRules();
  const secrets = validSecrets();
  const attempt = (overrides: Record<string, string>, extra: string[] = []) => {
    const sets = Object.entries({ ...secrets, ...overrides }).flatMap(([k, v]) => [
      '--set-string',
      `secrets.${k}=${v}`,
    ]);
    return helmTemplate(helm, [...sets, ...extra]);
  };

  it('should read the rules from secret-rules.ts', () => {
    expect(rules.placeholders.length).toBeGreaterThanOrEqual(6);
    expect(Object.keys(rules.minLength).sort()).toEqual(Object.keys(VALUE_KEY).sort());
  });

  it('should accept the ci secrets (the baseline every case below breaks once)', () => {
    expect(attempt({}).status).toBe(0);
  });

  it.each(Object.keys(VALUE_KEY))('should enforce the minimum length of %s', (variable) => {
    const min = rules.minLength[variable]!;
    const key = VALUE_KEY[variable]!;
    const short = secrets[key]!.slice(0, min - 1);
    const result = attempt({ [key]: short });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(`secrets.${key} (${variable}) must be at least ${min}`);
    expect(result.stderr).not.toContain(short); // messages never echo a value
  });

  it('should reject every placeholder value the API rejects', () => {
    const examples = [
      ...rules.placeholders,
      'your-database-password-goes-here', // the `your-` prefix
      '<run-openssl-rand-hex-16-here-now>', // angle brackets
    ];
    for (const value of examples) {
      const result = attempt({ databasePassword: value });
      expect(result.stderr).toContain('secrets.databasePassword must not be an example');
    }
  });

  it('should reject a value with fewer than 8 distinct characters', () => {
    const result = attempt({ jwtSecret: 'abcdefg'.repeat(10) });
    expect(result.stderr).toContain('secrets.jwtSecret must not be an example');
  });

  it('should require the Bot secrets and a webhook URL when the Bot is enabled', () => {
    const result = attempt({ messengerWebhookSecret: '' }, ['--set', 'bot.enabled=true']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('secrets.messengerBotToken (MESSENGER_BOT_TOKEN) is required');
    expect(result.stderr).toContain(
      'secrets.messengerWebhookSecret (MESSENGER_WEBHOOK_SECRET) is required',
    );
    expect(result.stderr).toContain('bot.webhookUrl is required');
  });

  it('should apply the webhook secret alphabet and the admin password policy', () => {
    const result = attempt({
      messengerWebhookSecret: `${'a1'.repeat(20)}!`,
      adminPassword: 'short',
    });
    expect(result.stderr).toContain('MESSENGER_WEBHOOK_SECRET) must be 32-256 characters');
    expect(result.stderr).toContain('ADMIN_PASSWORD) must be 8 to 128 characters');
  });

  it('should reject an admin password equal to another secret', () => {
    const result = attempt({ adminPassword: secrets.databasePassword! });
    expect(result.stderr).toContain(
      'secrets.adminPassword must differ from secrets.databasePassword',
    );
  });

  it('should reject an http:// webhook URL through the schema', () => {
    const result = attempt({}, ['--set', 'bot.webhookUrl=http://usher.example.com']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('/bot/webhookUrl');
  });

  it('should require exactly one of the bundled and an external database', () => {
    const both = attempt({}, ['--set', 'externalDatabase.host=db.example']);
    const none = attempt({}, ['--set', 'postgres.enabled=false']);
    expect(both.stderr).toContain('use exactly one');
    expect(none.stderr).toContain('postgres.enabled=false needs externalDatabase.host');
  });

  it('should skip the inline checks with existingSecret (the values are not visible)', () => {
    const result = helmTemplate(helm, ['--set', 'secrets.existingSecret=mine']);
    expect(result.status).toBe(0);
  });
});
