/**
 * Rules every deployment secret must pass before the API opens a port (70-deploy.md §3).
 * Each failure names the variable and the rule, never the value.
 */

/** The four secrets without which the API refuses to start. */
export const REQUIRED_SECRETS = [
  'DATABASE_PASSWORD',
  'JWT_SECRET',
  'CONFIG_ENCRYPTION_KEY',
  'INTERNAL_API_SECRET',
] as const;
export type RequiredSecret = (typeof REQUIRED_SECRETS)[number];

/** Optional secrets that, when set, must still differ from every other secret. */
export const OPTIONAL_DISTINCT_SECRETS = ['MESSENGER_WEBHOOK_SECRET', 'ADMIN_PASSWORD'] as const;

export const MIN_LENGTH: Record<RequiredSecret, number> = {
  DATABASE_PASSWORD: 32,
  JWT_SECRET: 64,
  CONFIG_ENCRYPTION_KEY: 64,
  INTERNAL_API_SECRET: 64,
};

/** Values copied from docs and examples. Compared case-insensitively. */
export const PLACEHOLDER_VALUES = [
  'change-me',
  'changeme',
  'example',
  'placeholder',
  'secret',
  'password',
] as const;

export const MIN_DISTINCT_CHARACTERS = 8;

export type SecretRule = 'present' | 'not-example' | 'mutually-different' | 'length' | 'alphabet';

export interface SecretViolation {
  variable: string;
  rule: SecretRule;
  message: string;
}

/** Whether a value looks like an example rather than a generated secret. */
export function isExampleValue(value: string): boolean {
  const lower = value.trim().toLowerCase();
  if ((PLACEHOLDER_VALUES as readonly string[]).includes(lower)) return true;
  if (lower.startsWith('your-')) return true;
  if (value.includes('<') || value.includes('>')) return true;
  return new Set(value).size < MIN_DISTINCT_CHARACTERS;
}

type SecretInput = Partial<Record<string, string | undefined>>;

/**
 * Checks the secret rules over a raw environment. Returns every violation (empty = all good).
 * `ADMIN_PASSWORD` follows the password policy (8–128 characters) rather than a length floor.
 */
export function checkSecrets(env: SecretInput): SecretViolation[] {
  const violations: SecretViolation[] = [];
  const present = new Map<string, string>();

  for (const name of REQUIRED_SECRETS) {
    const value = env[name];
    if (value === undefined || value.trim() === '') {
      violations.push({ variable: name, rule: 'present', message: 'must be set' });
      continue;
    }
    present.set(name, value);
    if (isExampleValue(value)) {
      violations.push({
        variable: name,
        rule: 'not-example',
        message: `must not be an example or placeholder value (generate one with scripts/gen-secrets)`,
      });
    }
    if (value.length < MIN_LENGTH[name]) {
      violations.push({
        variable: name,
        rule: 'length',
        message: `must be at least ${MIN_LENGTH[name]} characters long`,
      });
    }
  }

  const webhookSecret = env.MESSENGER_WEBHOOK_SECRET;
  if (webhookSecret) {
    present.set('MESSENGER_WEBHOOK_SECRET', webhookSecret);
    if (webhookSecret.length < 32 || webhookSecret.length > 256) {
      violations.push({
        variable: 'MESSENGER_WEBHOOK_SECRET',
        rule: 'length',
        message: 'must be 32 to 256 characters long',
      });
    }
    if (!/^[A-Za-z0-9_-]+$/.test(webhookSecret)) {
      violations.push({
        variable: 'MESSENGER_WEBHOOK_SECRET',
        rule: 'alphabet',
        message: 'may contain only A-Z, a-z, 0-9, "_" and "-"',
      });
    }
  }

  const adminPassword = env.ADMIN_PASSWORD;
  if (adminPassword) {
    present.set('ADMIN_PASSWORD', adminPassword);
    if (adminPassword.length < 8 || adminPassword.length > 128) {
      violations.push({
        variable: 'ADMIN_PASSWORD',
        rule: 'length',
        message: 'must be 8 to 128 characters long (the password policy)',
      });
    }
  }

  const names = [...present.keys()];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const a = names[i]!;
      const b = names[j]!;
      if (present.get(a) === present.get(b)) {
        violations.push({
          variable: b,
          rule: 'mutually-different',
          message: `must differ from ${a}`,
        });
      }
    }
  }
  return violations;
}

/** One line per violation, for the start-up failure output. */
export function formatViolation(v: SecretViolation): string {
  return `${v.variable}: rule "${v.rule}" failed: ${v.message}`;
}
