/**
 * The composition root: the one place the object graph is built. `makeServices` wires the
 * repositories (composition/repositories.ts), the use cases per area (composition/usecases.ts)
 * and what the worker's jobs run over the edge dependencies (composition/edges.ts: the
 * database, the clock, the secret box, the IP data, …); `makeRuntime` opens the real edges from
 * the configuration (composition/open.ts) and composes them. The server (main.ts), the CLI, the
 * tests and the benchmarks all build through these two functions. Each consumer declares what
 * it takes of what they build, and takes no more: `createApp` its `AppServices` (app.ts), the
 * CLI's commands their `CommandDeps` (cli/command.ts), the worker its jobs (composition/jobs.ts).
 */
import type { Config } from './config';
import { makeLogger, type Logger } from './logger';
import { migrate } from './storage/db';
import type { Outbox } from './webhooks/outbox';
import { makeRetention } from './usecases/retention';
import { makeStatsFlusher } from './usecases/stats-flusher';
import { makeTestEventSender, type TestEventResult } from './webhooks/test-event';
import { makeWebhookTransport } from './webhooks/transport';
import { withDefaults, type CoreDeps, type EdgeDeps } from './composition/edges';
import { startWorker, workerSettings, type WorkerSettings } from './composition/jobs';
import { listenForChanges } from './composition/listener';
import { openDatabase, openEdges, type OpenOptions } from './composition/open';
import { makeRepositories } from './composition/repositories';
import {
  accountUseCases,
  analysisOf,
  evaluationUseCases,
  ingestOf,
  jobDeps,
  makeParts,
  projectUseCases,
  readinessOf,
  verificationUseCases,
  watchTelemetry,
  webhookDeliveriesOf,
} from './composition/usecases';

export { NO_IP_DATA, NO_IP_LISTS, type CoreDeps, type EdgeDeps } from './composition/edges';
export { openDatabase } from './composition/open';

export function makeServices(edges: EdgeDeps) {
  const deps = withDefaults(edges);
  const repos = makeRepositories(deps.db, deps.secretBox);
  const parts = makeParts(deps, repos);
  const statsFlusher = makeStatsFlusher({
    tally: parts.statsTally,
    counts: repos.evaluationCounts,
    logger: deps.logger,
  });
  const evaluation = evaluationUseCases(parts);
  watchTelemetry(parts);
  const analysis = analysisOf(parts);
  const { projects, rules, operators } = projectUseCases(parts);
  const verification = verificationUseCases(parts, evaluation, analysis);
  const retention = makeRetention({ ...deps, ...repos, media: parts.media, metrics: deps.metrics?.retention });
  const readiness = readinessOf(parts);
  return {
    /** The edge dependencies the services were built on (defaults filled in). */
    edges: deps,
    /** GET /readyz's checks; the server tells it when it stops. */
    readiness,
    /** Loads the analysis models ahead of the first verification; /readyz is not ready until they are. */
    warmUp: () => readiness.modelsLoading(analysis?.warmUp?.() ?? Promise.resolve()),
    /** Every repository: for tests and benchmarks; the HTTP floor and the CLI take the named ports below. */
    repos,
    /** The rate limits' counters in the database (RATE_LIMIT_STORE=database). */
    rateLimitCounters: repos.rateLimits,
    /** Whether a project of this id exists (the CLI's check before a command about it). */
    projectExists: async (projectId: string) => (await repos.projects.findById(projectId)) !== undefined,
    /** The outbox as `trustgate webhooks list` reads it: every project's webhooks and their attempts. */
    webhookLog: repos.outbox as Pick<Outbox, 'list' | 'attempts'>,
    projects,
    rules,
    operators,
    evaluation,
    statsFlusher,
    ...accountUseCases(parts, evaluation, verification),
    webhookDeliveries: webhookDeliveriesOf(parts),
    ingest: ingestOf(parts),
    verification,
    retention,
    mediaUrls: parts.mediaUrls,
    /** PostgreSQL: this node's images from before they were shared, moved into the table (main.ts, at start). */
    importLocalMedia: parts.importLocalMedia,
    /** What the worker's jobs run (composition/jobs.ts). */
    jobs: jobDeps(parts, projects, verification, retention),
  };
}

/** Everything makeServices builds: the tests' and the benchmarks' view; the server's consumers each take a part. */
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

export interface RuntimeOptions extends OpenOptions {
  /** Run the migrations first (default true); a cluster's workers skip them. */
  migrate?: boolean;
  /**
   * On PostgreSQL, LISTEN for queued webhooks and changed projects (composition/listener.ts;
   * default true): every process that serves or delivers does. False for one that does neither
   * (a one-shot CLI command, the cluster primary's preparation): no connection of its own.
   */
  listen?: boolean;
}

/**
 * The real edge dependencies from the configuration (the database, migrated; the secret box;
 * the IP data and lists; the analysis engine), composed: how the server and the CLI start.
 */
export async function makeRuntime(
  config: Config,
  logger: Logger = makeLogger(config.logLevel),
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const db = openDatabase(config, logger);
  // A cluster's workers skip it: the primary migrated before starting them (knex takes a lock
  // even when nothing is pending, and N workers would contend for it).
  let edges: Awaited<ReturnType<typeof openEdges>>;
  try {
    if (options.migrate ?? true) await migrate(db);
    edges = await openEdges(config, logger, db, options);
  } catch (err) {
    // A node that may not start (its secret key cannot open the database's) leaves no pool open behind it.
    await db.destroy();
    throw err;
  }
  const { deps } = edges;
  const services = makeServices(deps);
  services.statsFlusher.start(config.statsFlushMs);
  const stopListening = new AbortController();
  const listening =
    config.databaseUrl && (options.listen ?? true)
      ? listenForChanges(
          { wake: services.jobs.dispatch.wake, projects: services.projects },
          { connectionString: config.databaseUrl, logger },
          stopListening.signal,
        )
      : Promise.resolve();
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
      if (!deps.analysis) return;
      const started = Date.now();
      await services.warmUp();
      logger.info({ ms: Date.now() - started }, 'analysis models loaded');
    },
    close: async () => {
      stopListening.abort();
      await listening;
      // What this process's evaluations tallied for the overview, written before the database closes.
      await services.statsFlusher.stop();
      await edges.close();
      await db.destroy();
    },
  };
}
