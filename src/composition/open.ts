/**
 * The real edge dependencies, opened from the configuration: the database, the secret key, the
 * IP data and lists, the analysis engine, metrics and tracing. makeRuntime composes them; each
 * opener returns what it opened and how to close it.
 */
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { systemClock, systemRandom } from '../clock';
import { listenUrl, sqliteFile, type Config } from '../config';
import type { IpIntelligence } from '../domain/enrichment/session';
import type { DataFileDigest } from '../domain/data-files';
import { makeNetworkDataStatus, type GeoDataAge } from '../geo/data-age';
import { makeDataFileWatch, type DataFileWatch } from '../geo/data-files';
import { hostingAsns } from '../geo/hosting-asns';
import { openIpData, sha256Of } from '../geo/ip-data';
import {
  allListTexts,
  fileListTexts,
  IpListFileError,
  openIpLists,
  openStoredIpLists,
  type IpLists,
  type IpListTexts,
} from '../geo/ip-lists';
import type { Logger } from '../logger';
import { makeOidcSignIn } from '../security/oidc';
import { DIGEST_KEY, firstDigestKey, settleStoredKey } from '../security/installation-keys';
import { loadSecretKey, makeSecretBox, type SecretBox } from '../security/secrets';
import { operationIds } from '../spec';
import { dialectOf, makeDb, type Db } from '../storage/db';
import { makeInstallationSecrets } from '../storage/repositories/installation-secrets';
import { makeIpListTexts } from '../storage/repositories/ip-list-texts';
import { makeNodeDataFiles } from '../storage/repositories/node-data-files';
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

/**
 * The secret box over TRUSTGATE_SECRET_KEY (or DATA_DIR/secret.key, generated there on SQLite
 * only, with a warning) and TRUSTGATE_PREVIOUS_SECRET_KEYS, its digest keyed by the database's
 * digest key: refused when the node's keys cannot open it (security/installation-keys.ts).
 */
async function openSecretBox(config: Config, logger: Logger, db: Db): Promise<SecretBox> {
  const file = path.join(config.dataDir, 'secret.key');
  const shared = config.databaseUrl !== undefined;
  const { key, created } = loadSecretKey(config.secretKey, config.dataDir, systemRandom, { shared });
  if (created) {
    logger.warn(
      { file },
      'generated a new secret key for encrypting webhook secrets; in production set TRUSTGATE_SECRET_KEY instead',
    );
  }
  const previousKeys = config.previousSecretKeys.map((k) => Buffer.from(k, 'base64'));
  const digestKey = await settleStoredKey(
    makeInstallationSecrets(db),
    DIGEST_KEY,
    makeSecretBox(key, systemRandom, { previousKeys }),
    firstDigestKey(key, previousKeys),
    { source: config.secretKey ? 'TRUSTGATE_SECRET_KEY' : file, now: systemClock.now() },
  );
  return makeSecretBox(key, systemRandom, { previousKeys, digestKey });
}

/** The IP data files, reloaded when they change, with their digests; or none (ipDataNotLoaded) when not wanted. */
async function openIpDataFor(
  config: Config,
  logger: Logger,
  wanted: boolean,
): Promise<{
  ipIntelligence: IpIntelligence;
  ages: () => GeoDataAge[];
  digests: () => DataFileDigest[];
  close(): void;
}> {
  if (!wanted) return { ipIntelligence: ipDataNotLoaded, ages: () => [], digests: () => [], close: () => {} };
  const started = Date.now();
  const hostingText = config.hostingAsnsFile ? fs.readFileSync(config.hostingAsnsFile, 'utf8') : undefined;
  const ipData = await openIpData({
    cityDb: config.geoipCityDb,
    asnDb: config.geoipAsnDb,
    hostingAsns: hostingAsns(hostingText),
    onReload: (file, error) =>
      error
        ? logger.warn(
            { file, err: error.message },
            'IP data file changed but could not be read; keeping the loaded data',
          )
        : logger.info({ file }, 'IP data reloaded'),
  });
  const hosting: DataFileDigest = { file: 'hosting_asns', sha256: sha256Of(hostingText ?? '') };
  const digests = () => [...ipData.digests(), hosting];
  logger.info({ ...ipData.sources, sha256: digests(), ms: Date.now() - started }, 'IP data loaded');
  return { ipIntelligence: ipData, ages: ipData.ages, digests, close: ipData.close };
}

/**
 * The IP data files' digests compared across the nodes of a PostgreSQL database (each process a
 * node, named by its host and a random id) when `compare` (a process that loaded them); else only shown.
 */
async function watchDataFiles(
  config: Config,
  logger: Logger,
  db: Db,
  digests: () => DataFileDigest[],
  compare: boolean,
): Promise<DataFileWatch> {
  const watch = makeDataFileWatch({
    node: `${os.hostname()}-${randomBytes(4).toString('hex')}`,
    digests,
    ...(compare && dialectOf(db) === 'postgresql' ? { records: makeNodeDataFiles(db) } : {}),
    clock: systemClock,
    logger,
    intervalMs: config.ipListWatchMs,
  });
  await watch.start();
  return watch;
}

/** Where the IP lists' texts live: IP_LISTS_DIR (default DATA_DIR/ip-lists). */
export const ipListsDir = (config: Pick<Config, 'ipListsDir' | 'dataDir'>): string =>
  config.ipListsDir ?? path.join(config.dataDir, 'ip-lists');

/**
 * Where the IP lists' texts live: IP_LISTS_DIR's files on SQLite; on PostgreSQL the database,
 * into which the files of IP_LISTS_DIR are imported when it holds no list yet (an installation
 * moving to several nodes: once, whichever node or command comes first).
 */
export async function openIpListTexts(config: Config, db: Db, logger: Logger): Promise<IpListTexts> {
  const dir = ipListsDir(config);
  if (dialectOf(db) !== 'postgresql') return fileListTexts(dir);
  const texts = makeIpListTexts(db, systemClock);
  const files = await allListTexts(fileListTexts(dir));
  if (await texts.importOnce(files)) {
    logger.info(
      { dir, lists: files.map((f) => `${f.source}/${f.list}`) },
      'imported the IP list files into the database, where the lists now live (trustgate iplist edits them there)',
    );
  }
  return texts;
}

async function openIpListsFor(config: Config, logger: Logger, db: Db): Promise<IpLists> {
  const onReload = (where: string, error?: Error) => {
    if (!error) logger.info({ file: where }, 'IP list reloaded');
    else if (error instanceof IpListFileError)
      logger.warn({ file: where, err: error.message }, 'IP list has lines that are not addresses; they are skipped');
    else logger.warn({ file: where, err: error.message }, 'IP lists could not be read; the loaded ones stay');
  };
  const watchIntervalMs = config.ipListWatchMs;
  if (dialectOf(db) !== 'postgresql') return openIpLists({ dir: ipListsDir(config), watchIntervalMs, onReload });
  return openStoredIpLists(await openIpListTexts(config, db, logger), { watchIntervalMs, onReload });
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
  const secretBox = await openSecretBox(config, logger, db);
  const ipData = await openIpDataFor(config, logger, options.ipData ?? true);
  const ipLists = await openIpListsFor(config, logger, db);
  const dataFiles = await watchDataFiles(config, logger, db, ipData.digests, options.ipData ?? true);
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
    networkData: makeNetworkDataStatus(
      { geo: ipData.ages, lists: ipLists.status, files: dataFiles.health },
      config.ipListStaleDays,
    ),
    dataDir: config.dataDir,
    analysis,
    apiKeyCacheTtlMs: config.apiKeyCacheTtlMs,
    consoleSessionTtlMs: config.consoleSessionTtlMs,
    consoleSessionIdleMs: config.consoleSessionIdleMs,
    backtest: config.backtest,
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
    dataFiles.stop();
    ipData.close();
    ipLists.close();
  };
  return { deps, close };
}
