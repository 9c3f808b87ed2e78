/**
 * Rules as code (docs/rules.md): a project's rules document, read and replaced (document.ts),
 * drafts proposed and published or rejected by a second person (drafts.ts), and a draft
 * backtested or previewed over the stored evaluations (backtest.ts), a bounded number at once
 * (slots.ts).
 */
import { withDeps } from '../../with-deps';
import { makeBacktest } from './backtest';
import type { RulesDeps } from './deps';
import { current, replace } from './document';
import { createDraft, getDraft, listDrafts, publishDraft, rejectDraft } from './drafts';

export { BACKTEST_LIMIT, BACKTEST_MAX_RANGE_MS, BacktestAbandoned } from './backtest';
export type { BacktestSettings, RulesDeps } from './deps';
export { checkedRules, type RulesView } from './document';
export type { RuleDraftView } from './drafts';
export type { RunningBacktest } from './slots';

export function makeRulesUseCases(deps: RulesDeps) {
  const given = withDeps(deps);
  const backtest = makeBacktest(deps);
  return {
    current: given(current),
    test: backtest.test,
    preview: backtest.preview,
    replace: given(replace),
    createDraft: given(createDraft),
    listDrafts: given(listDrafts),
    getDraft: given(getDraft),
    publishDraft: given(publishDraft),
    rejectDraft: given(rejectDraft),
    /** The backtests running in this process, with their progress. */
    backtests: backtest.running,
  };
}

export type RulesUseCases = ReturnType<typeof makeRulesUseCases>;
