/**
 * Test dependencies: a real migrated database, a fixed clock, a silent (or captured) logger,
 * and an app built by the same factory as production.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import pino from 'pino';
import { createApp, type AppConfig } from '../../src/app';
import { makeContractValidator, type ContractValidator } from '../../src/http/validator';
import { fixedClock, systemRandom } from '../../src/clock';
import { DEFAULT_API_KEY_CACHE_TTL_MS } from '../../src/config';
import { makeLogger, type Logger } from '../../src/logger';
import { makeSecretBox } from '../../src/security/secrets';
import { makeServices, type CoreDeps, type Services } from '../../src/composition';
import type { AnalysisEngine } from '../../src/domain/verification/analysis';
import type { ProjectCredentials } from '../../src/usecases/projects';
import type { BacktestSettings } from '../../src/usecases/rules';
import { hostingAsns } from '../../src/geo/hosting-asns';
import { makeNetworkDataStatus } from '../../src/geo/data-age';
import { openIpData, type IpData } from '../../src/geo/ip-data';
import { openIpLists, type IpLists } from '../../src/geo/ip-lists';
import type { OidcSignIn } from '../../src/security/oidc';
import type { Metrics } from '../../src/telemetry/metrics';
import type { Tracing } from '../../src/telemetry/tracing';
import { makeTestDb, type TestDb } from './db';

/**
 * What the test environment keeps for the life of a Jest worker (leak-guard-environment.js):
 * Jest gives every test file a module registry of its own, so a module-level cache here would be
 * loaded again by each file.
 */
const workerShared = (globalThis as Record<symbol, Map<string, unknown> | undefined>)[
  Symbol.for('trustgate.workerShared')
];

let ipData: Promise<IpData> | undefined;
/**
 * The real shipped IP data, loaded once per test worker: it is read-only (the shipped files are
 * not watched), and loading it took over a second and a half of CPU for each file that used it.
 */
export function sharedIpData(): Promise<IpData> {
  ipData ??= (workerShared?.get('ipData') as Promise<IpData> | undefined) ?? openIpData({ hostingAsns: hostingAsns() });
  workerShared?.set('ipData', ipData);
  return ipData;
}

let contract: ContractValidator | undefined;
/**
 * The contract's validator, compiled once per test worker (src/http/validator.ts): compiling it
 * for each file's app took over a second, and a tenth more for each operation the file called.
 */
export function sharedContract(): ContractValidator {
  contract ??= (workerShared?.get('contract') as ContractValidator | undefined) ?? makeContractValidator();
  workerShared?.set('contract', contract);
  return contract;
}

export interface TestContext {
  app: Express;
  /** The operator IP-list folder of this context (tor.txt, vpn.txt, …), watched every 20 ms. */
  ipListsDir: string;
  ipLists: IpLists;
  testDb: TestDb;
  services: Services;
  clock: ReturnType<typeof fixedClock>;
  logger: Logger;
  /** Every log line written, parsed. */
  logs: Record<string, unknown>[];
  project: ProjectCredentials;
  /** The edge dependencies and configuration the app was built from (to build another app on them). */
  deps: CoreDeps;
  config: AppConfig;
  /** The validator the app was built with: give it to another app built on the context (createApp's `contract`). */
  contract: ContractValidator;
  /** The temporary data folder (media), when the context was asked for one. */
  dataDir?: string;
  close(): Promise<void>;
}

/** Dependencies a test may add to the context's wiring. */
export interface TestDeps {
  /** A fake analysis engine (tests only; the server never wires one). */
  analysis?: AnalysisEngine;
  /** Give the context a temporary data folder, so captured media are stored. */
  media?: boolean;
  /** The public base URL (PUBLIC_BASE_URL); TEST_BASE_URL unless given (a test serving real browsers gives its listening origin). */
  publicBaseUrl?: () => string;
  /** Prometheus metrics (src/telemetry/metrics.ts makeMetrics): GET /metrics answers only with them. */
  metrics?: Metrics;
  /** Tracing (src/telemetry/tracing.ts makeTracing); off unless given. */
  tracing?: Tracing;
  /** The console's OpenID Connect provider (src/security/oidc.ts makeOidcSignIn); off unless given. */
  oidc?: OidcSignIn;
  /** The backtests' bounds (src/usecases/rules/deps.ts); the defaults unless given. */
  backtest?: Partial<BacktestSettings>;
}

/** The public base URL of test contexts: every absolute URL the service makes starts with it. */
export const TEST_BASE_URL = 'https://trustgate.test';

export const TEST_NOW = '2026-11-20T12:00:00.000Z';

export async function makeTestContext(overrides: Partial<AppConfig> = {}, extra: TestDeps = {}): Promise<TestContext> {
  const testDb = await makeTestDb();
  const dataDir = extra.media ? fs.mkdtempSync(path.join(os.tmpdir(), 'tg-data-')) : undefined;
  const ipListsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-iplists-'));
  const ipLists = openIpLists({ dir: ipListsDir, watchIntervalMs: 20 });
  const clock = fixedClock(TEST_NOW);
  const logs: Record<string, unknown>[] = [];
  const logger = makeLogger('info', {
    write(line: string) {
      logs.push(JSON.parse(line) as Record<string, unknown>);
    },
  } as pino.DestinationStream);
  const ipData = await sharedIpData();
  const deps: CoreDeps = {
    db: testDb.db,
    clock,
    random: systemRandom,
    logger,
    secretBox: makeSecretBox(randomBytes(32), systemRandom),
    ipIntelligence: ipData,
    ipLists,
    networkData: makeNetworkDataStatus(
      {
        geo: ipData.ages,
        lists: ipLists.status,
        // One node: its files, none to differ from (the nodes' comparison: test/nodes/ip-lists.test.ts).
        files: () => ipData.digests().map((d) => ({ ...d, differing_nodes: [] })),
      },
      7,
    ),
    ...(dataDir ? { dataDir } : {}),
    // As in production: a key's project is kept in memory (by the fixed clock's time).
    apiKeyCacheTtlMs: DEFAULT_API_KEY_CACHE_TTL_MS,
    publicBaseUrl: extra.publicBaseUrl ?? (() => TEST_BASE_URL),
    ...(extra.metrics ? { metrics: extra.metrics } : {}),
    ...(extra.tracing ? { tracing: extra.tracing } : {}),
    ...(extra.oidc ? { oidc: extra.oidc } : {}),
    ...(extra.backtest ? { backtest: extra.backtest } : {}),
  };
  const services = makeServices({ ...deps, ...(extra.analysis ? { analysis: extra.analysis } : {}) });
  const config: AppConfig = {
    rateLimitPerMinute: 1000,
    bulkRateLimitPerMinute: 1000,
    authFailureLimitPerIp: 1000,
    consoleLoginLimitPerIp: 1000,
    consoleLoginLimitPerAccount: 1000,
    consoleInsecureCookie: false,
    ingestRateLimitPerIp: 1000,
    ingestRateLimitPerProject: 10000,
    publicRedirectRateLimitPerIp: 1000,
    publicRedirectRateLimitPerProject: 10000,
    rateLimitStore: 'database',
    validateResponses: true,
    trustProxy: false,
    bodyLimit: '1mb',
    evaluationConcurrency: 4,
    demo: true,
    ...overrides,
  };
  const contract = sharedContract();
  const app = createApp({ config, services, contract });
  const project = await services.projects.create({ name: 'Test project' });
  const close = async () => {
    ipLists.close();
    fs.rmSync(ipListsDir, { recursive: true, force: true });
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    await testDb.destroy();
  };
  return {
    app,
    ipListsDir,
    ipLists,
    testDb,
    services,
    clock,
    logger,
    logs,
    project,
    deps,
    config,
    contract,
    dataDir,
    close,
  };
}
