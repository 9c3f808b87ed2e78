/**
 * The rules drafts (docs/rules.md, "Drafts and four-eyes"): the project's drafts newest first
 * (GET /rules/drafts), and one opened with its diff against the current document, rule by rule
 * with the rule before and after as JSON (GET /rules/drafts/{draft_id}). An admin publishes
 * (POST …/publish) or rejects it with a reason (POST …/reject). Publish is disabled, with the
 * reason beside it, for the draft's own author (four-eyes) and below admin; the API refuses both
 * anyway, and its refusal shows.
 */
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Code,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import {
  actorOf,
  api,
  errorMessage,
  mayPublishRules,
  type Operator,
  type RuleChange,
  type RuleDraft,
  type RuleDraftSummary,
} from '../../api';
import { useActorNames } from '../../components/actors';
import { GREEN, RED, time } from '../../components/format';

const STATUS_COLOURS: Record<RuleDraftSummary['status'], string> = {
  pending: '#1f5fa8',
  published: GREEN,
  rejected: RED,
  superseded: 'dark',
};

const CHANGE_LABELS: Record<RuleChange['change'], string> = {
  added: 'Added',
  removed: 'Removed',
  changed: 'Changed',
  moved: 'Moved',
};

/** Why this operator may not publish this draft, or undefined when it may. */
function publishBlocked(operator: Operator, draft: RuleDraftSummary): string | undefined {
  if (!mayPublishRules(operator)) return 'Publishing needs the admin role.';
  if (draft.author === actorOf(operator)) return 'You proposed this draft: another admin must publish it (four-eyes).';
  if (draft.status === 'superseded')
    return 'The rules were published past this draft’s base version: propose it again over the current version.';
  return undefined;
}

function RuleJson({ label, rule }: { label: string; rule: RuleChange['before'] }) {
  return (
    <Box>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      {rule === null ? (
        <Text size="sm">none</Text>
      ) : (
        <Code block tabIndex={0} aria-label={label} style={{ overflowX: 'auto' }}>
          {JSON.stringify(rule, null, 2)}
        </Code>
      )}
    </Box>
  );
}

function Diff({ diff }: { diff: RuleChange[] }) {
  if (diff.length === 0) return <Text size="sm">The draft is the current document.</Text>;
  return (
    <Stack gap="sm" data-testid="draft-diff">
      {diff.map((c) => (
        <Stack
          key={`${c.change} ${c.rule_id}`}
          gap={4}
          role="group"
          aria-label={`${CHANGE_LABELS[c.change]} ${c.rule_id}`}
        >
          <Group gap="xs">
            <Badge color="dark" variant="outline">
              {CHANGE_LABELS[c.change]}
            </Badge>
            <Text fw={600}>{c.rule_id}</Text>
          </Group>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
            <RuleJson label={`${c.rule_id} before`} rule={c.before} />
            <RuleJson label={`${c.rule_id} after`} rule={c.after} />
          </SimpleGrid>
        </Stack>
      ))}
    </Stack>
  );
}

function DraftDetail({
  id,
  operator,
  onDecided,
}: {
  id: string;
  operator: Operator;
  onDecided: (message: string) => void;
}) {
  const actorName = useActorNames();
  const [draft, setDraft] = useState<RuleDraft>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState('');

  useEffect(() => {
    setDraft(undefined);
    api
      .GET('/rules/drafts/{draft_id}', { params: { path: { draft_id: id } } })
      .then(({ data, error: e, response }) => (data ? setDraft(data) : setError(errorMessage(e, response))))
      .catch(() => setError('The server could not be reached'));
  }, [id]);

  const decide = async (how: 'publish' | 'reject') => {
    setBusy(true);
    setError(undefined);
    try {
      const params = { params: { path: { draft_id: id } } };
      const {
        data,
        error: e,
        response,
      } = how === 'publish'
        ? await api.POST('/rules/drafts/{draft_id}/publish', params)
        : await api.POST('/rules/drafts/{draft_id}/reject', { ...params, body: { reason } });
      if (!data) return setError(errorMessage(e, response));
      setDraft(data);
      onDecided(
        how === 'publish'
          ? `Published as version ${data.draft.published_version}.`
          : 'Rejected: the author sees the reason with the draft.',
      );
    } catch {
      setError('The server could not be reached');
    } finally {
      setBusy(false);
    }
  };

  if (!draft)
    return error ? (
      <Alert color="red" role="alert">
        {error}
      </Alert>
    ) : (
      <Text size="sm">Loading the draft…</Text>
    );
  const d = draft.draft;
  const blocked = publishBlocked(operator, d);
  return (
    <Stack data-testid="draft-detail">
      <Title order={3} size="h4">
        Draft by {actorName(d.author)}, over version {d.base_version}
      </Title>
      <Group gap="xs">
        <Badge color={STATUS_COLOURS[d.status]}>{d.status}</Badge>
        <Text size="sm">
          {draft.base.author
            ? `Version ${d.base_version} was published by ${actorName(draft.base.author)} ${time(draft.base.updated_at)}`
            : `Version ${d.base_version} is the empty document`}
          ; the rules are at version {draft.current_version} now.
        </Text>
      </Group>
      {d.note && <Text size="sm">Note: {d.note}</Text>}
      {d.reason && (
        <Text size="sm">
          Rejected by {actorName(d.decided_by ?? '')}: {d.reason}
        </Text>
      )}
      <Title order={4} size="h5">
        Changes against the current rules
      </Title>
      <Diff diff={draft.diff} />
      {error && (
        <Alert color="red" role="alert" title="Refused">
          {error}
        </Alert>
      )}
      {d.status === 'pending' || d.status === 'superseded' ? (
        <Stack gap="xs">
          <Group align="flex-end">
            <Button
              onClick={() => void decide('publish')}
              loading={busy}
              disabled={blocked !== undefined}
              aria-describedby={blocked ? 'publish-blocked' : undefined}
            >
              Publish
            </Button>
            {mayPublishRules(operator) && (
              <>
                <TextInput label="Reason to reject" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
                <Button variant="default" disabled={reason.trim() === ''} onClick={() => void decide('reject')}>
                  Reject
                </Button>
              </>
            )}
          </Group>
          {blocked && (
            <Text size="sm" id="publish-blocked" data-testid="publish-blocked">
              {blocked}
            </Text>
          )}
        </Stack>
      ) : null}
    </Stack>
  );
}

/** The drafts list, and the draft opened below it. `refresh` changes when a draft was submitted. */
export function Drafts({
  operator,
  refresh,
  onPublished,
}: {
  operator: Operator;
  refresh: number;
  onPublished: () => void;
}) {
  const actorName = useActorNames();
  const [drafts, setDrafts] = useState<RuleDraftSummary[]>();
  const [error, setError] = useState<string>();
  const [open, setOpen] = useState<string>();
  const [notice, setNotice] = useState<string>();

  const load = useCallback(() => {
    api
      .GET('/rules/drafts', { params: { query: { limit: 50 } } })
      .then(({ data, error: e, response }) => (data ? setDrafts(data.drafts) : setError(errorMessage(e, response))))
      .catch(() => setError('The server could not be reached'));
  }, []);
  useEffect(load, [load, refresh]);

  return (
    <Stack>
      <Title order={2} size="h3">
        Drafts
      </Title>
      <Text size="sm">
        Analysts and admins propose drafts; an admin other than the draft’s author publishes it (four-eyes).
      </Text>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {notice && (
        <Alert color="green" role="status">
          {notice}
        </Alert>
      )}
      {drafts && drafts.length === 0 && <Text size="sm">No drafts yet.</Text>}
      {drafts && drafts.length > 0 && (
        <Box role="region" aria-label="Drafts" tabIndex={0} style={{ overflowX: 'auto' }}>
          <Table aria-label="Drafts" miw={520}>
            <Table.Thead>
              <Table.Tr>
                {['Proposed', 'By', 'Over version', 'Rules', 'Status'].map((h) => (
                  <Table.Th key={h}>{h}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {drafts.map((d) => (
                <Table.Tr key={d.draft_id}>
                  <Table.Td>
                    <Anchor
                      component="button"
                      type="button"
                      onClick={() => setOpen(d.draft_id)}
                      aria-label={`Open the draft of ${time(d.created_at)} by ${actorName(d.author)}`}
                    >
                      {time(d.created_at)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{actorName(d.author)}</Table.Td>
                  <Table.Td>{d.base_version}</Table.Td>
                  <Table.Td>{d.rules_count}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOURS[d.status]}>{d.status}</Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
      )}
      {open && (
        <DraftDetail
          key={open}
          id={open}
          operator={operator}
          onDecided={(message) => {
            setNotice(message);
            load();
            onPublished();
          }}
        />
      )}
    </Stack>
  );
}
