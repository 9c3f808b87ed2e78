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
  fieldReader,
  listsAfterActions,
  NO_RULES,
  RULE_FIELDS,
  type CompiledRules,
  type RuleSubject,
  type RulesOutcome,
} from '../rules';
import type { EvaluationFacts } from './facts';
import { LINK_CAP } from './links';
import type { EvaluationOutcome } from './index';

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

/** What the rules read of an evaluation but its `decision` (a replay recomputes it from the threshold). */
export type ReplayableSubject = Record<string, unknown>;

function setPath(target: Record<string, unknown>, keys: readonly string[], value: unknown): void {
  let at = target;
  for (const key of keys.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
  at[keys[keys.length - 1]!] = value;
}

/**
 * The subject reduced to the fields rules can name (RULE_FIELDS, and the account's metadata),
 * each as the rules read it (a list of linked accounts' match types gathered into one list), but
 * `decision`: every field reads the same from it as from the subject, so a document applied to
 * it matches as it would have matched the evaluation (a backtest, backtest.ts). A fraction of
 * the subject's size (no session facts but those fields).
 */
export function replayableSubject(subject: RuleSubject): ReplayableSubject {
  const out: ReplayableSubject = {};
  for (const field of Object.keys(RULE_FIELDS)) {
    if (field === 'decision') continue;
    const value = fieldReader(field)(subject);
    if (value !== undefined) setPath(out, field.split('.'), value);
  }
  const metadata = subject.account?.account.metadata;
  if (metadata && Object.keys(metadata).length > 0) setPath(out, ['account', 'account', 'metadata'], metadata);
  return out;
}

/** A stored subject with the decision of the scores and lists: what rules read at a replay. */
export function replayedSubject(stored: ReplayableSubject, decision: RuleSubject['decision']): RuleSubject {
  return { ...stored, decision } as unknown as RuleSubject;
}

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
  if (!outcome.account) return { ...outcome, decision, rules: { ...ruled, listActions: [] } };
  return {
    ...outcome,
    decision,
    lists: listsAfterActions(outcome.lists, ruled.listActions),
    account: { ...outcome.account, record: { ...outcome.account.record, decision } },
    rules: ruled,
  };
}
