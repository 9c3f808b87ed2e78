/** Jest runs the TypeScript sources through SWC; `npm run typecheck` does the type checking. */
const { classifyTests } = require('./scripts/engine-tests');

// The files that never reach storage (scripts/engine-tests.js says how that is decided). With
// TEST_STORAGE_ONLY=1, the PostgreSQL run (`npm run test:pg`, .ci/run) leaves them out: they ran
// the same on SQLite.
const { independent } = classifyTests();
const escape = (file) => file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

module.exports = {
  // Node's environment, failing a file that leaves a server or a child process running, and
  // giving an engine-independent file a DATABASE_URL that points nowhere.
  testEnvironment: '<rootDir>/test/helpers/leak-guard-environment.js',
  testEnvironmentOptions: { engineIndependent: independent },
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    ...(process.env.TEST_STORAGE_ONLY === '1' ? independent.map((file) => `${escape(file)}$`) : []),
  ],
  transform: {
    // The OTLP exporter loads node:http with a dynamic import(), which Jest's module registry
    // cannot run without --experimental-vm-modules: that one package is compiled like the sources
    // (SWC turns the import() into a require()).
    '/@opentelemetry/otlp-exporter-base/.+\\.js$': ['@swc/jest', { module: { type: 'commonjs' } }],
    // openid-client and the two packages it is made of are ES modules only (Node requires them
    // natively; Jest's module registry cannot): compiled to CommonJS like the sources.
    '/node_modules/(openid-client|oauth4webapi|jose)/.+\\.js$': ['@swc/jest', { module: { type: 'commonjs' } }],
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@opentelemetry/otlp-exporter-base|openid-client|oauth4webapi|jose)/)'], // (see transform)
  // The packages' sources import each other as Node's ES modules must, './webhooks.js' for
  // webhooks.ts; Jest resolves './webhooks' (a .js file first where one exists).
  moduleNameMapper: { '^(\\./.*)\\.js$': '$1' },
  setupFiles: ['<rootDir>/test/helpers/block-network.ts'],
  // The console's single-page app, built once when its sources changed (the console's tests serve it).
  globalSetup: '<rootDir>/test/helpers/console-build.js',
  testTimeout: 30000,
  // Two worker processes, each replaced once it holds more than 1 GB after a test file: in one
  // process (Jest's choice on two cores) the module registries the files leave behind (native
  // addons, the analysis engine's models) grew past Node's 4 GB heap on the second engine's run.
  maxWorkers: 2,
  workerIdleMemoryLimit: '1GB',
};
