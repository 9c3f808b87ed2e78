/**
 * An evaluation's receipt (GET /evaluation/{request_id}), named by its id and time, as each score's noisy-OR
 * terms: one horizontal bar per term, its length `p` (the most the term raises the score
 * alone), `×count` when it counts more than once. The drawing is hidden from screen readers;
 * a table with the same numbers stands in for it (visually hidden, read in its place).
 */
import { Card, SimpleGrid, Text, Title, VisuallyHidden } from '@mantine/core';
import type { EvaluationReceipt, ScoreBreakdown } from '../../api';
import { DecisionBadge, SCORES, score, time } from '../../components/format';

const ROW = 22;
/** Room for a term's name: wide enough for the longest (`device_network_mismatch`) at 12 px. */
const CHAR_PX = 7;
const BAR = 170;
/** Dark blue bars (8.6:1 on white) and a lighter one for the discount; the text is the page's. */
const BAR_COLOUR = '#1c4e80';
const DISCOUNT_COLOUR = '#2e7d32';

type Term = ScoreBreakdown['terms'][number];

/** The terms that weighed (p > 0), strongest first; the discount last. */
function rowsOf(b: ScoreBreakdown): { term: Term; discount: boolean }[] {
  const raised = b.terms.filter((t) => t.raised).sort((x, y) => y.p - x.p);
  return [
    ...raised.map((term) => ({ term, discount: false })),
    ...(b.discount && b.discount.raised ? [{ term: b.discount, discount: true }] : []),
  ];
}

function Bars({ title, breakdown }: { title: string; breakdown: ScoreBreakdown }) {
  const rows = rowsOf(breakdown);
  const height = Math.max(rows.length, 1) * ROW + 4;
  const labelWidth =
    Math.max(60, ...rows.map(({ term, discount }) => (term.name.length + (discount ? 2 : 0)) * CHAR_PX)) + 8;
  return (
    <svg
      aria-hidden="true"
      width="100%"
      viewBox={`0 0 ${labelWidth + BAR + 70} ${height}`}
      preserveAspectRatio="xMinYMin meet"
      data-testid={`receipt-bars-${title}`}
    >
      {rows.length === 0 && (
        <text x={0} y={16} fontSize={12} fill="#212529">
          nothing weighed
        </text>
      )}
      {rows.map(({ term, discount }, i) => (
        <g key={`${term.name}-${i}`} transform={`translate(0 ${i * ROW + 2})`}>
          <text x={labelWidth - 6} y={14} fontSize={12} textAnchor="end" fill="#212529">
            {discount ? `− ${term.name}` : term.name}
          </text>
          <rect
            x={labelWidth}
            y={3}
            width={Math.max(1, term.p * BAR)}
            height={ROW - 8}
            fill={discount ? DISCOUNT_COLOUR : BAR_COLOUR}
          />
          <text x={labelWidth + Math.max(1, term.p * BAR) + 4} y={14} fontSize={12} fill="#212529">
            {term.p.toFixed(3)}
            {term.count > 1 ? ` ×${term.count}` : ''}
          </text>
        </g>
      ))}
    </svg>
  );
}

function TermsTable({ title, breakdown }: { title: string; breakdown: ScoreBreakdown }) {
  const rows = rowsOf(breakdown);
  return (
    <table>
      <caption>
        {title}: {score(breakdown.value)}, from these terms
      </caption>
      <thead>
        <tr>
          <th scope="col">Term</th>
          <th scope="col">p (weight × strength)</th>
          <th scope="col">Weight</th>
          <th scope="col">Strength</th>
          <th scope="col">Counts</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ term, discount }, i) => (
          <tr key={`${term.name}-${i}`}>
            <th scope="row">{discount ? `${term.name} (discount)` : term.name}</th>
            <td>{term.p.toFixed(3)}</td>
            <td>{term.weight.toFixed(3)}</td>
            <td>{term.strength.toFixed(3)}</td>
            <td>{term.count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What decided, in words: the threshold, a list, a rule or a test project's forced scores. */
function decidedBy(d: EvaluationReceipt['decided_by']): string {
  if (d.source === 'list') return `the ${d.list} list`;
  if (d.source === 'rule') return `rule ${d.rule}`;
  if (d.source === 'test_mode') return d.list ? `test mode, then the ${d.list} list` : 'test mode, then the threshold';
  return 'the threshold';
}

export function ReceiptChart({ receipt }: { receipt: EvaluationReceipt }) {
  return (
    <Card withBorder component="section" aria-labelledby="receipt-title">
      <Title order={2} size="h4" id="receipt-title">
        Receipt of the evaluation of {time(receipt.created_at)}
      </Title>
      <Text size="sm" mb="xs">
        Evaluation {receipt.request_id} of session {receipt.session_id}: <DecisionBadge decision={receipt.decision} />{' '}
        by {decidedBy(receipt.decided_by)}, threshold {receipt.threshold.toFixed(2)}. Its scores are those of that
        moment (the links and lists it saw); each bar is a term’s p: the most it raises its score alone; the score is 1
        − Π(1 − p)^count.
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {SCORES.map(([key, title]) => (
          <div key={key}>
            <Text fw={600} size="sm" aria-hidden="true">
              {title}: {score(receipt.scores[key])}
            </Text>
            <Bars title={key} breakdown={receipt.breakdown[key]} />
            <VisuallyHidden>
              <TermsTable title={title} breakdown={receipt.breakdown[key]} />
            </VisuallyHidden>
          </div>
        ))}
      </SimpleGrid>
    </Card>
  );
}
