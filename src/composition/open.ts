/**
 * The real edge dependencies, opened from the configuration: the database, the secret key, the
 * IP data and lists, the analysis engine, metrics and tracing. makeRuntime composes them; each
 * opener returns what it opened and how to close it.
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import { systemClock, systemRandom } from '../clock';
import { listenUrl, sqliteFile, type Config } from '../config';
import type { IpIntelligence } from '../domain/enrichment/session';
import { makeNetworkDataStatus, type GeoDataAge } from '../geo/data-age';
import { hostingAsns } from '../geo/hosting-asns';
import { openIpData } from '../geo/ip-data';
import { openIpLists, type IpLists } from '../geo/ip-lists';
import type { Logger } from '../logger';
import { makeOidcSignIn } from '../security/oidc';
import { loadSecretKey, makeSecretBox, type SecretBox } from '../security/secrets';
import { operationIds } from '../spec';
import { makeDb, type Db } from '../storage/db';
import { makeMetrics } from '../telemetry/metrics';
import { makeTracing, NO_TRACING } from '../telemetry/tracing';
import { ipDataNotLoaded, type CoreDeps } from './edges';

/** What a process opens beyond the database: the IP data and the analysis engine cost time, telemetry a registry. */
export interface OpenOptions {
  ipData?: boolean;
  analysis?: boolean;
  /** The public base URL when the configuration's is not final (PORT=0: the server's once it listens). */
  publicBaseUrl?: () => string;
  /** Metrics and tracing as configured (METRICS, OTEL_*); false for a process that serves nothing (the CLI). */
  telemetry?: boolean;
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

/** The secret box over TRUSTGATE_SECRET_KEY, or over a key generated into the data folder (with a warning). */
function openSecretBox(config: Config, logger: Logger): SecretBox {
  const { key, created } = loadSecretKey(config.secretKey, config.dataDir, systemRandom);
  if (created) {
    logger.warn(
      { file: path.join(config.dataDir, 'secret.key') },
      'generated a new secret key for encrypting webhook secrets; in production set TRUSTGATE_SECRET_KEY instead',
    );
  }
  return makeSecretBox(key, systemRandom);
}

/** The IP data files, reloaded when they change; or none (ipDataNotLoaded) when not wanted. */
async function openIpDataFor(
  config: Config,
  logger: Logger,
  wanted: boolean,
): Promise<{ ipIntelligence: IpIntelligence; ages: () => GeoDataAge[]; close(): void }> {
  if (!wanted) return { ipIntelligence: ipDataNotLoaded, ages: () => [], close: () => {} };
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
  return { ipIntelligence: ipData, ages: ipData.ages, close: ipData.close };
}

function openIpListsFor(config: Config, logger: Logger): IpLists {
  return openIpLists({
    dir: config.ipListsDir,
    onReload: (file, error) =>
      error
        ? logger.warn({ file, err: error.message }, 'IP list file has lines that are not addresses; they are skipped')
        : logger.info({ file }, 'IP list reloaded'),
  });
}

/**
 * The edges besides the database (given, migrated or not), and what closes them. The analysis
 * engine is the real one, loaded lazily (its models load on the first analysis or on warmUp);
 * its module is only imported when it is configured, so the CLI starts fast.
 */
export async function openEdges(
  config: Config,
  logger: Logger,
  db: Db,
  options: OpenOptions,
): Promise<{ deps: CoreDeps; close(): Promise<void> }> {
  const secretBox = openSecretBox(config, logger);
  const ipData = await openIpDataFor(config, logger, options.ipData ?? true);
  const ipLists = openIpListsFor(config, logger);
  const analysis =
    config.analysisEngine === 'local' && (options.analysis ?? true)
      ? (await import('../analysis/engine')).makeLocalAnalysisEngine()
      : undefined;
  const telemetry = options.telemetry ?? true;
  const tracing = telemetry && config.tracing ? makeTracing(config.tracing) : NO_TRACING;
  const deps: CoreDeps = {
    db,
    clock: systemClock,
    random: systemRandom,
    logger,
    secretBox,
    ipIntelligence: ipData.ipIntelligence,
    ipLists,
    networkData: makeNetworkDataStatus({ geo: ipData.ages, lists: ipLists.status }, config.ipListStaleDays),
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
  const close = async () => {
    await tracing.shutdown();
    await analysis?.close();
    ipData.close();
    ipLists.close();
  };
  return { deps, close };
}
