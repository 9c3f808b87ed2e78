/**
 * Rules (docs/rules.md, docs/console.md "The rules page"): the project's current document and
 * its version (GET /rules); a draft edited in the builder (conditions picked from GET
 * /rules/fields) or as JSON, the two views of one document; a preview of each rule's matches over
 * the last 7 days (POST /rules/preview) and, beside it, a backtest over a chosen range and
 * threshold (POST /rules/test); "Submit for approval" (POST /rules/drafts over the version shown:
 * a version published meanwhile is a 409, shown as such); and the drafts, where an admin other
 * than a draft's author publishes or rejects it (four-eyes). Every operator may edit a draft and
 * backtest it; analysts and admins preview and submit; admins publish.
 */
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  NumberInput,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  api,
  errorMessage,
  mayDraftRules,
  type Operator,
  type RuleDefinition,
  type RuleField,
  type Rules,
  type RulesPreview,
  type RulesTestResult,
} from '../api';
import { CodeEditor } from '../components/CodeEditor';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { time } from '../components/format';
import { BacktestResult, DataTable } from './rules/BacktestResult';
import { Drafts } from './rules/Drafts';
import { RuleBuilder } from './rules/RuleBuilder';

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

/** A request's answer, its refusal's message, or that the server could not be reached. */
async function settle<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<{ data: T } | { error: string; status?: number }> {
  try {
    const { data, error, response } = await call;
    return data ? { data } : { error: errorMessage(error, response), status: response.status };
  } catch {
    return { error: 'The server could not be reached' };
  }
}

function Preview({ draft, allowed }: { draft: string; allowed: boolean }) {
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<RulesPreview>();
  const [error, setError] = useState<string>();
  const run = async () => {
    setError(undefined);
    setPreview(undefined);
    const parsed = parseDraft(draft);
    if ('error' in parsed) return setError(parsed.error);
    setBusy(true);
    const answer = await settle(api.POST('/rules/preview', { body: { rules: parsed.rules } }));
    setBusy(false);
    if ('data' in answer) setPreview(answer.data);
    else setError(answer.error);
  };
  return (
    <Stack gap="xs" aria-label="Preview" role="region">
      <Title order={2} size="h3">
        Preview
      </Title>
      <Text size="sm">How many of the last 7 days’ evaluations each rule of the draft would have matched.</Text>
      <Group>
        <Button onClick={() => void run()} loading={busy} disabled={!allowed}>
          Preview matches
        </Button>
      </Group>
      {!allowed && <Text size="sm">Previews need the analyst role; a backtest does not.</Text>}
      {error && (
        <Alert color="red" role="alert" title="The preview was refused">
          {error}
        </Alert>
      )}
      {preview && (
        <>
          <Text size="sm" data-testid="preview-summary">
            {preview.evaluations} {preview.evaluations === 1 ? 'evaluation' : 'evaluations'} since {time(preview.from)}
            {preview.truncated ? ' (the oldest of more: truncated)' : ''}.
          </Text>
          <DataTable
            label="Preview matches"
            minWidth={300}
            headers={['Rule', 'Would match', 'Would decide']}
            rows={preview.rules.map((r) => ({ key: r.id, cells: [r.id, r.matched, r.decided] }))}
          />
        </>
      )}
    </Stack>
  );
}

export function RulesPage({ operator }: { operator: Operator }) {
  const canDraft = mayDraftRules(operator);
  const [current, setCurrent] = useState<Rules>();
  const [fields, setFields] = useState<RuleField[]>([]);
  const [loadError, setLoadError] = useState<string>();
  const [draft, setDraft] = useState('');
  const [tab, setTab] = useState<string | null>('builder');
  const [range, setRange] = useState(lastWeek);
  const [threshold, setThreshold] = useState<string>('');
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<RulesTestResult>();
  const [testError, setTestError] = useState<string>();
  const [submitting, setSubmitting] = useState<{ note: string; busy: boolean; error?: string }>();
  const [submitError, setSubmitError] = useState<{ conflict: boolean; message: string }>();
  const [notice, setNotice] = useState<string>();
  const [submitted, setSubmitted] = useState(0);

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
    api
      .GET('/rules/fields')
      .then(({ data }) => data && setFields(data.fields))
      .catch(() => setLoadError('The server could not be reached'));
  }, [load]);

  const backtest = async (e: FormEvent) => {
    e.preventDefault();
    setTestError(undefined);
    setResult(undefined);
    const parsed = parseDraft(draft);
    if ('error' in parsed) return setTestError(parsed.error);
    setTesting(true);
    const answer = await settle(
      api.POST('/rules/test', {
        body: {
          rules: parsed.rules,
          from: range.from,
          to: range.to,
          max_examples: 20,
          ...(threshold !== '' ? { decision_threshold: Number(threshold) } : {}),
        },
      }),
    );
    setTesting(false);
    if ('data' in answer) setResult(answer.data);
    else setTestError(answer.error);
  };

  const askToSubmit = () => {
    setNotice(undefined);
    setSubmitError(undefined);
    const parsed = parseDraft(draft);
    if ('error' in parsed) return setSubmitError({ conflict: false, message: parsed.error });
    setSubmitting({ note: '', busy: false });
  };

  const submit = async () => {
    const parsed = parseDraft(draft);
    if ('error' in parsed || !current || !submitting) return;
    setSubmitting({ ...submitting, busy: true });
    const note = submitting.note.trim();
    const answer = await settle(
      api.POST('/rules/drafts', {
        body: { base_version: current.version, rules: parsed.rules, ...(note ? { note } : {}) },
      }),
    );
    if ('data' in answer) {
      setSubmitting(undefined);
      setNotice('Submitted for approval: an admin other than you publishes it (four-eyes).');
      setSubmitted((n) => n + 1);
    } else if (answer.status === 409) {
      setSubmitting(undefined);
      setSubmitError({
        conflict: true,
        message: `Someone published another version since you loaded version ${current.version}; nothing was stored. ${answer.error}`,
      });
    } else setSubmitting({ ...submitting, busy: false, error: answer.error });
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
  const parsed = parseDraft(draft);
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
        Build the draft with the pickers, or edit it as JSON (docs/rules.md lists the fields and operators).
        {canDraft
          ? ' Preview and backtest it, then submit it for approval: an admin other than you publishes it.'
          : ' You can edit a draft and backtest it; submitting needs the analyst role, publishing the admin role.'}
      </Text>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="builder">Builder</Tabs.Tab>
          <Tabs.Tab value="json">JSON</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="builder" pt="sm">
          {'error' in parsed ? (
            <Alert color="red" role="alert" title="The JSON view does not hold a document">
              {parsed.error}. Fix it in the JSON tab.
            </Alert>
          ) : fields.length === 0 ? (
            <Loader aria-label="Loading the fields" />
          ) : (
            <RuleBuilder rules={parsed.rules} fields={fields} onChange={(rules) => setDraft(textOf(rules))} />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="json" pt="sm">
          <CodeEditor label="Rules document (JSON)" value={draft} onChange={setDraft} />
        </Tabs.Panel>
      </Tabs>
      <Group>
        {canDraft && (
          <Button onClick={askToSubmit} disabled={unchanged}>
            Submit for approval…
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
      {notice && (
        <Alert color="green" role="status">
          {notice}
        </Alert>
      )}
      {submitError && (
        <Alert color="red" role="alert" title={submitError.conflict ? 'Changed meanwhile' : 'Not submitted'}>
          {submitError.message}
          {submitError.conflict && (
            <Group mt="xs">
              <Button
                size="xs"
                variant="default"
                onClick={() => void load(false).then(() => setSubmitError(undefined))}
              >
                Load the current version (keeps the draft)
              </Button>
            </Group>
          )}
        </Alert>
      )}

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Preview draft={draft} allowed={canDraft} />
        <form onSubmit={backtest} aria-label="Backtest">
          <Stack gap="xs">
            <Title order={2} size="h3">
              Backtest over a range
            </Title>
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
            <Group>
              <Button type="submit" loading={testing}>
                Backtest
              </Button>
            </Group>
          </Stack>
        </form>
      </SimpleGrid>
      {testError && (
        <Alert color="red" role="alert" title="The backtest was refused">
          {testError}
        </Alert>
      )}
      {result && <BacktestResult result={result} />}

      <Drafts operator={operator} refresh={submitted} onPublished={() => void load(false)} />

      <ConfirmDialog
        title={submitting ? `Submit the draft over version ${current.version} for approval?` : undefined}
        onCancel={() => setSubmitting(undefined)}
        onConfirm={() => void submit()}
        busy={submitting?.busy ?? false}
        error={submitting?.error}
      >
        <Text size="sm">
          Nothing applies until an admin other than you publishes it. If someone publishes another version first, the
          draft can no longer be published: submit it again over the new version.
        </Text>
        <TextInput
          label="Note for the approver (optional)"
          value={submitting?.note ?? ''}
          onChange={(e) => {
            const note = e.currentTarget.value;
            setSubmitting((s) => s && { ...s, note });
          }}
        />
      </ConfirmDialog>
    </Stack>
  );
}
