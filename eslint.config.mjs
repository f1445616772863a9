// ESLint flat config for the whole workspace: typescript-eslint + Nx project boundaries.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// Import boundaries inside a project (API modules only through their index.ts, floors, no
// cycles, web features apart) are not ESLint's: dependency-cruiser checks them on resolved paths
// (.dependency-cruiser.cjs, run by every project's lint script). The Nx rule below keeps the
// projects apart.

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      '**/.nx/**',
      '**/.cache/**',
      '**/drizzle/**',
      'data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          // The zod-free entry may be imported statically where the web lazy-loads the schemas.
          checkDynamicDependenciesExceptions: ['@usher/contracts/values'],
          allow: [],
          depConstraints: [
            // Apps depend only on contracts (testkit only from test files, see the override below).
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:testkit', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'scope:api', notDependOnLibsWithTags: ['scope:bot', 'scope:web'] },
            { sourceTag: 'scope:bot', notDependOnLibsWithTags: ['scope:api', 'scope:web'] },
            { sourceTag: 'scope:web', notDependOnLibsWithTags: ['scope:api', 'scope:bot'] },
          ],
        },
      ],
    },
  },
  {
    // Tests (and the web's browser journeys) may use the testkit fakes and builders.
    files: ['**/*.test.ts', '**/*.spec.ts', '**/tests/**/*.ts', 'web/e2e/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          checkDynamicDependenciesExceptions: ['@usher/contracts/values'],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts', 'type:testkit'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:testkit', onlyDependOnLibsWithTags: ['type:contracts'] },
            // The deployment checks share the testkit's waiting and missing-tool helpers.
            { sourceTag: 'type:tests', onlyDependOnLibsWithTags: ['type:testkit'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  prettier,
);
