/**
 * The worker: schedules the background jobs it is given, each in a loop of its own until the
 * signal aborts. It knows no job by name: the composition root builds the list (composition/
 * jobs.ts: webhook dispatch, its PostgreSQL listener, the verification sweep, retention), and
 * the server runs it inside its process or `trustgate worker` on its own.
 *
 * A job runs a pass, then waits `everyMs`, or less when the pass says its next work is due
 * sooner, or until its wake (wake.ts) ends the wait; a failed pass is logged and run again after
 * the wait. A job without `everyMs` runs once, for as long as the signal lets it (a listener).
 * Several workers may run at once over one database: the jobs claim their rows under leases
 * themselves (webhooks/outbox.ts), so the worker holds no lock of its own.
 */
import type { Logger } from './logger';
import { trackLoop } from './loops';
import { makeWake, type Wake } from './webhooks/wake';

export interface Job {
  /** The job's name: its background loop's (loops.ts) and the start of its idle line. */
  name: string;
  /** One pass; may resolve to the milliseconds until it has work again, when that is sooner than `everyMs`. */
  run(signal: AbortSignal): Promise<number | undefined | void>;
  /** The longest wait between two passes; without it, `run` is called once and lasts until the signal aborts. */
  everyMs?: number;
  /** What ends a wait early (a webhook was queued); a wake that comes during a pass ends the next wait at once. */
  wake?: Wake;
  /** The error line a failed pass logs. */
  failed: string;
  /** When given, a debug line `<name> idle` with these fields and the wait, before each wait with no wake pending. */
  idle?: Record<string, unknown>;
}

/** Runs every job until `signal` aborts; resolves once each has stopped. Errors are logged, never thrown. */
export async function runWorker(jobs: readonly Job[], logger: Logger, signal: AbortSignal): Promise<void> {
  await Promise.all(jobs.map((job) => schedule(job, logger, signal)));
}

function schedule(job: Job, logger: Logger, signal: AbortSignal): Promise<void> {
  const pass = async (): Promise<number | undefined> => {
    try {
      return (await job.run(signal)) ?? undefined;
    } catch (err) {
      logger.error({ err: (err as Error).message }, job.failed);
      return undefined;
    }
  };
  const { everyMs } = job;
  if (everyMs === undefined) return trackLoop(job.name, async () => void (await pass()));
  const wake = job.wake ?? makeWake();
  return trackLoop(job.name, async () => {
    while (!signal.aborted) {
      const dueInMs = await pass();
      const waitMs = dueInMs === undefined ? everyMs : Math.max(0, Math.min(everyMs, dueInMs));
      if (job.idle && !wake.pending) logger.debug({ ...job.idle, sleepMs: waitMs }, `${job.name} idle`);
      await wake.sleep(waitMs, signal);
    }
  });
}
