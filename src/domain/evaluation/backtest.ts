/**
 * A backtest (`POST /rules/test`, docs/rules.md "Backtest"): a draft rules document and
 * threshold replayed over stored evaluations. Exact, because evaluation is pure and each
 * receipt keeps what the draft needs: the unrounded account score and the lists (the decision
 * of the scores at any threshold), and what rules read of the evaluation (`replayableSubject`,
 * every field a rule can name). Replaying the document and threshold an evaluation had gives
 * its decision back. Pure: the labels come in as an argument (absent until they are kept).
 */
import type { Decision, DecisionSource, EvaluationReceipt, LabelValue, RulesTestResult } from '../../api-types';
import { addToReport, confusionRow, emptyReport, type LabelledEvaluation } from '../labels/report';
import type { CompiledRules } from '../rules';
import { decide } from '../scoring';
import { decidingList } from './receipt';
import { decidedWithRules, replayedSubject, type ReplayableSubject } from './rules';

/** One stored evaluation: its receipt and what its rules read. */
export interface ReplayableEvaluation {
  receipt: EvaluationReceipt;
  subject: ReplayableSubject;
}

/** The decision a document and threshold come to on one stored evaluation, and what set it. */
export function replay(
  e: ReplayableEvaluation,
  rules: CompiledRules,
  threshold: number,
): { decision: Decision; decidedBy: DecisionSource; matched: string[] } {
  const r = e.receipt;
  const lists = r.inputs.lists;
  const byScores = decide(r.breakdown.account_score.value, threshold, lists);
  const list = decidingList(lists);
  const { ruled, decision } = decidedWithRules(rules, replayedSubject(e.subject, byScores), lists);
  // A test project's forced outcome: its scores and the lists it was decided on, not the rules (domain/test-mode).
  if (r.decided_by.source === 'test_mode') {
    const forced = decide(r.breakdown.account_score.value, threshold, r.decided_by.list ? [r.decided_by.list] : []);
    return { decision: forced, decidedBy: r.decided_by, matched: ruled.matched };
  }
  const decidedBy: DecisionSource = ruled.decidedBy
    ? { source: 'rule', list: null, rule: ruled.decidedBy }
    : list
      ? { source: 'list', list, rule: null }
      : { source: 'threshold', list: null, rule: null };
  return { decision, decidedBy, matched: ruled.matched };
}

/** The labelled evaluations' confusion counts (domain/labels/report.ts): the decisions' row and each rule's, by name. */
function confusion(evaluations: readonly LabelledEvaluation[]) {
  const acc = addToReport(emptyReport([]), evaluations, []);
  return { decision: confusionRow(acc.decision), rules: acc.rules, fraud: acc.fraud, legit: acc.legit };
}

/**
 * The draft over the evaluations (newest first): how many decisions change and which way,
 * the newest `maxExamples` changes, each rule's matches and decisions, and with labels (by
 * account id) precision and recall of the current decisions, the draft's and each rule's.
 */
export function backtest(
  evaluations: readonly ReplayableEvaluation[],
  draft: CompiledRules,
  draftThreshold: number | undefined,
  labelsByAccount?: ReadonlyMap<string, LabelValue>,
  maxExamples = 10,
): Omit<RulesTestResult, 'request_id' | 'truncated'> {
  const perRule = new Map(draft.rules.map((r) => [r.id, { id: r.id, matched: 0, decided: 0 }]));
  const examples: RulesTestResult['examples'] = [];
  const labelled: { before: Decision; after: Decision; matched: string[]; label: LabelValue; score: number }[] = [];
  let toFake = 0;
  let toReal = 0;
  for (const e of evaluations) {
    const r = e.receipt;
    const after = replay(e, draft, draftThreshold ?? r.threshold);
    for (const id of after.matched) perRule.get(id)!.matched++;
    if (after.decidedBy.rule) perRule.get(after.decidedBy.rule)!.decided++;
    if (after.decision !== r.decision) {
      if (after.decision === 'Fake') toFake++;
      else toReal++;
      if (examples.length < maxExamples)
        examples.push({
          request_id: r.request_id,
          session_id: r.session_id,
          account_id: r.account_id,
          created_at: r.created_at,
          before: r.decision,
          after: after.decision,
          decided_by: after.decidedBy,
        });
    }
    const label = r.account_id !== null ? labelsByAccount?.get(r.account_id) : undefined;
    if (label)
      labelled.push({
        before: r.decision,
        after: after.decision,
        matched: after.matched,
        label,
        score: r.breakdown.account_score.value,
      });
  }
  return {
    evaluations: evaluations.length,
    changed: toFake + toReal,
    to_fake: toFake,
    to_real: toReal,
    examples,
    rules: [...perRule.values()],
    labels: labelled.length > 0 ? labelsOf(labelled, draft) : null,
  };
}

/** The current decisions', the draft's and each draft rule's counts against the labels. */
function labelsOf(
  labelled: readonly { before: Decision; after: Decision; matched: string[]; label: LabelValue; score: number }[],
  draft: CompiledRules,
): NonNullable<RulesTestResult['labels']> {
  const current = confusion(labelled.map((l) => ({ label: l.label, accountScore: l.score, decision: l.before })));
  const drafted = confusion(
    labelled.map((l) => ({ label: l.label, accountScore: l.score, decision: l.after, rules: l.matched })),
  );
  return {
    labelled: labelled.length,
    current: current.decision,
    draft: drafted.decision,
    rules: draft.rules.map((rule) => {
      const fired = drafted.rules.get(rule.id) ?? { fraud: 0, legit: 0 };
      return {
        id: rule.id,
        ...confusionRow({
          true_positives: fired.fraud,
          false_positives: fired.legit,
          false_negatives: drafted.fraud - fired.fraud,
          true_negatives: drafted.legit - fired.legit,
        }),
      };
    }),
  };
}
