/**
 * One server process per core (WEB_CONCURRENCY above 1): the primary forks the workers, which
 * share the listening port (node:cluster hands each new connection to the next worker), and
 * serves nothing itself. A worker that dies after it started listening is replaced; one that
 * dies before (a start-up error, which a replacement would repeat) stops the whole server. On
 * SIGTERM or SIGINT the primary passes SIGTERM to every worker, each finishes its requests and
 * closes as a single server does, and the primary exits when all have (or kills what is left
 * after `shutdownTimeoutMs`).
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from './logger';
import { servePrimaryMetrics } from './telemetry/metrics';

export interface PrimaryOptions {
  workers: number;
  logger: Logger;
  /** Longer than a worker's own shutdown timeout (10 s, main.ts). */
  shutdownTimeoutMs?: number;
  restartDelayMs?: number;
  /** METRICS: a worker's GET /metrics answers every worker's metrics, summed here. */
  metrics?: boolean;
}

export function runPrimary({
  workers,
  logger,
  shutdownTimeoutMs = 15_000,
  restartDelayMs = 1_000,
  metrics = false,
}: PrimaryOptions): void {
  if (metrics) servePrimaryMetrics();
  const live = new Set<Worker>();
  const listened = new Set<Worker>();
  let stopping = false;
  let exitCode = 0;

  const fork = () => live.add(cluster.fork());

  const stop = (reason: string, code: number) => {
    exitCode = Math.max(exitCode, code);
    if (stopping) return;
    stopping = true;
    logger.info({ reason, workers: live.size }, 'stopping the workers');
    for (const worker of live) worker.process.kill('SIGTERM');
    if (live.size === 0) process.exit(exitCode);
    setTimeout(() => {
      for (const worker of live) worker.process.kill('SIGKILL');
      process.exit(1);
    }, shutdownTimeoutMs).unref();
  };

  cluster.on('listening', (worker) => listened.add(worker));
  cluster.on('exit', (worker, code, signal) => {
    live.delete(worker);
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (live.size === 0) {
        logger.info({ code: exitCode }, 'all workers stopped');
        process.exit(exitCode);
      }
      return;
    }
    logger.error({ workerPid: worker.process.pid, code, signal }, 'a worker exited');
    if (!listened.has(worker)) {
      stop('a worker failed to start', 1);
      return;
    }
    listened.delete(worker);
    setTimeout(() => {
      if (!stopping) fork();
    }, restartDelayMs);
  });

  process.on('SIGINT', () => stop('SIGINT', 0));
  process.on('SIGTERM', () => stop('SIGTERM', 0));
  for (let i = 0; i < workers; i++) fork();
  logger.info({ workers }, 'started the workers');
}
