/**
 * The composition root: the one place the object graph is built. `makeServices` wires the
 * repositories, the use cases and the worker's jobs over the edge dependencies (the database,
 * the clock, the secret box, the IP data, …); `makeRuntime` builds the real edges from the
 * configuration and composes them. The server (main.ts), the CLI, the tests and the benchmarks
 * all build through these two functions; `createApp` and the worker receive what they build.
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import { unavailableAnalysisEngine } from './analysis/unavailable';
import { systemClock, systemRandom, type Clock, type Random } from './clock';
import { listenUrl, sqliteFile, type Config } from './config';
import type { IpIntelligence } from './domain/enrichment/session';
import type { AnalysisEngine } from './domain/verification/analysis';
import { makeNetworkDataStatus, type GeoDataAge, type NetworkDataStatus } from './geo/data-age';
import { hostingAsns } from './geo/hosting-asns';
import { openIpData } from './geo/ip-data';
import { openIpLists } from './geo/ip-lists';
import { makeLogger, type Logger } from './logger';
import { loadSecretKey, makeSecretBox, type SecretBox } from './security/secrets';
import { makeDb, migrate, type Db } from './storage/db';
import { makeLocalMediaStore, makeMediaUrls, unconfiguredMediaStore, type MediaStore } from './storage/media';
import { makeAccountRepository } from './storage/repositories/accounts';
import { makeSearchRepository } from './storage/repositories/search';
import { makeEvaluationStore } from './storage/evaluation-store';
import { makeReceiptRepository } from './storage/repositories/receipts';
import { makeHistoryRepository } from './storage/repositories/history';
import { makeListRepository } from './storage/repositories/lists';
import { makeProjectDataRepository } from './storage/repositories/project-data';
import { makeProjectRepository } from './storage/repositories/projects';
import { makeAuditEventRepository } from './storage/repositories/audit-events';
import { makeEvaluationCountRepository } from './storage/repositories/evaluation-counts';
import { makeRulesRepository } from './storage/repositories/rules';
import { makeLabelRepository } from './storage/repositories/labels';
import { makeOperatorRepository } from './storage/repositories/operators';
import { makeRateLimits } from './storage/repositories/rate-limits';
import { makeRetentionRepository } from './storage/repositories/retention';
import { makeSessionRepository } from './storage/repositories/sessions';
import { makeVerificationIndex } from './storage/repositories/verification-index';
import { makeVerificationRepository } from './storage/repositories/verifications';
import { makeAccountUseCases } from './usecases/accounts';
import { makeEvaluation, type IpListLookup } from './usecases/evaluation';
import { makeIngestUseCases } from './usecases/ingest';
import { makeLabelUseCases } from './usecases/labels';
import { makeSearchUseCases } from './usecases/search';
import { makeIngestChallengeRepository } from './storage/repositories/ingest-challenges';
import { makeListUseCases } from './usecases/lists';
import { makeOperatorUseCases } from './usecases/operators';
import { makeProjectUseCases } from './usecases/projects';
import { makeRulesUseCases } from './usecases/rules';
import { makeReadiness } from './usecases/readiness';
import { makeRetention } from './usecases/retention';
import { makeStatsFlusher } from './usecases/stats-flusher';
import { makeWebhookDeliveries } from './usecases/webhook-deliveries';
import { makeStatsTally } from './domain/stats';
import { makeVerificationUseCases } from './usecases/verification';
import { isRendered } from './domain/webhook-events';
import { makeOutbox } from './webhooks/outbox';
import { makeTestEventSender, type TestEventResult } from './webhooks/test-event';
import { makeWebhookTransport } from './webhooks/transport';
import { makeWake } from './webhooks/wake';
import { startWorker, workerSettings, type JobDeps, type WorkerSettings } from './composition/jobs';
import { timedAnalysis } from './telemetry/analysis';
import { knexPool, makeMetrics, type Metrics } from './telemetry/metrics';
import { makeTracing, NO_TRACING, type Tracing } from './telemetry/tracing';
import { operationIds } from './spec';
import { makeOidcSignIn, type OidcSignIn } from './security/oidc';

/** The edge dependencies: everything the use cases reach outside pure code. */
export interface CoreDeps {
  db: Db;
  clock: Clock;
  random: Random;
  logger: Logger;
  secretBox: SecretBox;
  ipIntelligence: IpIntelligence;
  /** The Tor, VPN, proxy, datacenter and fraud address lists (src/geo/ip-lists.ts). */
  ipLists: IpListLookup;
  /** How old the IP data and lists are (GET /healthz); absent in a process that loads neither. */
  networkData?: NetworkDataStatus;
  /** The data folder; captured images go to `<dataDir>/media` unless `media` is given. */
  dataDir?: string;
  /** Where captured images are kept (encrypted); without it and without dataDir, captures answer 503. */
  media?: MediaStore;
  /** Face and document analysis; without it, one that answers 503 (analysis/unavailable.ts). Never a fake outside tests. */
  analysis?: AnalysisEngine;
  /** How long an API key's project is kept in memory (config apiKeyCacheTtlMs); absent: not kept. */
  apiKeyCacheTtlMs?: number;
  /** How long a console session lasts at most, and without a request (config); absent: the defaults of usecases/operators.ts. */
  consoleSessionTtlMs?: number;
  consoleSessionIdleMs?: number;
  /**
   * The origin (and path prefix) of every absolute URL the service makes (config
   * publicBaseUrl; a function because with PORT=0 the listen address is known only once
   * listening). Absent: making such a URL fails (a process that makes none, like the CLI).
   */
  publicBaseUrl?: () => string;
  /** Prometheus metrics (GET /metrics); absent: none recorded, no /metrics. */
  metrics?: Metrics;
  /** OpenTelemetry tracing; absent: off (telemetry/tracing.ts NO_TRACING). */
  tracing?: Tracing;
  /** The console's OpenID Connect provider (config oidc, security/oidc.ts); absent: sign-in with a password only. */
  oidc?: OidcSignIn;
}

/**
 * What `makeServices` needs: the database and the secret box; the rest defaults to the system's
 * clock and randomness, a silent logger, no IP data (every address unknown) and empty IP lists.
 */
export type EdgeDeps = Pick<CoreDeps, 'db' | 'secretBox'> & Partial<CoreDeps>;

/** No IP data: every address is unknown (tests and benchmarks that enrich nothing). */
export const NO_IP_DATA: IpIntelligence = { lookup: () => ({}) };
/** No IP lists: no address is on one. */
export const NO_IP_LISTS: IpListLookup = { lookup: () => [] };

/** For commands that never enrich a session (the CLI): loading the IP data would only cost time. */
const ipDataNotLoaded: IpIntelligence = {
  lookup() {
    throw new Error('IP data is not loaded in this process');
  },
};

const noPublicBaseUrl = (): string => {
  throw new Error('no public base URL in this process (PUBLIC_BASE_URL)');
};

export function makeServices(edges: EdgeDeps) {
  const deps: CoreDeps = {
    clock: systemClock,
    random: systemRandom,
    logger: makeLogger('silent'),
    ipIntelligence: NO_IP_DATA,
    ipLists: NO_IP_LISTS,
    tracing: NO_TRACING,
    ...edges,
  };
  const tracing = deps.tracing!;
  const repos = {
    projects: makeProjectRepository(deps.db),
    sessions: makeSessionRepository(deps.db),
    accounts: makeAccountRepository(deps.db),
    lists: makeListRepository(deps.db),
    history: makeHistoryRepository(deps.db),
    store: makeEvaluationStore(deps.db, deps.secretBox),
    receipts: makeReceiptRepository(deps.db),
    verifications: makeVerificationRepository(deps.db, deps.secretBox),
    verificationIndex: makeVerificationIndex(deps.db, deps.secretBox),
    outbox: makeOutbox(deps.db, deps.secretBox),
    rateLimits: makeRateLimits(deps.db),
    ingestChallenges: makeIngestChallengeRepository(deps.db),
    projectData: makeProjectDataRepository(),
    auditEvents: makeAuditEventRepository(deps.db),
    evaluationCounts: makeEvaluationCountRepository(deps.db),
    rules: makeRulesRepository(deps.db),
    labels: makeLabelRepository(deps.db),
    retention: makeRetentionRepository(deps.db),
    search: makeSearchRepository(deps.db),
    operators: makeOperatorRepository(deps.db),
  };
  const media =
    deps.media ??
    (deps.dataDir
      ? makeLocalMediaStore(path.join(deps.dataDir, 'media'), deps.secretBox, deps.random)
      : unconfiguredMediaStore);
  const publicBaseUrl = deps.publicBaseUrl ?? noPublicBaseUrl;
  const mediaUrls = makeMediaUrls(media, deps.clock, publicBaseUrl);
  /** Wakes this process's webhook dispatcher when a use case has queued a webhook. */
  const webhookWake = makeWake();
  /** The overview's counts, tallied by the evaluations and written by the flusher (makeRuntime starts it, tests call flush). */
  const statsTally = makeStatsTally();
  const statsFlusher = makeStatsFlusher({ tally: statsTally, counts: repos.evaluationCounts, logger: deps.logger });
  const evaluation = makeEvaluation({
    ...deps,
    ...repos,
    tally: statsTally,
    metrics: deps.metrics?.evaluations,
    tracing,
    webhooksQueued: webhookWake.wake,
  });
  tracing.watchDb(deps.db);
  deps.metrics?.watch({
    outboxDepth: repos.outbox.depth,
    networkData: deps.networkData,
    now: () => deps.clock.now(),
    pool: knexPool(deps.db),
  });
  const analysis =
    deps.analysis && (deps.metrics || tracing.enabled)
      ? timedAnalysis(deps.analysis, deps.metrics?.analysis, tracing)
      : deps.analysis;
  const projects = makeProjectUseCases({
    ...deps,
    projects: repos.projects,
    lists: repos.lists,
    projectData: repos.projectData,
    auditEvents: repos.auditEvents,
    evaluationCounts: repos.evaluationCounts,
    statsTally,
    media,
  });
  const rules = makeRulesUseCases({
    ...deps,
    rules: repos.rules,
    auditEvents: repos.auditEvents,
    receipts: repos.receipts,
    accounts: repos.accounts,
    forgetProject: projects.forgetProject,
  });
  const verification = makeVerificationUseCases({
    ...deps,
    ...repos,
    index: repos.verificationIndex,
    media,
    mediaUrls,
    analysis: analysis ?? unavailableAnalysisEngine,
    evaluation,
    webhooksQueued: webhookWake.wake,
    publicBaseUrl,
  });
  const retention = makeRetention({ ...deps, ...repos, media, metrics: deps.metrics?.retention });
  /** The worker's jobs, as narrow functions. */
  const jobs: JobDeps = {
    dispatch: {
      outbox: repos.outbox,
      target: projects.webhookTarget,
      /** A queued webhook's body as it is sent now (media URLs signed from this moment). */
      render: (row) => (isRendered(row.eventType) ? verification.renderWebhook(row.body) : Promise.resolve(row.body)),
      wake: webhookWake,
      metrics: deps.metrics?.webhooks,
    },
    sweep: () => verification.sweep(),
    retain: (options) => retention.runOnce(options),
  };
  const readiness = makeReadiness({
    db: deps.db,
    logger: deps.logger,
    ipDataLoaded: deps.ipIntelligence !== ipDataNotLoaded,
    models: !deps.analysis ? 'off' : deps.analysis.warmUp ? 'loading' : 'loaded',
  });
  return {
    /** The edge dependencies the services were built on (defaults filled in). */
    edges: deps,
    /** GET /readyz's checks; the server tells it when it stops. */
    readiness,
    /** Loads the analysis models ahead of the first verification; /readyz is not ready until they are. */
    warmUp: () => readiness.modelsLoading(analysis?.warmUp?.() ?? Promise.resolve()),
    repos,
    projects,
    rules,
    evaluation,
    statsFlusher,
    accounts: makeAccountUseCases({
      ...deps,
      ...repos,
      evaluation,
      forgetVerifications: verification.forgetAccount,
      mediaUrls,
      webhooksQueued: webhookWake.wake,
    }),
    labels: makeLabelUseCases({ ...deps, ...repos }),
    search: makeSearchUseCases(repos),
    webhookDeliveries: makeWebhookDeliveries({
      ...deps,
      outbox: repos.outbox,
      auditEvents: repos.auditEvents,
      webhooksQueued: webhookWake.wake,
    }),
    operators: makeOperatorUseCases({ ...deps, operators: repos.operators, projects: repos.projects }),
    lists: makeListUseCases({ ...deps, ...repos, webhooksQueued: webhookWake.wake }),
    ingest: makeIngestUseCases({
      ...deps,
      projects: repos.projects,
      sessions: repos.sessions,
      challenges: repos.ingestChallenges,
    }),
    verification,
    retention,
    mediaUrls,
    jobs,
  };
}

export type Services = ReturnType<typeof makeServices>;

export interface Runtime extends CoreDeps {
  services: Services;
  /** Runs the worker with the configuration's settings (and `overrides`) until `signal` aborts. */
  startWorker(signal: AbortSignal, overrides?: Partial<WorkerSettings>): Promise<void>;
  /** `trustgate webhooks test`: one signed test event to the project's webhook URL, under the configuration's target policy. */
  sendTestWebhook(projectId: string): Promise<TestEventResult>;
  /** Loads the analysis models ahead of the first verification (the server calls it at start). */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

/** The configuration's database, not migrated (makeRuntime migrates it; `trustgate migrate` and `backup` use it alone). */
export function openDatabase(config: Config, logger: Logger): Db {
  return makeDb({
    databaseUrl: config.databaseUrl,
    sqliteFile: sqliteFile(config),
    poolSize: config.databasePoolSize,
    hotConnections: config.databaseHotConnections,
    sqliteCacheMb: config.sqliteCacheMb,
    sqliteMmapMb: config.sqliteMmapMb,
    sqliteCheckpointMs: config.sqliteCheckpointMs,
    sqliteThread: config.sqliteThread,
    onCheckpointError: (message) => logger.error({ err: message }, 'SQLite checkpoint thread failed'),
    onConnectionError: (message) =>
      logger.warn({ err: message }, 'PostgreSQL connection of the hot path failed (dropped)'),
  });
}

/**
 * The real edge dependencies from the configuration (the database, migrated; the secret box;
 * the IP data and lists; the analysis engine), composed: how the server and the CLI start.
 */
export async function makeRuntime(
  config: Config,
  logger: Logger = makeLogger(config.logLevel),
  options: {
    ipData?: boolean;
    analysis?: boolean;
    migrate?: boolean;
    /** The public base URL when the configuration's is not final (PORT=0: the server's once it listens). */
    publicBaseUrl?: () => string;
    /** Metrics and tracing as configured (METRICS, OTEL_*); false for a process that serves nothing (the CLI). */
    telemetry?: boolean;
  } = {},
): Promise<Runtime> {
  const db = openDatabase(config, logger);
  // A cluster's workers skip it: the primary migrated before starting them (knex takes a lock
  // even when nothing is pending, and N workers would contend for it).
  if (options.migrate ?? true) await migrate(db);
  const { key, created } = loadSecretKey(config.secretKey, config.dataDir, systemRandom);
  if (created) {
    logger.warn(
      { file: path.join(config.dataDir, 'secret.key') },
      'generated a new secret key for encrypting webhook secrets; in production set TRUSTGATE_SECRET_KEY instead',
    );
  }
  let ipIntelligence = ipDataNotLoaded;
  let closeIpData = () => {};
  let geoAges: () => GeoDataAge[] = () => [];
  if (options.ipData ?? true) {
    const started = Date.now();
    const ipData = await openIpData({
      cityDb: config.geoipCityDb,
      asnDb: config.geoipAsnDb,
      hostingAsns: hostingAsns(config.hostingAsnsFile ? fs.readFileSync(config.hostingAsnsFile, 'utf8') : undefined),
      onReload: (file, error) =>
        error
          ? logger.warn(
              { file, err: error.message },
              'IP data file changed but could not be read; keeping the loaded data',
            )
          : logger.info({ file }, 'IP data reloaded'),
    });
    logger.info({ ...ipData.sources, ms: Date.now() - started }, 'IP data loaded');
    ipIntelligence = ipData;
    closeIpData = ipData.close;
    geoAges = ipData.ages;
  }
  const ipLists = openIpLists({
    dir: config.ipListsDir,
    onReload: (file, error) =>
      error
        ? logger.warn({ file, err: error.message }, 'IP list file has lines that are not addresses; they are skipped')
        : logger.info({ file }, 'IP list reloaded'),
  });
  // The real engine, loaded lazily (its models load on the first analysis or on warmUp); the
  // module itself is only imported when it is configured, so the CLI starts fast.
  const analysis =
    config.analysisEngine === 'local' && (options.analysis ?? true)
      ? (await import('./analysis/engine')).makeLocalAnalysisEngine()
      : undefined;
  const telemetry = options.telemetry ?? true;
  const tracing = telemetry && config.tracing ? makeTracing(config.tracing) : NO_TRACING;
  const deps: CoreDeps = {
    db,
    clock: systemClock,
    random: systemRandom,
    logger,
    secretBox: makeSecretBox(key, systemRandom),
    ipIntelligence,
    ipLists,
    networkData: makeNetworkDataStatus({ geo: geoAges, lists: ipLists.status }, config.ipListStaleDays),
    dataDir: config.dataDir,
    analysis,
    apiKeyCacheTtlMs: config.apiKeyCacheTtlMs,
    consoleSessionTtlMs: config.consoleSessionTtlMs,
    consoleSessionIdleMs: config.consoleSessionIdleMs,
    publicBaseUrl: options.publicBaseUrl ?? (() => config.publicBaseUrl ?? listenUrl(config.host, config.port)),
    metrics:
      telemetry && config.metrics
        ? makeMetrics({ operations: operationIds(), clusterWorker: cluster.isWorker })
        : undefined,
    tracing,
    ...(config.oidc ? { oidc: makeOidcSignIn(config.oidc) } : {}),
  };
  const services = makeServices(deps);
  services.statsFlusher.start(config.statsFlushMs);
  return {
    ...deps,
    services,
    startWorker: (signal, overrides = {}) =>
      startWorker({ ...services.jobs, clock: deps.clock, logger }, { ...workerSettings(config), ...overrides }, signal),
    sendTestWebhook: async (projectId) => {
      const transport = makeWebhookTransport({ allowPrivate: config.webhookAllowPrivate });
      try {
        const send = makeTestEventSender({ ...deps, post: transport.post, target: services.projects.webhookTarget });
        return await send(projectId);
      } finally {
        transport.close();
      }
    },
    warmUp: async () => {
      if (!analysis) return;
      const started = Date.now();
      await services.warmUp();
      logger.info({ ms: Date.now() - started }, 'analysis models loaded');
    },
    close: async () => {
      // What this process's evaluations tallied for the overview, written before the database closes.
      await services.statsFlusher.stop();
      await tracing.shutdown();
      await analysis?.close();
      closeIpData();
      ipLists.close();
      await db.destroy();
    },
  };
}
