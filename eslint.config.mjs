// ESLint flat config for the whole workspace: typescript-eslint + Nx module boundaries.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// API module boundaries (docs/architecture.md "Module shape"): a module under
// services/api/src/modules/<area>/ is used by other modules and app.ts only through its
// index.ts; nobody imports another module's routes or reaches into its files. A relative
// import's meaning depends on how deep the importing file sits, so there is one pattern set per
// depth below modules/ (0 = modules/context.ts, 1 = <area>/x.ts, 2 = <area>/routes/x.ts, …).
const API_MODULES = 'services/api/src/modules';
const NOT_TESTS = ['**/*.test.ts', '**/*.spec.ts', '**/tests/**'];
const DEEP_IMPORT =
  "Import another API module only through its index.ts ('../<module>/index.js'); " +
  'add what you need to its public surface (docs/architecture.md, Module shape).';
const ROUTES_IMPORT =
  "Another module's routes are never imported; app.ts wires them through the module's index.ts.";
function apiModuleBoundaries(depth) {
  // From a file `depth` folders below modules/, this prefix leads back to modules/.
  const up = depth === 0 ? '\\./' : '(?:\\.\\./){' + depth + '}';
  const other = up + '[^./][^/]*/';
  return {
    files: [`${API_MODULES}/${'*/'.repeat(depth)}*.ts`],
    ignores: NOT_TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: `^${other}(?:.*/)?routes(?:\\.js$|/)`, message: ROUTES_IMPORT },
            {
              regex: `^${other}(?!index\\.js$)(?!(?:.*/)?routes(?:\\.js$|/))`,
              message: DEEP_IMPORT,
            },
            // The roundabout spelling, '../../modules/<module>/<file>', is just as deep.
            { regex: '^(?:\\.\\./)+modules/[^/]+/(?!index\\.js$)', message: DEEP_IMPORT },
          ],
        },
      ],
    },
  };
}

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
  ...[0, 1, 2, 3].map(apiModuleBoundaries),
  {
    // The rest of the API (app.ts wires every module's routes) also sees only modules' index.ts.
    files: ['services/api/src/**/*.ts'],
    ignores: [`${API_MODULES}/**`, ...NOT_TESTS],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?:\\.\\.?/)+(?:.*/)?modules/[^/]+/(?!index\\.js$)', message: DEEP_IMPORT },
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
