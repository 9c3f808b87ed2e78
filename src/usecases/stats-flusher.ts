/**
 * Writes the overview's counts (GET /stats) that this process's evaluations tallied in memory
 * (domain/stats.ts makeStatsTally): every `intervalMs` (STATS_FLUSH_MS, a timer that never keeps
 * the process alive) and once more when the process stops gracefully (Runtime.close), one
 * additive upsert per flush (repositories/evaluation-counts.ts). Flushes run one after the
 * other; a flush that fails puts its deltas back for the next. A process killed without a
 * graceful stop (SIGKILL, a crash) loses what it tallied since its last flush: the overview may
 * miss up to one interval of its evaluations. Decisions never read these counts.
 */
import type { Logger } from '../logger';
import type { StatsTally } from '../domain/stats';
import type { EvaluationCountRepository } from '../storage/repositories/evaluation-counts';

export interface StatsFlusherDeps {
  tally: StatsTally;
  counts: Pick<EvaluationCountRepository, 'add'>;
  logger: Logger;
}

export function makeStatsFlusher(deps: StatsFlusherDeps) {
  const { tally, counts, logger } = deps;
  let last: Promise<number> = Promise.resolve(0);
  let timer: NodeJS.Timeout | undefined;

  async function write(): Promise<number> {
    const deltas = tally.drain();
    if (deltas.length === 0) return 0;
    try {
      await counts.add(deltas);
      return deltas.length;
    } catch (err) {
      tally.restore(deltas);
      throw err;
    }
  }

  /** Writes what is tallied now (after any flush under way); how many counts it wrote. */
  function flush(): Promise<number> {
    const next = last.catch(() => 0).then(write);
    last = next;
    return next;
  }

  return {
    flush,
    /** Flushes every `intervalMs` until `stop`; a failed flush is logged and retried at the next. */
    start(intervalMs: number): void {
      if (timer) return;
      timer = setInterval(() => {
        flush().catch((err: Error) => logger.error({ err: err.message }, 'overview counts flush failed; retrying'));
      }, intervalMs);
      timer.unref();
    },
    /** Stops the timer and writes what is left (before the database closes). */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      try {
        await flush();
      } catch (err) {
        logger.error({ err: (err as Error).message, lost: tally.size }, 'overview counts not written at shutdown');
      }
    },
  };
}

export type StatsFlusher = ReturnType<typeof makeStatsFlusher>;
