/**
 * Search: the project's accounts (GET /accounts) or sessions (GET /sessions), filtered with the
 * operations' own filters and paged with their cursors, all on the server (a project of 100,000
 * accounts is never loaded whole). The tab and filters live in the address, so a search can be
 * shared, reloaded and gone back to.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import {
  api,
  errorMessage,
  type AccountFilters,
  type AccountSummary,
  type SessionFilters,
  type SessionSummary,
} from '../api';
import { entityPath } from '../components/entities';
import { DecisionBadge, score, time } from '../components/format';
import { Link, navigate, useLocation, withQuery } from '../router';

type Kind = 'accounts' | 'sessions';
type FieldKind = 'text' | 'decision' | 'score';
interface Field {
  name: string;
  label: string;
  kind: FieldKind;
  placeholder?: string;
}

const DECISION: Field = { name: 'decision', label: 'Decision', kind: 'decision' };
const MIN_SCORE: Field = { name: 'min_score', label: 'Minimum score', kind: 'score' };
const MAX_SCORE: Field = { name: 'max_score', label: 'Maximum score', kind: 'score' };
const EMAIL_DOMAIN: Field = { name: 'email_domain', label: 'Email domain', kind: 'text', placeholder: 'example.com' };
const MORE: Field[] = [
  { name: 'list', label: 'List', kind: 'text', placeholder: 'block' },
  { name: 'country', label: 'Country', kind: 'text', placeholder: 'GB' },
  { name: 'device_id', label: 'Device id', kind: 'text' },
  { name: 'ip_address', label: 'IP address', kind: 'text' },
  { name: 'network', label: 'Network', kind: 'text', placeholder: '81.2.69.0/24' },
  { name: 'from', label: 'From', kind: 'text', placeholder: '2026-11-01T00:00:00Z' },
  { name: 'to', label: 'To', kind: 'text', placeholder: '2026-12-01T00:00:00Z' },
];
/**
 * The filters of each operation (docs/api-search.md), as its query parameters are named: the
 * first four always shown, the others behind "More filters" (a phone's screen is short).
 */
const FIELDS: Record<Kind, Field[]> = {
  accounts: [
    DECISION,
    MIN_SCORE,
    MAX_SCORE,
    EMAIL_DOMAIN,
    ...MORE,
    { name: 'email', label: 'Email', kind: 'text', placeholder: 'ada@example.com' },
    { name: 'fingerprint', label: 'Fingerprint', kind: 'text' },
  ],
  sessions: [
    { name: 'account_id', label: 'Account id', kind: 'text' },
    DECISION,
    MIN_SCORE,
    MAX_SCORE,
    EMAIL_DOMAIN,
    ...MORE,
    { name: 'signal', label: 'Risk signal', kind: 'text', placeholder: 'vpn' },
  ],
};
const SHOWN = 4;
const PAGE_SIZE = 50;

type Result =
  | { kind: 'accounts'; rows: AccountSummary[]; next: string | null }
  | { kind: 'sessions'; rows: SessionSummary[]; next: string | null };

export function SearchPage() {
  const { query } = useLocation();
  const kind: Kind = query.get('tab') === 'sessions' ? 'sessions' : 'accounts';
  const applied: Record<string, string> = {};
  for (const f of FIELDS[kind]) {
    const v = query.get(f.name);
    if (v) applied[f.name] = v;
  }
  const cursor = query.get('cursor') ?? undefined;
  const key = JSON.stringify([kind, applied, cursor]);

  const [draft, setDraft] = useState<Record<string, string>>(applied);
  const [more, setMore] = useState(FIELDS[kind].slice(SHOWN).some((f) => applied[f.name]));
  /** The last answer, with the request it answers: the rows of another query are never shown as this one's. */
  const [answer, setAnswer] = useState<{ key: string; result?: Result }>();
  const result = answer?.key === key ? answer.result : undefined;
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  /** The cursors of the pages before this one (for Previous). */
  const [previous, setPrevious] = useState<(string | undefined)[]>([]);

  useEffect(() => {
    setDraft(applied);
    let live = true;
    setLoading(true);
    setError(undefined);
    const filters = { ...applied, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) };
    const done = (r: Result | undefined, failure?: string) => {
      if (!live) return;
      setAnswer({ key, result: r });
      setError(failure);
      setLoading(false);
    };
    if (kind === 'accounts')
      void api
        .GET('/accounts', { params: { query: filters as AccountFilters } })
        .then(({ data, error: e, response }) =>
          done(
            data && { kind, rows: data.accounts, next: data.next_cursor },
            data ? undefined : errorMessage(e, response),
          ),
        )
        .catch(() => done(undefined, 'The server could not be reached'));
    else
      void api
        .GET('/sessions', { params: { query: filters as SessionFilters } })
        .then(({ data, error: e, response }) =>
          done(
            data && { kind, rows: data.sessions, next: data.next_cursor },
            data ? undefined : errorMessage(e, response),
          ),
        )
        .catch(() => done(undefined, 'The server could not be reached'));
    return () => {
      live = false;
    };
    // `key` is the request's identity (the tab, the filters and the cursor).
  }, [key]);

  const go = (tab: Kind, filters: Record<string, string>, nextCursor?: string) =>
    navigate(withQuery('/search', { tab, ...filters, cursor: nextCursor }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setPrevious([]);
    go(kind, draft);
  };

  return (
    <Stack>
      <Title order={1}>Search</Title>
      <Tabs
        value={kind}
        onChange={(tab) => {
          setPrevious([]);
          go(tab === 'sessions' ? 'sessions' : 'accounts', {});
        }}
      >
        <Tabs.List>
          <Tabs.Tab value="accounts">Accounts</Tabs.Tab>
          <Tabs.Tab value="sessions">Sessions</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <form onSubmit={submit} aria-label="Filters">
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" id="search-filters">
          {FIELDS[kind].slice(0, more ? undefined : SHOWN).map((f) => (
            <FilterInput
              key={f.name}
              field={f}
              value={draft[f.name] ?? ''}
              onChange={(v) => setDraft((d) => ({ ...d, [f.name]: v }))}
            />
          ))}
        </SimpleGrid>
        <Group mt="sm">
          <Button type="submit">Search</Button>
          <Button
            variant="subtle"
            onClick={() => setMore((m) => !m)}
            aria-expanded={more}
            aria-controls="search-filters"
          >
            {more ? 'Fewer filters' : 'More filters'}
          </Button>
          <Button
            variant="default"
            onClick={() => {
              setPrevious([]);
              go(kind, {});
            }}
          >
            Clear filters
          </Button>
        </Group>
      </form>
      {error && (
        <Alert color="red" role="alert" title="The search was refused">
          {error}
        </Alert>
      )}
      {loading && <Loader size="sm" aria-label="Loading" />}
      {result && result.kind === 'accounts' && <AccountsTable rows={result.rows} />}
      {result && result.kind === 'sessions' && <SessionsTable rows={result.rows} />}
      {result && (
        <Group justify="space-between">
          <Text size="sm">
            {result.rows.length === 0 ? 'Nothing on this page.' : `${result.rows.length} on this page.`}
          </Text>
          <Group>
            <Button
              variant="default"
              disabled={previous.length === 0}
              onClick={() => {
                const before = previous[previous.length - 1];
                setPrevious((p) => p.slice(0, -1));
                go(kind, applied, before);
              }}
            >
              Previous page
            </Button>
            <Button
              variant="default"
              disabled={!result.next}
              onClick={() => {
                setPrevious((p) => [...p, cursor]);
                go(kind, applied, result.next ?? undefined);
              }}
            >
              Next page
            </Button>
          </Group>
        </Group>
      )}
    </Stack>
  );
}

function FilterInput({ field, value, onChange }: { field: Field; value: string; onChange: (v: string) => void }) {
  if (field.kind === 'decision')
    return (
      <Select
        label={field.label}
        data={['Real', 'Fake']}
        clearable
        placeholder="Any"
        value={value || null}
        onChange={(v) => onChange(v ?? '')}
      />
    );
  if (field.kind === 'score')
    return (
      <NumberInput
        label={field.label}
        min={0}
        max={1}
        step={0.05}
        decimalScale={3}
        value={value}
        onChange={(v) => onChange(v === '' ? '' : String(v))}
      />
    );
  return (
    <TextInput
      label={field.label}
      placeholder={field.placeholder}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value.trim())}
    />
  );
}

export function AccountsTable({ rows }: { rows: AccountSummary[] }) {
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table striped highlightOnHover aria-label="Accounts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Account</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Decision</Table.Th>
            <Table.Th>Score</Table.Th>
            <Table.Th>Sessions</Table.Th>
            <Table.Th>Country</Table.Th>
            <Table.Th>Lists</Table.Th>
            <Table.Th>Last seen</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((a) => (
            <Table.Tr key={a.account.id}>
              <Table.Td>
                <Anchor component={Link} to={`/accounts/${encodeURIComponent(a.account.id)}`}>
                  {a.account.id}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Email address={a.account.email} />
              </Table.Td>
              <Table.Td>
                <DecisionBadge decision={a.decision} />
              </Table.Td>
              <Table.Td>{score(a.account_score)}</Table.Td>
              <Table.Td>{a.num_sessions}</Table.Td>
              <Table.Td>{a.country ?? '—'}</Table.Td>
              <Table.Td>
                <Lists names={a.lists} />
              </Table.Td>
              <Table.Td>{time(a.last_seen)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function SessionsTable({ rows }: { rows: SessionSummary[] }) {
  return (
    <Table.ScrollContainer minWidth={980}>
      <Table striped highlightOnHover aria-label="Sessions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Started</Table.Th>
            <Table.Th>Session</Table.Th>
            <Table.Th>Accounts</Table.Th>
            <Table.Th>Decision</Table.Th>
            <Table.Th>Score</Table.Th>
            <Table.Th>Country</Table.Th>
            <Table.Th>IP address</Table.Th>
            <Table.Th>Device</Table.Th>
            <Table.Th>Risk signals</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((s) => (
            <Table.Tr key={s.session_id}>
              <Table.Td>{time(s.start_time)}</Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/sessions/${s.session_id}`} ff="monospace" size="sm">
                  {s.session_id}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <AccountLinks ids={s.account_ids} none="—" />
              </Table.Td>
              <Table.Td>
                <DecisionBadge decision={s.decision} />
              </Table.Td>
              <Table.Td>{score(s.account_score)}</Table.Td>
              <Table.Td>{s.country_code ?? '—'}</Table.Td>
              <Table.Td>
                <Anchor component={Link} to={entityPath('ip', s.ip_address)}>
                  {s.ip_address}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={entityPath('device', s.device_id)} ff="monospace" size="sm">
                  {s.device_id.slice(0, 8)}
                </Anchor>
              </Table.Td>
              <Table.Td>{s.risk_signals.join(', ') || '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A session's accounts, each a link to its page; `none` when there are none. */
export function AccountLinks({ ids, none }: { ids: string[]; none: string }) {
  if (ids.length === 0) return <>{none}</>;
  return (
    <>
      {ids.map((id) => (
        <Anchor key={id} component={Link} to={`/accounts/${encodeURIComponent(id)}`} mr="xs">
          {id}
        </Anchor>
      ))}
    </>
  );
}

/** An email address with its domain linked to the domain's page. */
function Email({ address }: { address?: string | null | undefined }) {
  const at = address?.lastIndexOf('@') ?? -1;
  if (!address || at < 1) return <>{address ?? '—'}</>;
  const domain = address.slice(at + 1);
  return (
    <>
      {address.slice(0, at + 1)}
      <Anchor component={Link} to={entityPath('email_domain', domain.toLowerCase())}>
        {domain}
      </Anchor>
    </>
  );
}

export function Lists({ names }: { names: string[] }) {
  if (names.length === 0) return <>—</>;
  return (
    <Group gap={4}>
      {names.map((n) => (
        <Badge key={n} variant="outline" color="dark">
          {n}
        </Badge>
      ))}
    </Group>
  );
}
