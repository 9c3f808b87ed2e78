/**
 * Rules as code (docs/rules.md): a project's rules document, read and replaced (document.ts),
 * and a draft backtested over the stored evaluations (backtest.ts), a bounded number at once
 * (slots.ts).
 */
import { withDeps } from '../../with-deps';
import { makeBacktest } from './backtest';
import type { RulesDeps } from './deps';
import { current, replace } from './document';

export { BACKTEST_LIMIT, BACKTEST_MAX_RANGE_MS, BacktestAbandoned } from './backtest';
export type { BacktestSettings, RulesDeps } from './deps';
export { checkedRules, type RulesView } from './document';
export type { RunningBacktest } from './slots';

export function makeRulesUseCases(deps: RulesDeps) {
  const given = withDeps(deps);
  const backtest = makeBacktest(deps);
  return {
    current: given(current),
    test: backtest.test,
    replace: given(replace),
    /** The backtests running in this process, with their progress. */
    backtests: backtest.running,
  };
}

export type RulesUseCases = ReturnType<typeof makeRulesUseCases>;
