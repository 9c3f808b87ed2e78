/**
 * The bounds of a backtest (POST /rules/test; docs/rules.md, "What a backtest costs"): how many
 * run at once, how much work and how much time one may take. A backtest replays on the same
 * event loop as every other request of its process, so these are what keep a viewer's draft
 * from starving the others.
 */
import { integer } from './env';

export interface BacktestLimits {
  /** Backtests running at once in this process, of all projects (BACKTEST_CONCURRENCY). */
  concurrency: number;
  /** Backtests of one project running at once in this process (BACKTEST_CONCURRENCY_PER_PROJECT). */
  concurrencyPerProject: number;
  /**
   * Comparisons one backtest may make: its evaluations times the draft's comparisons
   * (BACKTEST_WORK_BUDGET). Past it the backtest stops, `truncated` by `work_budget`.
   */
  workBudget: number;
  /** The longest one backtest replays, in milliseconds (BACKTEST_TIME_MS); past it, `truncated` by `time_budget`. */
  timeBudgetMs: number;
}

export const BACKTEST_DEFAULTS: BacktestLimits = {
  concurrency: 2,
  concurrencyPerProject: 1,
  workBudget: 20_000_000,
  timeBudgetMs: 20_000,
};

export function backtestLimits(env: NodeJS.ProcessEnv): BacktestLimits {
  const d = BACKTEST_DEFAULTS;
  return {
    concurrency: integer(env, 'BACKTEST_CONCURRENCY', d.concurrency, 1, 1000),
    concurrencyPerProject: integer(env, 'BACKTEST_CONCURRENCY_PER_PROJECT', d.concurrencyPerProject, 1, 1000),
    workBudget: integer(env, 'BACKTEST_WORK_BUDGET', d.workBudget, 1000, 1_000_000_000),
    timeBudgetMs: integer(env, 'BACKTEST_TIME_MS', d.timeBudgetMs, 100, 600_000),
  };
}
