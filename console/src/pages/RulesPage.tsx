/**
 * Rules (docs/rules.md): the project's current document and its version (GET /rules), a draft
 * edited as JSON, a backtest of the draft (and an optional draft threshold) over a time range
 * (POST /rules/test: how many decisions would change and which way, examples linking to their
 * accounts, each rule's matches, and precision and recall against the labels), and Publish
 * (PUT /rules with `expected_version`: a document published by someone else meanwhile is a 409,
 * shown as such) after a confirmation. Every operator may edit a draft and backtest it (a
 * backtest stores nothing; testRules is a viewer's operation); only an admin publishes (putRules).
 */
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  api,
  errorMessage,
  mayPublishRules,
  type ConfusionCounts,
  type Operator,
  type RuleDefinition,
  type Rules,
  type RulesTestResult,
} from '../api';
import { CodeEditor } from '../components/CodeEditor';
import { DecisionBadge, time } from '../components/format';
import { Link } from '../router';

const DAY = 24 * 3_600_000;

/** The editor's text of a document: `{"rules": [...]}`, two-space JSON. */
const textOf = (rules: RuleDefinition[]) => JSON.stringify({ rules }, null, 2) + '\n';

/** The draft's rules, or why the text is not a document (checked here only for JSON; the API checks the rest). */
function parseDraft(text: string): { rules: RuleDefinition[] } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: `The draft is not JSON: ${(e as Error).message}` };
  }
  const rules = (value as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules)) return { error: 'The draft must be an object with a "rules" array: {"rules": [...]}' };
  return { rules: rules as RuleDefinition[] };
}

/** A range's default: the seven days up to the next whole minute. */
function lastWeek(): { from: string; to: string } {
  const to = Math.ceil(Date.now() / 60_000) * 60_000;
  return { from: new Date(to - 7 * DAY).toISOString(), to: new Date(to).toISOString() };
}

const ratio = (value: number | null) => (value === null ? '—' : String(Math.round(value * 1000) / 1000));

export function RulesPage({ operator }: { operator: Operator }) {
  const canPublish = mayPublishRules(operator);
  const [current, setCurrent] = useState<Rules>();
  const [loadError, setLoadError] = useState<string>();
  const [draft, setDraft] = useState('');
  const [range, setRange] = useState(lastWeek);
  const [threshold, setThreshold] = useState<string>('');
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<RulesTestResult>();
  const [testError, setTestError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const [publishError, setPublishError] = useState<{ conflict: boolean; message: string }>();
  const [notice, setNotice] = useState<string>();

  const load = useCallback(async (replaceDraft: boolean) => {
    const { data, error, response } = await api.GET('/rules');
    if (!data) {
      setLoadError(errorMessage(error, response));
      return;
    }
    setLoadError(undefined);
    setCurrent(data);
    if (replaceDraft) setDraft(textOf(data.rules));
  }, []);

  useEffect(() => {
    load(true).catch(() => setLoadError('The server could not be reached'));
  }, [load]);

  const backtest = async (e: FormEvent) => {
    e.preventDefault();
    setTestError(undefined);
    setResult(undefined);
    const parsed = parseDraft(draft);
    if ('error' in parsed) return setTestError(parsed.error);
    setTesting(true);
    try {
      const { data, error, response } = await api.POST('/rules/test', {
        body: {
          rules: parsed.rules,
          from: range.from,
          to: range.to,
          max_examples: 20,
          ...(threshold !== '' ? { decision_threshold: Number(threshold) } : {}),
        },
      });
      if (data) setResult(data);
      else setTestError(errorMessage(error, response));
    } catch {
      setTestError('The server could not be reached');
    } finally {
      setTesting(false);
    }
  };

  const askToPublish = () => {
    setNotice(undefined);
    setPublishError(undefined);
    const parsed = parseDraft(draft);
    if ('error' in parsed) return setPublishError({ conflict: false, message: parsed.error });
    setConfirming(true);
  };

  const publish = async () => {
    const parsed = parseDraft(draft);
    if ('error' in parsed || !current) return;
    setPublishing(true);
    try {
      const { data, error, response } = await api.PUT('/rules', {
        body: { expected_version: current.version, rules: parsed.rules },
      });
      setConfirming(false);
      if (data) {
        setCurrent(data);
        setDraft(textOf(data.rules));
        setNotice(`Published as version ${data.version}.`);
      } else
        setPublishError({
          conflict: response.status === 409,
          message:
            response.status === 409
              ? `Someone published another version since you loaded version ${current.version}; nothing was stored. ${errorMessage(error, response)}`
              : errorMessage(error, response),
        });
    } catch {
      setConfirming(false);
      setPublishError({ conflict: false, message: 'The server could not be reached' });
    } finally {
      setPublishing(false);
    }
  };

  if (loadError)
    return (
      <Stack>
        <Title order={1}>Rules</Title>
        <Alert color="red" role="alert" title="The rules could not be read">
          {loadError}
        </Alert>
      </Stack>
    );
  if (!current) return <Loader aria-label="Loading" />;

  const unchanged = draft === textOf(current.rules);
  return (
    <Stack>
      <Title order={1}>Rules</Title>
      <Group gap="lg">
        <Text data-testid="rules-version">
          Version {current.version}
          {current.version === 0 ? ' (no rules published yet)' : `, published ${time(current.updated_at)}`}
        </Text>
        <Text size="sm">
          {current.rules.length} {current.rules.length === 1 ? 'rule' : 'rules'}
        </Text>
        {!unchanged && (
          <Badge color="dark" variant="outline">
            Draft edited
          </Badge>
        )}
      </Group>
      <Text size="sm">
        The document is JSON, as <code>PUT /rules</code> takes it (docs/rules.md lists the fields and operators).
        {canPublish
          ? ' Backtest a draft before publishing it.'
          : ' You can edit a draft and backtest it; publishing needs the admin role.'}
      </Text>
      <CodeEditor label="Rules document (JSON)" value={draft} onChange={setDraft} />

      <form onSubmit={backtest} aria-label="Backtest">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextInput
            label="From"
            value={range.from}
            onChange={(e) => setRange((r) => ({ ...r, from: e.currentTarget.value.trim() }))}
          />
          <TextInput
            label="To"
            value={range.to}
            onChange={(e) => setRange((r) => ({ ...r, to: e.currentTarget.value.trim() }))}
          />
          <NumberInput
            label="Draft threshold (optional)"
            min={0}
            max={1}
            step={0.05}
            decimalScale={3}
            placeholder="Each evaluation's own"
            value={threshold}
            onChange={(v) => setThreshold(v === '' ? '' : String(v))}
          />
        </SimpleGrid>
        <Group mt="sm">
          <Button type="submit" loading={testing}>
            Backtest
          </Button>
          {canPublish && (
            <Button variant="default" onClick={askToPublish} disabled={unchanged}>
              Publish…
            </Button>
          )}
          <Button
            variant="subtle"
            disabled={unchanged}
            onClick={() => {
              setDraft(textOf(current.rules));
              setResult(undefined);
            }}
          >
            Discard the draft
          </Button>
        </Group>
      </form>

      {notice && (
        <Alert color="green" role="status">
          {notice}
        </Alert>
      )}
      {publishError && (
        <Alert color="red" role="alert" title={publishError.conflict ? 'Changed meanwhile' : 'Not published'}>
          {publishError.message}
          {publishError.conflict && (
            <Group mt="xs">
              <Button
                size="xs"
                variant="default"
                onClick={() => void load(false).then(() => setPublishError(undefined))}
              >
                Load the current version (keeps the draft)
              </Button>
            </Group>
          )}
        </Alert>
      )}
      {testError && (
        <Alert color="red" role="alert" title="The backtest was refused">
          {testError}
        </Alert>
      )}
      {result && <BacktestResult result={result} />}

      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`Publish the draft as version ${current.version + 1}?`}
      >
        <Stack>
          <Text size="sm">
            The next evaluations apply it (other processes within a minute or so), and the audit log records the change
            as yours. It is stored only over version {current.version}: if someone published meanwhile, nothing is
            stored.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button onClick={() => void publish()} loading={publishing}>
              Publish
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

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

function BacktestResult({ result }: { result: RulesTestResult }) {
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
function DataTable({
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
