// Import boundaries of the whole workspace, checked by dependency-cruiser on resolved paths (so
// './../users/bulk.js' and '../users/bulk.js' are the same import). Every project's `lint` target
// runs it for its own folders (`scripts/lint/boundaries.mjs <project folder>`), so `npm run lint`
// and CI fail on a broken rule. `deploy/tests/boundaries.test.ts` proves each rule fails on a
// planted offender and passes on the clean tree.
//
// Reading a rule: `from` is the importing file, `to` the imported one, both paths from the
// repository root; `$1` in `to` is what the first (…) group of `from` matched.
// Why the layers are what they are: docs/architecture.md ("Floors", "Module shape", "Boundaries").

/** Test code may reach into anything it tests; the rules below are about shipped code. */
const TESTS = '(^|/)(tests|e2e)/|\\.(test|spec)\\.ts$|(^|/)test-setup\\.ts$';

// The API's floors, bottom first (docs/architecture.md, "Floors of services/api/src"). A floor
// may import the floors listed before it, never one listed after it.
const API = 'services/api/src';
const API_FLOORS = [
  ['errors', 'the one error class'],
  ['time', 'calendar days and instants in a zone'],
  ['metrics', 'the Prometheus registry and its metric families'],
  ['version.ts|logger.ts', 'build version, pino setup'],
  ['config', 'env schema and secret rules'],
  ['db', 'client, schema, migrations, transactions, paging'],
  ['security', 'password hashing, JWT signer'],
  ['audit-log', 'the audit row writer'],
  ['settings-store', 'settings registry, cache, crypto'],
  ['integrations', 'outbound adapters'],
  ['scheduler', 'job slots and leases'],
  ['notify', 'the API → bot pusher'],
  ['http', 'route table, guards, error handler, OpenAPI'],
  ['modules', 'the functional areas'],
];
const floorPath = (name) => `^${API}/(${name})(/|$)`;
const apiFloorRules = API_FLOORS.slice(0, -1).map(([name, what], i) => ({
  name: `api-floor-${name.replace(/\|.*/, '').replace('.ts', '')}`,
  comment:
    `${API}/${name} (${what}) is a lower floor: it must not import a floor above it ` +
    `(${API_FLOORS.slice(i + 1)
      .map(([n]) => n)
      .join(', ')}, app.ts, main.ts). Move what both need down instead.`,
  severity: 'error',
  from: { path: floorPath(name) },
  to: {
    path: [
      ...API_FLOORS.slice(i + 1).map(([n]) => floorPath(n)),
      `^${API}/(app|main|bootstrap|listen|shutdown)\\.ts$`,
    ],
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment:
        'No file may import itself through others, in any project (type-only imports count: ' +
        'a circle of types is still a circle a reader has to untangle). Break it by moving what ' +
        'both sides need into a third, lower file.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },

    // --- API (services/api) ------------------------------------------------------------------
    {
      name: 'api-module-through-index',
      comment:
        'An API module (services/api/src/modules/<area>/) is used by other modules only through ' +
        "its index.ts, its public surface ('../users/index.js'), however the path is spelled. " +
        'Add what you need to that index.ts, or move it down (docs/architecture.md, Module shape).',
      severity: 'error',
      from: { path: `^${API}/modules/([^/]+)/`, pathNot: TESTS },
      to: {
        path: `^${API}/modules/[^/]+/`,
        pathNot: [`^${API}/modules/$1/`, `^${API}/modules/[^/]+/index\\.ts$`],
      },
    },
    {
      name: 'api-outside-modules-through-index',
      comment:
        'Outside modules/ (app.ts wires every module), a module is likewise seen only through ' +
        'its index.ts.',
      severity: 'error',
      from: { path: `^${API}/`, pathNot: [`^${API}/modules/`, TESTS] },
      to: { path: `^${API}/modules/[^/]+/`, pathNot: `^${API}/modules/[^/]+/index\\.ts$` },
    },
    ...apiFloorRules,
    {
      name: 'api-src-not-tests',
      comment: 'Shipped API code never imports its tests, benchmarks or reliability harness.',
      severity: 'error',
      from: { path: `^${API}/` },
      to: { path: '^services/api/(tests|bench|reliability)/' },
    },

    // --- Bot (services/bot) ------------------------------------------------------------------
    {
      name: 'bot-format-is-pure',
      comment:
        'services/bot/src/format/ turns data into message text: it knows nothing of telegraf ' +
        'features, the HTTP server, the API client or the process (docs/bot.md).',
      severity: 'error',
      from: { path: '^services/bot/src/format/' },
      to: {
        path: '^services/bot/src/(bot/|server|main|polling|webhook|notify|lease|api-client|telegram)',
      },
    },
    {
      name: 'bot-features-not-process',
      comment:
        'The telegraf features (services/bot/src/bot/) are composed by the process; they never ' +
        'import the process pieces that start them (main, server, polling, webhook, lease).',
      severity: 'error',
      from: { path: '^services/bot/src/bot/' },
      to: { path: '^services/bot/src/(main|server|polling|webhook|lease)\\.ts$' },
    },
    {
      name: 'bot-nobody-imports-main',
      comment: 'main.ts is the entry point; nothing imports it.',
      severity: 'error',
      from: {},
      to: { path: '^services/(bot|api)/src/main\\.ts$' },
    },

    // --- Contracts (services/contracts) ------------------------------------------------------
    {
      name: 'contracts-browser-safe',
      comment:
        'The browser imports @usher/contracts: no Node built-ins, and no package but zod ' +
        '(declared in its package.json).',
      severity: 'error',
      from: { path: '^services/contracts/src/' },
      to: { pathNot: ['^services/contracts/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'declared-packages',
      comment:
        "A package a project imports is declared in that project's package.json (a workspace " +
        'package too, e.g. @usher/contracts), so its image and its lockfile entry carry it.',
      severity: 'error',
      from: { pathNot: TESTS },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown', 'undetermined'] },
    },

    {
      name: 'shipped-code-no-dev-packages',
      comment:
        'What ships (api, bot, contracts and testkit src, the web app) imports only packages ' +
        'declared as dependencies. The exception is a workspace package (@usher/contracts), ' +
        'which the api and bot declare as a devDependency because esbuild inlines it into ' +
        'dist/main.js, so the runtime manifest must not ask npm for it.',
      severity: 'error',
      from: {
        path: '^(services/(api|bot|contracts|testkit)/src/|web/src/)',
        pathNot: TESTS,
      },
      to: {
        dependencyTypes: ['npm-dev'],
        dependencyTypesNot: ['npm', 'type-only'],
        pathNot: '^services/',
      },
    },

    // --- Web (web/src/app) -------------------------------------------------------------------
    {
      name: 'web-feature-through-public-surface',
      comment:
        'A web feature (web/src/app/features/<area>/) uses core/, shared/ and its own files. ' +
        "Another feature only through that feature's index.ts, its declared public surface. " +
        'A piece two features need moves to shared/. Specs may render pages of several features.',
      severity: 'error',
      from: { path: '^web/src/app/features/([^/]+)/', pathNot: TESTS },
      to: {
        path: '^web/src/app/features/[^/]+/',
        pathNot: ['^web/src/app/features/$1/', '^web/src/app/features/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'web-core-shared-not-features',
      comment:
        'core/ (singletons: api, session, shell) and shared/ (reusable UI) sit below the ' +
        'features and never import one; only the app shell (app.routes.ts) wires features.',
      severity: 'error',
      from: { path: '^web/src/app/(core|shared)/', pathNot: TESTS },
      to: { path: '^web/src/app/features/' },
    },
    {
      name: 'web-shared-not-core-shell',
      comment:
        "shared/ may use core's services (api, notifier, i18n) but not the shell that hosts " +
        'the pages.',
      severity: 'error',
      from: { path: '^web/src/app/shared/', pathNot: TESTS },
      to: { path: '^web/src/app/core/shell/' },
    },
  ],
  options: {
    // Type-only imports are dependencies too (a type circle is still a circle).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    // Resolve imports as the projects do: `.js` specifiers name `.ts` files (NodeNext; the
    // cruiser maps them itself), the web writes extensionless paths (bundler).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    // A project's files see its own package.json and the root one (tools such as esbuild and
    // drizzle-kit are root devDependencies); `shipped-code-no-dev-packages` keeps the root's
    // devDependencies out of what ships.
    combinedDependencies: true,
    doNotFollow: { path: 'node_modules' },
    // Build output of our own projects (not a package's dist/ folder, which imports resolve into).
    exclude: {
      path: [
        '^services/[a-z-]+/(dist|coverage)/',
        '^(web|deploy)/(dist|coverage|[.]angular)/',
        '^[.]nx/',
      ],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
