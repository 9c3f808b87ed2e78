/** The label report's table on its own: counts, precision and recall per threshold, per rule and for decisions, by hand. */
import {
  addToReport,
  emptyReport,
  labelReport,
  REPORT_THRESHOLDS,
  type LabelledEvaluation,
} from '../../src/domain/labels/report';

const E = (
  label: 'fraud' | 'legit',
  accountScore: number,
  decision: 'Real' | 'Fake',
  rules: string[] = [],
): LabelledEvaluation => ({ label, accountScore, decision, rules });

/** Three fraud and two legit evaluations; rule `r1` fires on two fraud and one legit, `r2` on one legit. */
const SET = [
  E('fraud', 0.9, 'Fake', ['r1']),
  E('fraud', 0.55, 'Real', ['r1']),
  E('fraud', 0.2, 'Real'),
  E('legit', 0.6, 'Real', ['r1', 'r2', 'r1']),
  E('legit', 0.1, 'Real'),
];

describe('labelReport', () => {
  test('when evaluations are counted, then each threshold, each rule and the decisions have the counts worked out by hand', () => {
    const table = labelReport(addToReport(emptyReport(), SET));
    expect(table).toMatchObject({ evaluations: 5, fraud: 3, legit: 2 });
    expect(table.thresholds).toHaveLength(19);
    const t = (x: number) => table.thresholds.find((r) => r.threshold === x)!;
    expect(t(0.05)).toEqual({
      threshold: 0.05,
      true_positives: 3,
      false_positives: 2,
      true_negatives: 0,
      false_negatives: 0,
      precision: 0.6,
      recall: 1,
    });
    // 0.5: flagged 0.9 (fraud), 0.55 (fraud), 0.6 (legit).
    expect(t(0.5)).toMatchObject({ true_positives: 2, false_positives: 1, true_negatives: 1, false_negatives: 1 });
    expect(t(0.5).precision).toBeCloseTo(2 / 3, 12);
    expect(t(0.5).recall).toBeCloseTo(2 / 3, 12);
    // 0.95: nothing flagged: no precision, recall 0.
    expect(t(0.95)).toMatchObject({ true_positives: 0, false_positives: 0, precision: null, recall: 0 });
    expect(table.decision).toEqual({
      true_positives: 1,
      false_positives: 0,
      true_negatives: 2,
      false_negatives: 2,
      precision: 1,
      recall: 1 / 3,
    });
    // A rule is counted over every evaluation, also those before it first fired; a rule twice in one evaluation counts once.
    expect(table.rules).toEqual([
      {
        rule: 'r1',
        true_positives: 2,
        false_positives: 1,
        true_negatives: 1,
        false_negatives: 1,
        precision: 2 / 3,
        recall: 2 / 3,
      },
      {
        rule: 'r2',
        true_positives: 0,
        false_positives: 1,
        true_negatives: 1,
        false_negatives: 3,
        precision: 0,
        recall: 0,
      },
    ]);
  });

  test('when the evaluations come in pieces, then the table is the same as in one piece', () => {
    const acc = emptyReport();
    for (const e of SET) addToReport(acc, [e]);
    expect(labelReport(acc)).toEqual(labelReport(addToReport(emptyReport(), SET)));
  });

  test('when a score rounds to a threshold, then it is flagged there, as the decision threshold decides', () => {
    // 0.4996 is reported 0.5 (Fake at a threshold of 0.5); 0.5496 is reported 0.55.
    const table = labelReport(addToReport(emptyReport(), [E('fraud', 0.4996, 'Fake'), E('legit', 0.5496, 'Fake')]));
    const t = (x: number) => table.thresholds.find((r) => r.threshold === x)!;
    expect(t(0.5)).toMatchObject({ true_positives: 1, false_positives: 1 });
    expect(t(0.55)).toMatchObject({ true_positives: 0, false_positives: 1 });
    expect(t(0.6)).toMatchObject({ true_positives: 0, false_positives: 0 });
  });

  test('when nothing is labelled fraud, then recall is null; the thresholds are 0.05 to 0.95 exactly', () => {
    const table = labelReport(addToReport(emptyReport(), [E('legit', 0.3, 'Real')]));
    expect(table.thresholds.every((r) => r.recall === null)).toBe(true);
    expect(REPORT_THRESHOLDS).toEqual([
      0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95,
    ]);
  });
});
