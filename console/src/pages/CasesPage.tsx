/**
 * The review queue: GET /cases, the active cases oldest first (the one waiting longest heads
 * it), filtered by status, assignee and rule and sorted by age or score, as the address says (a
 * queue can be reloaded and shared). Each row says what the case is about, why it opened, its
 * score then, who has it and how long it has waited; the case opens its page.
 */
import { Alert, Anchor, Badge, Button, Group, Loader, Select, Stack, Table, Text, Title } from '@mantine/core';
import { api, errorMessage, type Case, type CaseFilters } from '../api';
import { useActorNames } from '../components/actors';
import { score } from '../components/format';
import { useLoaded } from '../components/use-loaded';
import { Link, navigate, useLocation, withQuery } from '../router';

const PAGE = 50;
const STATUSES = [
  { value: 'active', label: 'Active (open and in review)' },
  { value: 'open', label: 'Open' },
  { value: 'in_review', label: 'In review' },
  { value: 'closed', label: 'Closed' },
  { value: 'all', label: 'All' },
];
const SORTS = [
  { value: 'oldest', label: 'Waiting longest' },
  { value: 'newest', label: 'Newest' },
  { value: 'score', label: 'Highest score' },
];

/** How long ago, as a person reads a queue's age: minutes, hours, then days. */
export function age(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d`;
}

export const STATUS_LABELS: Record<Case['status'], string> = { open: 'Open', in_review: 'In review', closed: 'Closed' };

export function StatusBadge({ c }: { c: Pick<Case, 'status' | 'outcome'> }) {
  const colour = c.status === 'closed' ? (c.outcome === 'fraud' ? 'red.9' : 'green.9') : 'blue.8';
  return (
    <Badge color={colour} variant="filled" style={{ overflow: 'visible' }}>
      {STATUS_LABELS[c.status]}
      {c.outcome ? `: ${c.outcome}` : ''}
    </Badge>
  );
}

function filtersOf(query: URLSearchParams): CaseFilters {
  const pick = <K extends keyof CaseFilters>(key: K) => (query.get(key) || undefined) as CaseFilters[K];
  return {
    status: pick('status'),
    sort: pick('sort'),
    assignee: pick('assignee'),
    rule_id: pick('rule_id'),
    cursor: pick('cursor'),
    limit: PAGE,
  };
}

export function CasesPage() {
  const { query } = useLocation();
  const filters = filtersOf(query);
  const actorName = useActorNames();
  const { loaded, error } = useLoaded(async () => {
    const [cases, operators, rules] = await Promise.all([
      api.GET('/cases', { params: { query: filters } }),
      api.GET('/operators'),
      api.GET('/rules'),
    ]);
    if (!cases.data) throw new Error(errorMessage(cases.error, cases.response));
    return {
      page: cases.data,
      operators: (operators.data?.operators ?? []).filter((o) => !o.disabled && o.role !== 'viewer'),
      rules: (rules.data?.rules ?? []).filter((r) => r.then.open_case).map((r) => r.id),
    };
  }, [query.toString()]);
  const set = (key: keyof CaseFilters, value: string | null) =>
    navigate(withQuery('/cases', { ...filters, limit: undefined, cursor: undefined, [key]: value ?? undefined }));

  return (
    <Stack>
      <Title order={1}>Cases</Title>
      <Text size="sm">
        Accounts under review, opened by a rule’s open_case action, an analyst or the API. Open one to work it: its
        accounts, notes, and closing it as fraud or legit, which labels the accounts and can block or allow them.
      </Text>
      <Group align="flex-end">
        <Select
          label="Status"
          data={STATUSES}
          value={filters.status ?? 'active'}
          onChange={(v) => set('status', v)}
          allowDeselect={false}
        />
        <Select
          label="Assignee"
          data={[
            { value: '', label: 'Anyone' },
            { value: 'none', label: 'Unassigned' },
            ...(loaded?.operators ?? []).map((o) => ({ value: o.id, label: o.email })),
          ]}
          value={filters.assignee ?? ''}
          onChange={(v) => set('assignee', v || null)}
          allowDeselect={false}
        />
        <Select
          label="Opened by rule"
          data={[{ value: '', label: 'Any' }, ...(loaded?.rules ?? []).map((id) => ({ value: id, label: id }))]}
          value={filters.rule_id ?? ''}
          onChange={(v) => set('rule_id', v || null)}
          allowDeselect={false}
          searchable
        />
        <Select
          label="Sort"
          data={SORTS}
          value={filters.sort ?? 'oldest'}
          onChange={(v) => set('sort', v)}
          allowDeselect={false}
        />
      </Group>
      {error && (
        <Alert color="red" role="alert" title="Cannot show the cases">
          {error}
        </Alert>
      )}
      {!loaded && !error && <Loader aria-label="Loading" />}
      {loaded && loaded.page.cases.length === 0 && <Text>No cases {filters.cursor ? 'after these' : 'here'}.</Text>}
      {loaded && loaded.page.cases.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table aria-label="Cases" striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Case</Table.Th>
                <Table.Th>Accounts</Table.Th>
                <Table.Th>Reason</Table.Th>
                <Table.Th>Score</Table.Th>
                <Table.Th>Signals</Table.Th>
                <Table.Th>Assignee</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Waiting</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {loaded.page.cases.map((c) => (
                <Table.Tr key={c.case_id} data-testid="case-row">
                  <Table.Td>
                    <Anchor component={Link} to={`/cases/${c.case_id}`} style={{ whiteSpace: 'nowrap' }}>
                      Case {c.case_id.slice(0, 8)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Anchor component={Link} to={`/accounts/${encodeURIComponent(c.account_id)}`}>
                      {c.account_id}
                    </Anchor>
                    {c.account_ids.length > 1 && ` and ${c.account_ids.length - 1} more`}
                  </Table.Td>
                  <Table.Td>
                    {c.reason}
                    {c.rule_id && <Text size="xs">rule {c.rule_id}</Text>}
                  </Table.Td>
                  <Table.Td>{score(c.snapshot?.account_score)}</Table.Td>
                  <Table.Td>{c.snapshot?.signals.join(', ') || '—'}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {c.assignee ? actorName(`operator:${c.assignee}`) : '—'}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <StatusBadge c={c} />
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{age(c.created_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group>
        {filters.cursor && (
          <Button variant="default" onClick={() => set('cursor', null)}>
            First page
          </Button>
        )}
        {loaded?.page.next_cursor && (
          <Button variant="default" onClick={() => set('cursor', loaded.page.next_cursor)}>
            Next
          </Button>
        )}
      </Group>
    </Stack>
  );
}
