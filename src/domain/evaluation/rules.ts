/**
 * The project's rules applied to a scored evaluation (docs/rules.md), last step of the pure
 * evaluation: the rules read the evaluation as the response will give it (scores rounded as
 * returned, the decision of the scores and lists), and may set the decision, change the
 * account's lists and tag the evaluation. The `allow` and `block` lists keep their word: on an
 * account (or, unauthenticated, a session's account) on one of them, a rule's decision is not
 * taken (the rule still matches, its other actions apply). Unauthenticated has no account:
 * the list actions do nothing there.
 */
import type { EvaluationRules } from '../../api-types';
import { round3 } from '../numbers';
import {
  applyRules,
  listsAfterActions,
  NO_RULES,
  type CompiledRules,
  type RuleSubject,
  type RulesOutcome,
} from '../rules';
import type { EvaluationFacts } from './facts';
import { LINK_CAP } from './links';
import type { EvaluationOutcome } from './outcome';

/** What the rules did, as responses give it, sessions and receipts keep it. */
export const rulesView = (r: RulesOutcome): EvaluationRules => ({
  version: r.version,
  matched: r.matched,
  decided_by: r.decidedBy ?? null,
  tags: r.tags,
});

/** The lists whose decision no rule overrides. */
const DECIDING_LISTS = ['allow', 'block'];

/** Whether the lists keep their word over a rule's decision (`allow` or `block`). */
export const listsDecide = (lists: readonly string[]): boolean => lists.some((l) => DECIDING_LISTS.includes(l));

/** The rules' outcome on a subject, and the decision it comes to (the lists keep their word). */
export function decidedWithRules(rules: CompiledRules, subject: RuleSubject, lists: readonly string[]) {
  const applied = applyRules(rules, subject);
  const ruled: RulesOutcome = listsDecide(lists) ? { ...applied, decision: undefined, decidedBy: undefined } : applied;
  return { ruled, decision: ruled.decision ?? subject.decision };
}

/** The evaluation as the rules read it: the response's shape. */
export function ruleSubject(facts: EvaluationFacts, outcome: Omit<EvaluationOutcome, 'rules'>): RuleSubject {
  return {
    decision: outcome.decision,
    account_score: round3(outcome.scores.account_score),
    bot: round3(outcome.scores.bot),
    multiple_accounts: round3(outcome.scores.multiple_accounts),
    risk_signals: round3(outcome.scores.risk_signals),
    accounts_linked: Math.min(outcome.links.length, LINK_CAP),
    lists: outcome.lists,
    session: { ...facts.session.facts, ...outcome.signals },
    ...(outcome.account ? { account: outcome.account.details } : {}),
    linked_accounts: outcome.links.map((l) => ({
      account_id: l.accountId,
      score: round3(l.score),
      match_type: l.matchTypes,
    })),
  };
}

/** The outcome with the rules applied (without rules: unchanged, and an empty record of them). */
export function withRules(facts: EvaluationFacts, outcome: Omit<EvaluationOutcome, 'rules'>): EvaluationOutcome {
  const rules = facts.rules ?? NO_RULES;
  if (rules.rules.length === 0)
    return { ...outcome, rules: { version: rules.version, matched: [], listActions: [], tags: [] } };
  const { ruled, decision } = decidedWithRules(rules, ruleSubject(facts, outcome), outcome.lists);
  // Without an account, the account's actions (lists, a case) have nothing to act on.
  if (!outcome.account) {
    const { openCase: _none, ...unauthenticated } = ruled;
    return { ...outcome, decision, rules: { ...unauthenticated, listActions: [] } };
  }
  return {
    ...outcome,
    decision,
    lists: listsAfterActions(outcome.lists, ruled.listActions),
    account: { ...outcome.account, record: { ...outcome.account.record, decision } },
    rules: ruled,
  };
}
