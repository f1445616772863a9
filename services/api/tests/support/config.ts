import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '../../src/config/env.js';

/** A fresh set of secrets that pass every rule. */
export function freshSecrets(): Record<string, string> {
  return {
    DATABASE_PASSWORD: randomBytes(16).toString('hex'),
    JWT_SECRET: randomBytes(32).toString('hex'),
    CONFIG_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    INTERNAL_API_SECRET: randomBytes(32).toString('hex'),
  };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  const result = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'info', ...freshSecrets(), ...overrides },
    '9.9.9-test',
  );
  if (!result.ok) throw new Error(`test config invalid: ${result.errors.join('; ')}`);
  return result.config;
}
