/**
 * Search: the project's accounts (GET /accounts, by id or the riskiest first) or sessions
 * (GET /sessions), filtered with the operations' own filters and paged with their cursors, all
 * on the server (a project of 100,000 accounts is never loaded whole). The tab, filters and order
 * live in the address, so a search can be shared, reloaded and gone back to. Analysts and admins
 * select accounts of the page and put them on a list or open a case for them (search/BulkActions).
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import {
  api,
  errorMessage,
  mayAct,
  type AccountFilters,
  type AccountSummary,
  type Operator,
  type SessionFilters,
  type SessionSummary,
} from '../api';
import { entityPath } from '../components/entities';
import { DecisionBadge, GREEN, RED, score, time } from '../components/format';
import { Link, navigate, useLocation, withQuery } from '../router';
import { BulkActions } from './search/BulkActions';
import { FIELDS, FilterInput, invalid, SHOWN, type Kind } from './search/filters';

const PAGE_SIZE = 50;
/** The orders of GET /accounts (its `sort`), as the Sort choice names them. */
const SORTS = [
  { value: 'id', label: 'By account id' },
  { value: 'score', label: 'Highest score first' },
];

type Result =
  | { kind: 'accounts'; rows: AccountSummary[]; next: string | null }
  | { kind: 'sessions'; rows: SessionSummary[]; next: string | null };

export function SearchPage({ operator }: { operator: Operator }) {
  const { query } = useLocation();
  const kind: Kind = query.get('tab') === 'sessions' ? 'sessions' : 'accounts';
  const applied: Record<string, string> = {};
  for (const f of FIELDS[kind]) {
    const v = query.get(f.name);
    if (v) applied[f.name] = v;
  }
  if (kind === 'accounts' && query.get('sort') === 'score') applied.sort = 'score';
  const cursor = query.get('cursor') ?? undefined;
  const [reads, setReads] = useState(0);
  const key = JSON.stringify([kind, applied, cursor, reads]);

  const [draft, setDraft] = useState<Record<string, string>>(applied);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [more, setMore] = useState(FIELDS[kind].slice(SHOWN).some((f) => applied[f.name]));
  /** The last answer, with the request it answers: the rows of another query are never shown as this one's. */
  const [answer, setAnswer] = useState<{ key: string; result?: Result }>();
  const result = answer?.key === key ? answer.result : undefined;
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  /** The cursors of the pages before this one (for Previous). */
  const [previous, setPrevious] = useState<(string | undefined)[]>([]);
  /** The project's lists, for the list filter and the bulk action. */
  const [lists, setLists] = useState<string[]>([]);
  /** The accounts selected on this page (cleared when another page is read). */
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const canAct = mayAct(operator);

  useEffect(() => {
    void api
      .GET('/list')
      .then(({ data }) => setLists((data?.lists ?? []).map((l) => l.name)))
      .catch(() => setLists([]));
  }, []);

  useEffect(() => {
    setDraft(applied);
    setSelected(new Set());
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
    // `key` is the request's identity (the tab, the filters, the order, the cursor and the reads).
  }, [key]);

  const go = (tab: Kind, filters: Record<string, string>, nextCursor?: string) =>
    navigate(withQuery('/search', { tab, ...filters, cursor: nextCursor }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const wrong = invalid(draft);
    setErrors(wrong);
    if (Object.keys(wrong).length > 0) {
      if (FIELDS[kind].slice(SHOWN).some((f) => wrong[f.name])) setMore(true);
      return;
    }
    setPrevious([]);
    go(kind, { ...draft, ...(applied.sort ? { sort: applied.sort } : {}) });
  };

  const rows = result?.kind === 'accounts' ? result.rows : [];
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const toggleAll = () =>
    setSelected((s) => (s.size === rows.length ? new Set() : new Set(rows.map((r) => r.account.id))));

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
      <form onSubmit={submit} aria-label="Filters" noValidate>
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" id="search-filters">
          {FIELDS[kind].slice(0, more ? undefined : SHOWN).map((f) => (
            <FilterInput
              key={f.name}
              field={f}
              value={draft[f.name] ?? ''}
              lists={lists}
              error={errors[f.name]}
              onChange={(v) => setDraft((d) => ({ ...d, [f.name]: v }))}
            />
          ))}
        </SimpleGrid>
        <Group mt="sm" align="flex-end">
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
              setErrors({});
              go(kind, {});
            }}
          >
            Clear filters
          </Button>
          {kind === 'accounts' && (
            <Select
              label="Sort"
              data={SORTS}
              value={applied.sort ?? 'id'}
              allowDeselect={false}
              w={200}
              onChange={(v) => {
                setPrevious([]);
                const { sort: _, ...filters } = applied;
                go(kind, v === 'score' ? { ...filters, sort: 'score' } : filters);
              }}
            />
          )}
        </Group>
      </form>
      {applied.sort === 'score' && (
        <Text size="sm">The riskiest accounts first; accounts never evaluated have no score and are not listed.</Text>
      )}
      {error && (
        <Alert color="red" role="alert" title="The search was refused">
          {error}
        </Alert>
      )}
      {loading && <Loader size="sm" aria-label="Loading" />}
      {kind === 'accounts' && canAct && (
        <BulkActions
          selected={rows.map((r) => r.account.id).filter((id) => selected.has(id))}
          lists={lists}
          onChanged={() => setReads((n) => n + 1)}
        />
      )}
      {result && result.kind === 'accounts' && (
        <AccountsTable rows={result.rows} {...(canAct ? { selection: { selected, toggle, toggleAll } } : {})} />
      )}
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

/** The accounts selected on a page, and how to change them (shown to analysts and admins). */
interface Selection {
  selected: Set<string>;
  toggle: (id: string) => void;
  toggleAll: () => void;
}

export function AccountsTable({ rows, selection }: { rows: AccountSummary[]; selection?: Selection }) {
  const all = rows.length > 0 && rows.every((r) => selection?.selected.has(r.account.id));
  const some = rows.some((r) => selection?.selected.has(r.account.id));
  return (
    <Table.ScrollContainer minWidth={selection ? 900 : 860}>
      <Table striped highlightOnHover aria-label="Accounts">
        <Table.Thead>
          <Table.Tr>
            {selection && (
              <Table.Th>
                <Checkbox
                  aria-label="Select every account on this page"
                  checked={all}
                  indeterminate={some && !all}
                  onChange={selection.toggleAll}
                />
              </Table.Th>
            )}
            <Table.Th>Account</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Decision</Table.Th>
            <Table.Th>Score</Table.Th>
            <Table.Th>Label</Table.Th>
            <Table.Th>Sessions</Table.Th>
            <Table.Th>Country</Table.Th>
            <Table.Th>Lists</Table.Th>
            <Table.Th>Last seen</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((a) => (
            <Table.Tr key={a.account.id}>
              {selection && (
                <Table.Td>
                  <Checkbox
                    aria-label={`Select ${a.account.id}`}
                    checked={selection.selected.has(a.account.id)}
                    onChange={() => selection.toggle(a.account.id)}
                  />
                </Table.Td>
              )}
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
              <Table.Td>
                {a.label ? (
                  <Badge color={a.label === 'fraud' ? RED : GREEN} variant="filled">
                    {a.label}
                  </Badge>
                ) : (
                  '—'
                )}
              </Table.Td>
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
