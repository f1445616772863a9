import { loadConfig } from '../../src/config/env.js';
import { checkSecrets, isExampleValue } from '../../src/config/secret-rules.js';
import { freshSecrets } from '../support/config.js';

const rulesOf = (env: Record<string, string | undefined>) =>
  checkSecrets(env).map((v) => `${v.variable}:${v.rule}`);

describe('secret rules', () => {
  it('should accept a freshly generated set', () => {
    expect(checkSecrets(freshSecrets())).toEqual([]);
  });

  it.each(['DATABASE_PASSWORD', 'JWT_SECRET', 'CONFIG_ENCRYPTION_KEY', 'INTERNAL_API_SECRET'])(
    'should name the "present" rule when %s is missing or blank',
    (name) => {
      expect(rulesOf({ ...freshSecrets(), [name]: undefined })).toEqual([`${name}:present`]);
      expect(rulesOf({ ...freshSecrets(), [name]: '   ' })).toEqual([`${name}:present`]);
    },
  );

  it.each([
    'change-me',
    'CHANGEME',
    'example',
    'placeholder',
    'secret',
    'password',
    'your-jwt-secret-here-0123456789abcdef0123456789abcdef0123456789abcdef',
    '<generate with openssl rand -hex 32>0123456789abcdef0123456789abcdef',
    'a'.repeat(64),
    'abababababababababababababababababababababababababababababababab',
  ])('should name the "not-example" rule for the placeholder %p', (value) => {
    expect(rulesOf({ ...freshSecrets(), JWT_SECRET: value })).toContain('JWT_SECRET:not-example');
  });

  it('should name the "mutually-different" rule when two secrets are equal', () => {
    const env = freshSecrets();
    env.INTERNAL_API_SECRET = env.JWT_SECRET!;
    expect(rulesOf(env)).toEqual(['INTERNAL_API_SECRET:mutually-different']);
  });

  it('should require ADMIN_PASSWORD and the webhook secret to differ from the others', () => {
    const env = freshSecrets();
    expect(rulesOf({ ...env, ADMIN_PASSWORD: env.JWT_SECRET })).toContain(
      'ADMIN_PASSWORD:mutually-different',
    );
    expect(rulesOf({ ...env, MESSENGER_WEBHOOK_SECRET: env.CONFIG_ENCRYPTION_KEY })).toContain(
      'MESSENGER_WEBHOOK_SECRET:mutually-different',
    );
  });

  it('should name the "length" rule below 32 (database) and 64 (others) characters', () => {
    const env = freshSecrets();
    expect(rulesOf({ ...env, DATABASE_PASSWORD: env.DATABASE_PASSWORD!.slice(0, 31) })).toEqual([
      'DATABASE_PASSWORD:length',
    ]);
    expect(rulesOf({ ...env, JWT_SECRET: env.JWT_SECRET!.slice(0, 63) })).toEqual([
      'JWT_SECRET:length',
    ]);
    expect(rulesOf({ ...env, DATABASE_PASSWORD: env.JWT_SECRET!.slice(0, 32) })).toEqual([]);
  });

  it('should check the webhook secret alphabet and the admin password policy', () => {
    const env = freshSecrets();
    expect(rulesOf({ ...env, MESSENGER_WEBHOOK_SECRET: `${'ab12cd34'.repeat(4)}!` })).toContain(
      'MESSENGER_WEBHOOK_SECRET:alphabet',
    );
    expect(rulesOf({ ...env, ADMIN_PASSWORD: 'short' })).toContain('ADMIN_PASSWORD:length');
  });

  it('should treat values with fewer than 8 distinct characters as examples', () => {
    expect(isExampleValue('1234567')).toBe(true);
    expect(isExampleValue('12345678')).toBe(false);
  });
});

describe('loadConfig', () => {
  it('should report every broken rule at once, naming variables and never values', () => {
    const env = freshSecrets();
    const result = loadConfig({
      DATABASE_PASSWORD: 'change-me',
      JWT_SECRET: env.JWT_SECRET,
      CONFIG_ENCRYPTION_KEY: env.JWT_SECRET,
      PORT: 'not-a-port',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = result.errors.join('\n');
    expect(text).toContain('DATABASE_PASSWORD: rule "not-example"');
    expect(text).toContain('DATABASE_PASSWORD: rule "length"');
    expect(text).toContain('CONFIG_ENCRYPTION_KEY: rule "mutually-different"');
    expect(text).toContain('INTERNAL_API_SECRET: rule "present"');
    expect(text).toContain('PORT: rule "format"');
    expect(text).not.toContain(env.JWT_SECRET);
    expect(text).not.toContain('change-me');
    expect(text).not.toContain('not-a-port');
  });

  it('should apply defaults and coerce numbers', () => {
    const result = loadConfig({
      ...freshSecrets(),
      TRUST_PROXY_HOPS: '2',
      DATABASE_URL: '',
      PORT: '',
      LOG_LEVEL: '',
    });
    expect(result.ok && result.config).toMatchObject({
      PORT: 8080,
      LOG_LEVEL: 'info',
      TRUST_PROXY_HOPS: 2,
      PGLITE_DATA_DIR: './data/db',
    });
    expect(result.ok && result.config.DATABASE_URL).toBeUndefined();
  });
});
