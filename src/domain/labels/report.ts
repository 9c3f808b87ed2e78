/**
 * How well the scores (and, once the rules engine stores them, the rules) would have caught
 * the accounts people labelled: precision and recall per threshold, per rule and for the
 * decisions made. Pure: the caller feeds labelled evaluations in, in as many pieces as it
 * reads them (a report over a long range never holds every row), and reads the table out.
 *
 * Fraud is the positive class. At threshold t an evaluation is flagged when its
 * `account_score` as reported reaches t (`reachesThreshold`, as the decision threshold decides
 * `Fake`); a rule flags the evaluations
 * it fired on; a decision flags when it is `Fake`. Then, over the labelled evaluations:
 *
 *   true positive  = flagged and fraud        false positive = flagged and legit
 *   false negative = not flagged and fraud    true negative  = not flagged and legit
 *   precision = tp / (tp + fp)   (null when nothing was flagged)
 *   recall    = tp / (tp + fn)   (null when nothing is labelled fraud)
 */
import type { ConfusionCounts, Decision, LabelReport, LabelValue } from '../../api-types';
import { byCodeUnits } from '../order';
import { reachesThreshold } from '../scoring';

export type { LabelValue };

/** One evaluation of a labelled account: the account's current label applies to it. */
export interface LabelledEvaluation {
  label: LabelValue;
  accountScore: number;
  decision?: Decision;
  /** The rules that fired on the evaluation (none until the rules engine stores them). */
  rules?: readonly string[];
}

/** The four counts (ConfusionCounts without its ratios). */
export type Counts = Omit<ConfusionCounts, 'precision' | 'recall'>;

/** The thresholds of the table: 0.05 to 0.95 by 0.05 (as numbers with two decimals, not sums of 0.05). */
export const REPORT_THRESHOLDS: readonly number[] = Array.from({ length: 19 }, (_, i) => (i + 1) * 5).map(
  (n) => n / 100,
);

export interface LabelReportAccumulator {
  evaluations: number;
  fraud: number;
  legit: number;
  thresholds: Counts[];
  decision: Counts;
  /** Per rule, the fraud and legit evaluations it fired on (the rest follow from the totals). */
  rules: Map<string, { fraud: number; legit: number }>;
}

const zero = (): Counts => ({ true_positives: 0, false_positives: 0, true_negatives: 0, false_negatives: 0 });

function count(c: Counts, flagged: boolean, fraud: boolean): void {
  if (flagged && fraud) c.true_positives++;
  else if (flagged) c.false_positives++;
  else if (fraud) c.false_negatives++;
  else c.true_negatives++;
}

export function emptyReport(thresholds: readonly number[] = REPORT_THRESHOLDS): LabelReportAccumulator {
  return { evaluations: 0, fraud: 0, legit: 0, thresholds: thresholds.map(zero), decision: zero(), rules: new Map() };
}

/** Counts `evaluations` into `acc` (changed in place, returned). A rule that never fires is not in the report. */
export function addToReport(
  acc: LabelReportAccumulator,
  evaluations: Iterable<LabelledEvaluation>,
  thresholds: readonly number[] = REPORT_THRESHOLDS,
): LabelReportAccumulator {
  for (const e of evaluations) {
    const fraud = e.label === 'fraud';
    acc.evaluations++;
    if (fraud) acc.fraud++;
    else acc.legit++;
    thresholds.forEach((t, i) => count(acc.thresholds[i]!, reachesThreshold(e.accountScore, t), fraud));
    if (e.decision) count(acc.decision, e.decision === 'Fake', fraud);
    for (const rule of new Set(e.rules ?? [])) {
      const fired = acc.rules.get(rule) ?? { fraud: 0, legit: 0 };
      if (fraud) fired.fraud++;
      else fired.legit++;
      acc.rules.set(rule, fired);
    }
  }
  return acc;
}

/** The counts with their precision and recall. */
export function confusionRow(c: Counts): ConfusionCounts {
  const flagged = c.true_positives + c.false_positives;
  const fraud = c.true_positives + c.false_negatives;
  return {
    ...c,
    precision: flagged === 0 ? null : c.true_positives / flagged,
    recall: fraud === 0 ? null : c.true_positives / fraud,
  };
}

/** The report's table (LabelReport's counts), and one row per rule for the backtest. */
export type LabelReportTable = Pick<LabelReport, 'evaluations' | 'fraud' | 'legit' | 'thresholds' | 'decision'> & {
  rules: (ConfusionCounts & { rule: string })[];
};

/** The finished table: one row per threshold, the decisions' row and one row per rule (by name). */
export function labelReport(
  acc: LabelReportAccumulator,
  thresholds: readonly number[] = REPORT_THRESHOLDS,
): LabelReportTable {
  return {
    evaluations: acc.evaluations,
    fraud: acc.fraud,
    legit: acc.legit,
    thresholds: thresholds.map((threshold, i) => ({ threshold, ...confusionRow(acc.thresholds[i]!) })),
    decision: confusionRow(acc.decision),
    rules: [...acc.rules]
      .sort(([a], [b]) => byCodeUnits(a, b))
      .map(([rule, fired]) => ({
        rule,
        ...confusionRow({
          true_positives: fired.fraud,
          false_positives: fired.legit,
          false_negatives: acc.fraud - fired.fraud,
          true_negatives: acc.legit - fired.legit,
        }),
      })),
  };
}
