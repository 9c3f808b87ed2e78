/**
 * Builds the real edge dependencies from configuration: the database (migrated), the secret
 * box, the logger, the clock. Shared by the server (main.ts) and the CLI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { systemClock, systemRandom } from './clock';
import { listenUrl, type Config } from './config';
import { hostingAsns } from './geo/hosting-asns';
import { openIpData } from './geo/ip-data';
import { openIpLists } from './geo/ip-lists';
import { makeLogger, type Logger } from './logger';
import { loadSecretKey, makeSecretBox } from './security/secrets';
import { makeServices, type CoreDeps, type Services } from './services';
import { makeDb, migrate } from './storage/db';
import type { IpIntelligence } from './usecases/ingest';

/** For commands that never enrich a session (the CLI): loading the IP data would only cost time. */
const ipDataNotLoaded: IpIntelligence = {
  lookup() {
    throw new Error('IP data is not loaded in this process');
  },
};

export interface Runtime extends CoreDeps {
  services: Services;
  /** Loads the analysis models ahead of the first verification (the server calls it at start). */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

export async function makeRuntime(
  config: Config,
  logger: Logger = makeLogger(config.logLevel),
  options: {
    ipData?: boolean;
    analysis?: boolean;
    migrate?: boolean;
    /** The public base URL when the configuration's is not final (PORT=0: the server's once it listens). */
    publicBaseUrl?: () => string;
  } = {},
): Promise<Runtime> {
  const db = makeDb({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'trustgate.sqlite'),
    poolSize: config.databasePoolSize,
    sqliteCacheMb: config.sqliteCacheMb,
    sqliteMmapMb: config.sqliteMmapMb,
    sqliteCheckpointMs: config.sqliteCheckpointMs,
    onCheckpointError: (message) => logger.error({ err: message }, 'SQLite checkpoint thread failed'),
  });
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
  if (options.ipData ?? true) {
    const started = Date.now();
    const ipData = await openIpData({
      cityDb: config.geoipCityDb,
      asnDb: config.geoipAsnDb,
      hostingAsns: hostingAsns(config.hostingAsnsFile ? fs.readFileSync(config.hostingAsnsFile, 'utf8') : undefined),
      onReload: (file, error) =>
        error ? logger.warn({ file, err: error.message }, 'IP data file changed but could not be read; keeping the loaded data') : logger.info({ file }, 'IP data reloaded'),
    });
    logger.info({ ...ipData.sources, ms: Date.now() - started }, 'IP data loaded');
    ipIntelligence = ipData;
    closeIpData = ipData.close;
  }
  const ipLists = openIpLists({
    dir: config.ipListsDir,
    onReload: (file, error) =>
      error ? logger.warn({ file, err: error.message }, 'IP list file has lines that are not addresses; they are skipped') : logger.info({ file }, 'IP list reloaded'),
  });
  // The real engine, loaded lazily (its models load on the first analysis or on warmUp); the
  // module itself is only imported when it is configured, so the CLI starts fast.
  const analysis = config.analysisEngine === 'local' && (options.analysis ?? true) ? (await import('./analysis/engine')).makeLocalAnalysisEngine() : undefined;
  const deps: CoreDeps = {
    db,
    clock: systemClock,
    random: systemRandom,
    logger,
    secretBox: makeSecretBox(key, systemRandom),
    ipIntelligence,
    ipLists,
    dataDir: config.dataDir,
    analysis,
    apiKeyCacheTtlMs: config.apiKeyCacheTtlMs,
    publicBaseUrl: options.publicBaseUrl ?? (() => config.publicBaseUrl ?? listenUrl(config.host, config.port)),
  };
  return {
    ...deps,
    services: makeServices(deps),
    warmUp: async () => {
      if (!analysis) return;
      const started = Date.now();
      await analysis.warmUp();
      logger.info({ ms: Date.now() - started }, 'analysis models loaded');
    },
    close: async () => {
      await analysis?.close();
      closeIpData();
      ipLists.close();
      await db.destroy();
    },
  };
}
