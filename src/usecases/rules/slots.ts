/**
 * The places for backtests in this process: at most `perProject` of one project and `total` of
 * all projects run at once. One more is refused (429) rather than queued: a queued backtest would
 * hold its client and its place in line for as long as those before it ran, and a viewer who
 * retries would only lengthen the line. The refusal says when a place is sure to be free: the
 * soonest deadline among the backtests in the way (each stops at its deadline).
 */
import { TooManyRequestsError } from '../../errors';

/** One backtest running: what a test or an operator can watch of it. */
export interface RunningBacktest {
  projectId: string;
  requestId: string;
  /** When it stops, replayed or not (its time budget). */
  deadline: Date;
  /** Evaluations replayed so far. */
  replayed: number;
}

export function makeBacktestSlots(limits: { perProject: number; total: number }) {
  const running = new Set<RunningBacktest>();
  const refuse = (inTheWay: RunningBacktest[], now: Date, what: string) => {
    const soonest = Math.min(...inTheWay.map((b) => b.deadline.getTime()));
    const seconds = Math.max(1, Math.ceil((soonest - now.getTime()) / 1000));
    return new TooManyRequestsError(`${what}; retry after ${seconds} seconds`, seconds);
  };
  return {
    /** A place for the backtest, or a 429 naming which limit is full. */
    take(projectId: string, requestId: string, now: Date, deadline: Date): RunningBacktest {
      const all = [...running];
      const own = all.filter((b) => b.projectId === projectId);
      if (own.length >= limits.perProject)
        throw refuse(
          own,
          now,
          `${own.length} backtest(s) of this project are running (BACKTEST_CONCURRENCY_PER_PROJECT)`,
        );
      if (all.length >= limits.total)
        throw refuse(all, now, `${all.length} backtest(s) are running on this server (BACKTEST_CONCURRENCY)`);
      const b: RunningBacktest = { projectId, requestId, deadline, replayed: 0 };
      running.add(b);
      return b;
    },
    release(b: RunningBacktest): void {
      running.delete(b);
    },
    /** The backtests running now, each with its progress. */
    running(): readonly RunningBacktest[] {
      return [...running].map((b) => ({ ...b }));
    },
  };
}

export type BacktestSlots = ReturnType<typeof makeBacktestSlots>;
