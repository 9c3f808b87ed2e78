/**
 * The worker's jobs (worker.ts schedules them): webhook dispatch, the verification sweep
 * (ending sessions after 30 days) and retention (removing what projects' retention periods make
 * due, usecases/retention.ts). Each claims its own rows under leases, so several workers may
 * run at once.
 *
 * The dispatcher is woken when a webhook is queued: by the use case in its own process, once
 * the transaction has committed (`dispatch.wake`), and on PostgreSQL by the NOTIFY that the
 * queueing transaction sends to every process's LISTEN (composition/listener.ts, which the
 * runtime runs, not the worker: one connection serves the key cache too). Between wakes it
 * polls, every `pollMs` or sooner when the soonest pending webhook (a retry) is due sooner: on
 * SQLite that poll is how a separate worker process learns of webhooks the server queued.
 */
import type { Clock } from '../clock';
import { RETENTION_DEFAULTS, type Config } from '../config';
import type { Logger } from '../logger';
import type { RetentionOptions } from '../usecases/retention';
import { SWEEP_EVERY_MS } from '../usecases/verification/sweep';
import { scaledPolicy, type RetryPolicy } from '../webhooks/backoff';
import { makeDispatcher, type Dispatcher, type DispatcherDeps } from '../webhooks/dispatcher';
import { makeWebhookTransport, type Resolve } from '../webhooks/transport';
import type { Wake } from '../webhooks/wake';
import { runWorker, type Job } from '../worker';

/** What the jobs run: narrow functions of the use cases, built by makeServices. */
export interface JobDeps {
  /** Delivering webhooks: the outbox, each project's target, a body as sent now, and this process's wake. */
  dispatch: Pick<DispatcherDeps, 'outbox' | 'target' | 'render' | 'metrics'> & { wake: Wake };
  /** Ends the verification sessions past their 30 days; resolves to how many it ended. */
  sweep(): Promise<number>;
  /** One retention pass (batches of `batchSize`, stopping between them once `signal` aborts). */
  retain(options: RetentionOptions): Promise<unknown>;
}

export interface WorkerSettings {
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
  /** Webhooks one claim takes and posts at once. */
  batch?: number;
}

/** The fallback poll's default (see WorkerSettings.pollMs). */
export const DEFAULT_POLL_MS = 1000;

/** The worker's settings from the configuration. */
export function workerSettings(
  config: Pick<
    Config,
    | 'webhookAllowPrivate'
    | 'webhookLeaseMs'
    | 'webhookRetryScale'
    | 'webhookPollMs'
    | 'webhookBatch'
    | 'retentionIntervalMs'
    | 'retentionBatch'
  >,
): WorkerSettings {
  return {
    allowPrivate: config.webhookAllowPrivate,
    leaseMs: config.webhookLeaseMs,
    policy: scaledPolicy(config.webhookRetryScale),
    pollMs: config.webhookPollMs,
    batch: config.webhookBatch,
    retentionEveryMs: config.retentionIntervalMs,
    retentionBatch: config.retentionBatch,
  };
}

/** The jobs over `deps`, with `dispatcher` delivering. */
export function workerJobs(deps: JobDeps, dispatcher: Dispatcher, settings: WorkerSettings, logger: Logger): Job[] {
  const { wake } = deps.dispatch;
  return [
    {
      name: 'webhook dispatcher',
      run: () => dispatcher.drain(),
      everyMs: settings.pollMs ?? DEFAULT_POLL_MS,
      wake,
      failed: 'webhook dispatcher failed; retrying',
      idle: { worker: dispatcher.worker },
    },
    {
      name: 'verification sweeper',
      run: async () => {
        const ended = await deps.sweep();
        if (ended > 0) logger.info({ ended }, 'verification sessions ended after 30 days');
      },
      everyMs: settings.sweepEveryMs ?? SWEEP_EVERY_MS,
      failed: 'verification sweeper failed; retrying',
    },
    {
      name: 'retention',
      run: async (signal) => {
        await deps.retain({ batchSize: settings.retentionBatch, signal });
      },
      everyMs: settings.retentionEveryMs ?? RETENTION_DEFAULTS.intervalMs,
      failed: 'retention pass failed; retrying at the next one',
    },
  ];
}

/** Runs the worker's jobs until `signal` aborts: what the server runs inline and `trustgate worker` alone. */
export async function startWorker(
  deps: JobDeps & { clock: Clock; logger: Logger },
  settings: WorkerSettings,
  signal: AbortSignal,
): Promise<void> {
  const { clock, logger } = deps;
  const transport = makeWebhookTransport({ allowPrivate: settings.allowPrivate, resolve: settings.resolve });
  const dispatcher = makeDispatcher({
    ...deps.dispatch,
    clock,
    random: Math.random,
    logger,
    post: transport.post,
    leaseMs: settings.leaseMs,
    policy: settings.policy,
    batch: settings.batch,
  });
  logger.info({ worker: dispatcher.worker }, 'webhook worker started');
  try {
    await runWorker(workerJobs(deps, dispatcher, settings, logger), logger, signal);
  } finally {
    transport.close();
  }
}
