/**
 * The worker: three jobs, the dispatcher (delivering due webhooks), the verification sweeper
 * (ending verification sessions after 30 days) and retention (removing what projects' retention
 * periods make due, usecases/retention.ts), run inside the server by default or on their own by
 * `trustgate worker`. Several workers may run at once: claims are leased. It takes the
 * narrow functions it runs (`WorkerJobs`, built by the composition root), not the services.
 *
 * The dispatcher is woken when a webhook is queued: by the use case in its own process, once
 * the transaction has committed (`jobs.dispatch.wake`), and on PostgreSQL by the NOTIFY that
 * the queueing transaction sends to every worker's LISTEN (listener.ts). Between wakes it
 * polls, every `pollMs` or sooner when the soonest pending webhook (a retry) is due sooner: on
 * SQLite that poll is how a separate worker process learns of webhooks the server queued.
 */
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { RetentionOptions } from '../usecases/retention';
import { runRetention } from '../usecases/retention';
import { runSweeper } from '../usecases/verification/sweeper';
import { REFERENCE_RETRY_POLICY, type RetryPolicy } from './backoff';
import { makeDispatcher, type Dispatcher, type DispatcherDeps } from './dispatcher';
import { listenForWebhooks } from './listener';
import { makeWebhookTransport, type Resolve } from './transport';
import type { Wake } from './wake';

/** What the worker runs. */
export interface WorkerJobs {
  /** Delivering webhooks: the outbox, each project's target, a body as sent now, and this process's wake. */
  dispatch: Pick<DispatcherDeps, 'outbox' | 'target' | 'render' | 'metrics'> & { wake: Wake };
  /** Ends the verification sessions past their 30 days; resolves to how many it ended. */
  sweep(): Promise<number>;
  /** One retention pass (batches of `batchSize`, stopping between them once `signal` aborts). */
  retain(options: RetentionOptions): Promise<unknown>;
}

export interface WorkerDeps {
  jobs: WorkerJobs;
  clock: Clock;
  logger: Logger;
  /** WEBHOOK_ALLOW_PRIVATE: deliver to private, loopback and link-local addresses (never to metadata services). */
  allowPrivate: boolean;
  /** Host names to addresses; the system's resolver unless given (tests). */
  resolve?: Resolve;
  leaseMs?: number;
  policy?: RetryPolicy;
  /** The fallback poll: the longest the dispatcher sleeps without a wake. */
  pollMs?: number;
  sweepEveryMs?: number;
  /** How often a retention pass runs (RETENTION_INTERVAL_MS), and its batch size (RETENTION_BATCH). */
  retentionEveryMs?: number;
  retentionBatch?: number;
  /** PostgreSQL's URL: the worker LISTENs on a connection of its own. Unset (SQLite): no listener. */
  databaseUrl?: string;
  /** Webhooks one claim takes and posts at once. */
  batch?: number;
}

/** The fallback poll's default (see WorkerDeps.pollMs). */
export const DEFAULT_POLL_MS = 1000;

/** The reference schedule with every wait multiplied by `scale`. */
export function scaledPolicy(scale: number, base: RetryPolicy = REFERENCE_RETRY_POLICY): RetryPolicy {
  if (scale === 1) return base;
  return {
    ...base,
    delaysMs: base.delaysMs.map((d) => d * scale),
    repeatMs: base.repeatMs * scale,
    maxAgeMs: base.maxAgeMs * scale,
  };
}

/** The worker's settings from the configuration. */
export function workerSettings(
  config: Pick<
    Config,
    | 'webhookAllowPrivate'
    | 'webhookLeaseMs'
    | 'webhookRetryScale'
    | 'webhookPollMs'
    | 'webhookBatch'
    | 'databaseUrl'
    | 'retentionIntervalMs'
    | 'retentionBatch'
  >,
) {
  return {
    allowPrivate: config.webhookAllowPrivate,
    leaseMs: config.webhookLeaseMs,
    policy: scaledPolicy(config.webhookRetryScale),
    pollMs: config.webhookPollMs,
    batch: config.webhookBatch,
    databaseUrl: config.databaseUrl,
    retentionEveryMs: config.retentionIntervalMs,
    retentionBatch: config.retentionBatch,
  };
}

export function makeWebhookWorker(deps: WorkerDeps): {
  dispatcher: Dispatcher;
  start(signal: AbortSignal): Promise<void>;
} {
  const { jobs, clock, logger } = deps;
  const transport = makeWebhookTransport({ allowPrivate: deps.allowPrivate, resolve: deps.resolve });
  const dispatcher = makeDispatcher({
    ...jobs.dispatch,
    clock,
    random: Math.random,
    logger,
    post: transport.post,
    leaseMs: deps.leaseMs,
    policy: deps.policy,
    batch: deps.batch,
  });

  return {
    dispatcher,
    async start(signal) {
      logger.info({ worker: dispatcher.worker }, 'webhook worker started');
      const { databaseUrl } = deps;
      try {
        await Promise.all([
          dispatcher.start(signal, deps.pollMs ?? DEFAULT_POLL_MS),
          runSweeper({ sweep: jobs.sweep, logger, everyMs: deps.sweepEveryMs }, signal),
          runRetention(
            {
              retain: (s) => jobs.retain({ batchSize: deps.retentionBatch, signal: s }),
              logger,
              everyMs: deps.retentionEveryMs,
            },
            signal,
          ),
          databaseUrl
            ? listenForWebhooks({ connectionString: databaseUrl, logger, onNotify: jobs.dispatch.wake.wake }, signal)
            : undefined,
        ]);
      } finally {
        transport.close();
      }
    },
  };
}
