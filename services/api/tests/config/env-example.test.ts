import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envSchema, loadConfig } from '../../src/config/env.js';
import { freshSecrets } from '../support/config.js';

const rootExample = join(dirname(fileURLToPath(import.meta.url)), '../../../../.env.example');

/** `NAME=value` lines of an env file, assigned or commented out (`# NAME=value`). */
function assignments(text: string): Map<string, string> {
  return new Map(
    [...text.matchAll(/^#?\s?([A-Z][A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!.trim()]),
  );
}

describe('.env.example', () => {
  const listed = assignments(readFileSync(rootExample, 'utf8'));
  const accepted = Object.keys(envSchema.shape);

  it('should list every variable the API env schema accepts, commented or not', () => {
    expect(accepted.length).toBeGreaterThan(10); // the schema's keys were really read
    expect(accepted.filter((name) => !listed.has(name))).toEqual([]);
  });

  it('should show example values the API accepts', () => {
    // With the secrets filled in (as scripts/gen-secrets does), every non-empty example value of
    // an API variable, uncommented, must pass the schema.
    const examples = Object.fromEntries(
      accepted.flatMap((name) => {
        const value = listed.get(name);
        return value ? [[name, value]] : [];
      }),
    );
    expect(Object.keys(examples)).toEqual(
      expect.arrayContaining(['PGLITE_DATA_DIR', 'WEB_DIST_DIR']),
    );

    const result = loadConfig({ ...freshSecrets(), ...examples });

    expect(result.ok ? [] : result.errors).toEqual([]);
  });
});
