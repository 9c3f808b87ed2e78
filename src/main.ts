/**
 * The server's entry point: the only place that reads the environment (through config.ts),
 * starts the runtime (composition.ts: the real dependencies, composed) and listens.
 *
 * With WEB_CONCURRENCY above 1 this process becomes a cluster primary (cluster.ts): it runs
 * the migrations and creates the default project (and the demo's) once, then starts the
 * workers, each of which serves as a single server does, without migrating.
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import os from 'node:os';
import type http from 'node:http';
import path from 'node:path';
import { createApp } from './app';
import { createHttpServer } from './http/server';
import { runPrimary } from './cluster';
import { makeRuntime, type Runtime } from './composition';
import { staleDataWarnings } from './geo/data-age';
import { databaseLocation, listenUrl, loadConfig, type Config } from './config';
import { makeLogger, type Logger } from './logger';
import type { ProjectUseCases } from './usecases/projects';

/** Where the default project's credentials go when stdout is not a terminal. */
const DEFAULT_PROJECT_FILE = 'default-project.json';

/**
 * Creates the default project when there is none and hands its credentials over once (the key
 * and secret are not stored in the clear and cannot be shown again). On a terminal they are
 * printed. Otherwise stdout is where the JSON logs go, which a log shipper stores: they are
 * written to `DATA_DIR/default-project.json` (mode 0600, through a new file renamed into
 * place) and only that path is logged.
 */
async function ensureDefaultProject(
  projects: Pick<ProjectUseCases, 'ensureDefault'>,
  config: Config,
  logger: Logger,
): Promise<void> {
  const created = await projects.ensureDefault();
  if (!created) return;
  if (process.stdout.isTTY) {
    process.stdout.write(
      [
        '',
        'Created a default project. Keep these; they are not shown again:',
        `  project_id:     ${created.project_id}`,
        `  api_key:        ${created.api_key}`,
        `  webhook_secret: ${created.webhook_secret}`,
        '',
        '',
      ].join('\n'),
    );
    return;
  }
  const file = path.join(config.dataDir, DEFAULT_PROJECT_FILE);
  const fresh = `${file}.${process.pid}.tmp`;
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const { project_id, api_key, webhook_secret } = created;
  fs.writeFileSync(fresh, `${JSON.stringify({ project_id, api_key, webhook_secret }, null, 2)}\n`, {
    mode: 0o600,
    flag: 'wx',
  });
  fs.renameSync(fresh, file);
  // Several nodes may start at once: one creates the project, and says on which machine its file is.
  logger.warn(
    { projectId: project_id, file, host: os.hostname() },
    'created a default project; its API key and webhook secret are in this file on this host (mode 0600), ' +
      'shown nowhere else: keep them and delete the file',
  );
}

/**
 * PostgreSQL: the images this node kept on its own disk before every node shared the database's
 * (docs/deploy.md, *Where media live*), moved into it before the node serves; nothing after.
 */
async function importNodeMedia(services: Pick<Runtime['services'], 'importLocalMedia'>, logger: Logger) {
  const moved = await services.importLocalMedia();
  if (moved && moved.imported + moved.removed > 0)
    logger.info(moved, "moved this node's media files into the database (erased images' files removed)");
}

/** The cluster primary's one-time work before the workers start; it keeps nothing open. */
async function prepare(config: Config, logger: Logger): Promise<void> {
  const runtime = await makeRuntime(config, logger, {
    ipData: false,
    analysis: false,
    telemetry: false,
    listen: false,
  });
  try {
    await importNodeMedia(runtime.services, logger);
    await ensureDefaultProject(runtime.services.projects, config, logger);
    // Created on first use otherwise: by two workers at once, it could be created twice.
    if (config.demo) await runtime.services.projects.ensureDemo();
  } finally {
    await runtime.close();
  }
}

/**
 * What to tell the operator when the server cannot bind its address: the port or host and
 * the setting that changes it.
 */
function listenFailure(err: NodeJS.ErrnoException, host: string, port: number): string {
  switch (err.code) {
    case 'EADDRINUSE':
      return (
        `port ${port} is already in use on ${host} (another Trustgate or another program listens there): ` +
        'stop it, or set PORT to a free port'
      );
    case 'EACCES':
      return `port ${port} on ${host} needs privileges this process does not have: set PORT to a port above 1023`;
    case 'EADDRNOTAVAIL':
      return `HOST ${host} is not an address of this machine: set HOST to one of its addresses (0.0.0.0: all of them)`;
    default:
      return `cannot listen on ${host} port ${port} (${err.message}): check PORT and HOST`;
  }
}

/**
 * Binds the server to PORT and HOST; resolves with the port bound (PORT=0 picks one), rejects
 * with listenFailure's message. In a cluster's worker the primary binds, and the worker gets
 * its error the same way.
 */
function listen(server: http.Server, config: Config): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => reject(new Error(listenFailure(err, config.host, config.port)));
    server.once('error', failed);
    server.listen(config.port, config.host, () => {
      server.off('error', failed);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : config.port);
    });
  });
}

/** A warning for each stale IP list and for the published lists never synced (`trustgate iplist sync`). */
function warnOfStaleData(runtime: Runtime, config: Config, logger: Logger): void {
  if (!runtime.networkData) return;
  const health = runtime.networkData.health(runtime.clock.now());
  for (const w of staleDataWarnings(health, Object.keys(config.ipListSources), config.ipListStaleDays)) {
    logger.warn(w.fields, w.msg);
  }
}

async function serve(config: Config, logger: Logger): Promise<void> {
  // The port actually bound (PORT=0 picks one), for the default public base URL.
  let boundPort = config.port;
  const publicBaseUrl = () => config.publicBaseUrl ?? listenUrl(config.host, boundPort);
  const runtime = await makeRuntime(config, logger, { migrate: !cluster.isWorker, publicBaseUrl });
  if (!cluster.isWorker) {
    await importNodeMedia(runtime.services, logger);
    await ensureDefaultProject(runtime.services.projects, config, logger);
  }
  // Once per installation: the primary, or a cluster's first worker.
  if (!cluster.isWorker || cluster.worker?.id === 1) warnOfStaleData(runtime, config, logger);

  const app = createApp({ config, services: runtime.services });
  const server = createHttpServer(app, { logger });
  // Bound before anything else starts: a port in use stops the process here, with no webhook
  // worker running on the shared database for a server that answers nothing.
  try {
    boundPort = await listen(server, config);
  } catch (err) {
    await runtime.close();
    throw err;
  }
  logger.info(
    {
      port: boundPort,
      publicBaseUrl: publicBaseUrl(),
      database: databaseLocation(config),
      validateResponses: config.validateResponses,
    },
    'listening',
  );

  // The models load in the background; a verification completed before they are ready waits for them.
  runtime
    .warmUp()
    .catch((err) =>
      logger.error(
        { err: (err as Error).message },
        'the analysis models could not be loaded; completing a verification will try again',
      ),
    );
  const stopWorker = new AbortController();
  // In every worker of a cluster too: claims are leased, so the dispatchers share the outbox safely.
  const worker = config.webhookWorker === 'inline' ? runtime.startWorker(stopWorker.signal) : Promise.resolve();

  let stopping = false;
  const shutdown = (signal: string) => {
    // A cluster's worker may get the signal twice: from the terminal's process group and from the primary.
    if (stopping) return;
    stopping = true;
    // GET /readyz answers 503 from now on, to a load balancer still asking on an open connection.
    runtime.services.readiness.stopping();
    stopWorker.abort();
    // Drains: no new connections; the requests under way are answered, and each keep-alive
    // connection is closed as soon as it has no request in flight.
    server.close(() => {
      clearInterval(closingIdle);
      worker.then(() => runtime.close()).finally(() => process.exit(0));
    });
    const closingIdle = setInterval(() => server.closeIdleConnections(), 100);
    // Logged once the listener is closed: whoever reads the line finds new connections refused.
    logger.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = makeLogger(config.logLevel);
  if (cluster.isPrimary && config.webConcurrency > 1) {
    await prepare(config, logger);
    runPrimary({ workers: config.webConcurrency, logger, metrics: config.metrics });
    return;
  }
  await serve(config, logger);
}

main().catch((err) => {
  console.error(`trustgate: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
