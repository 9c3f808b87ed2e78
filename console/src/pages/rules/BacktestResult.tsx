/**
 * A backtest's result on the rules page (POST /rules/test): how many decisions would change and
 * which way, each rule's matches, precision and recall against the labels, and examples linking
 * to their accounts. Also the labelled, sideways-scrolling table the page's other results use.
 */
import { Alert, Anchor, Box, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';
import type { ConfusionCounts, RulesTestResult } from '../../api';
import { DecisionBadge, time } from '../../components/format';
import { Link } from '../../router';

const ratio = (value: number | null) => (value === null ? '—' : String(Math.round(value * 1000) / 1000));

/** Why a backtest stopped before the range's end (docs/rules.md, "What a backtest costs"), and what to do about it. */
const TRUNCATED: Record<NonNullable<RulesTestResult['truncated_by']>, string> = {
  evaluation_limit:
    'The range held more than 10,000 evaluations: the oldest were replayed. Narrow the range to see the rest.',
  work_budget:
    "The draft's comparisons times the evaluations reached the server's work budget: the oldest were replayed. " +
    'A draft with fewer conditions replays more; narrow the range to see the rest.',
  time_budget:
    "The backtest reached the server's time budget: the oldest were replayed. Narrow the range, or try again later.",
};

export function BacktestResult({ result }: { result: RulesTestResult }) {
  // The result lands below the editor: brought into view and given the focus (a screen reader
  // reads its heading), so the analyst who pressed Backtest sees it without scrolling.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  }, [result]);
  return (
    <Stack data-testid="backtest-result">
      <Title order={2} size="h3" ref={heading} tabIndex={-1}>
        Backtest
      </Title>
      <Text data-testid="backtest-summary">
        {result.evaluations} {result.evaluations === 1 ? 'evaluation' : 'evaluations'} replayed; {result.changed}{' '}
        {result.changed === 1 ? 'decision' : 'decisions'} would change: {result.to_fake} to Fake, {result.to_real} to
        Real.
      </Text>
      {result.truncated && (
        <Alert color="yellow" title="Truncated">
          {TRUNCATED[result.truncated_by ?? 'evaluation_limit']}
        </Alert>
      )}

      <Title order={3} size="h4">
        Each rule
      </Title>
      <DataTable
        label="Rule matches"
        minWidth={360}
        headers={['Rule', 'Matched', 'Decided']}
        rows={result.rules.map((r) => ({ key: r.id, cells: [r.id, r.matched, r.decided] }))}
      />

      <Title order={3} size="h4">
        Against the labels
      </Title>
      {result.labels === null ? (
        <Text size="sm">
          No replayed evaluation is of a labelled account: label accounts fraud or legit to see precision and recall.
        </Text>
      ) : (
        <>
          <Text size="sm">
            Over the {result.labels.labelled} replayed evaluations of labelled accounts; fraud is the positive class (a
            Fake decision, a rule’s match).
          </Text>
          <DataTable
            label="Precision and recall"
            minWidth={560}
            headers={['Row', 'TP', 'FP', 'FN', 'TN', 'Precision', 'Recall']}
            rows={[
              counts('Current decisions', result.labels.current),
              counts('Draft decisions', result.labels.draft),
              ...result.labels.rules.map((r) => counts(r.id, r)),
            ]}
          />
        </>
      )}

      <Title order={3} size="h4">
        Examples of changed decisions
      </Title>
      {result.examples.length === 0 ? (
        <Text size="sm">No decision would change.</Text>
      ) : (
        <DataTable
          label="Changed decisions"
          minWidth={720}
          headers={['Evaluated', 'Account', 'Before', 'After', 'Decided by']}
          rows={result.examples.map((x) => ({
            key: x.request_id,
            cells: [
              time(x.created_at),
              x.account_id ? (
                <Anchor component={Link} to={`/accounts/${encodeURIComponent(x.account_id)}`}>
                  {x.account_id}
                </Anchor>
              ) : (
                'unauthenticated'
              ),
              <DecisionBadge decision={x.before} />,
              <DecisionBadge decision={x.after} />,
              x.decided_by.source === 'rule'
                ? `rule ${x.decided_by.rule}`
                : x.decided_by.source === 'list'
                  ? `list ${x.decided_by.list}`
                  : x.decided_by.source.replace('_', ' '),
            ],
          }))}
        />
      )}
    </Stack>
  );
}

/**
 * A labelled table of header cells and rows, in a region that scrolls sideways on a narrow
 * screen: focusable and labelled, so that the keyboard scrolls it too (WCAG's
 * scrollable-region-focusable).
 */
export function DataTable({
  label,
  minWidth,
  headers,
  rows,
}: {
  label: string;
  minWidth: number;
  headers: string[];
  rows: { key: string; cells: ReactNode[] }[];
}) {
  return (
    <Box role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      <Table aria-label={label} miw={minWidth}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((h) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.key}>
              {r.cells.map((c, i) => (
                <Table.Td key={i}>{c}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}

/** A row of the precision/recall table. */
const counts = (name: string, c: ConfusionCounts) => ({
  key: name,
  cells: [
    name,
    c.true_positives,
    c.false_positives,
    c.false_negatives,
    c.true_negatives,
    ratio(c.precision),
    ratio(c.recall),
  ],
});
