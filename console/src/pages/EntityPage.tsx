/**
 * The page of a device, a device fingerprint, an IP address, a network (its /24 or /64) or an
 * email domain: what else came from it. The accounts (GET /accounts filtered by it) and the
 * sessions (GET /sessions filtered by it; a fingerprint's through its accounts only, as the
 * search has no such session filter), the share decided Fake, first and last seen among them,
 * and, for an address, where and what network it is (the newest session's enriched facts,
 * GET /session/{id}). Every table row links on to the account, address or device.
 */
import { Alert, Anchor, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { api, errorMessage, type AccountSummary, type Session, type SessionSummary } from '../api';
import { ENTITIES, entityPath, networkOf, type EntityKind } from '../components/entities';
import { time } from '../components/format';
import { useLoaded } from '../components/use-loaded';
import { Link, withQuery } from '../router';
import { AccountsTable, SessionsTable } from './SearchPage';

const PAGE = 50;

interface Loaded {
  accounts: AccountSummary[];
  moreAccounts: boolean;
  sessions: SessionSummary[];
  moreSessions: boolean;
  /** The newest session's enriched facts (addresses only). */
  newest?: Session | undefined;
}

async function load(kind: EntityKind, value: string): Promise<Loaded> {
  const filter = { [ENTITIES[kind].filter]: value, limit: PAGE };
  const [accounts, sessions] = await Promise.all([
    api.GET('/accounts', { params: { query: filter } }),
    ENTITIES[kind].sessions ? api.GET('/sessions', { params: { query: filter } }) : undefined,
  ]);
  if (!accounts.data) throw new Error(errorMessage(accounts.error, accounts.response));
  if (sessions && !sessions.data) throw new Error(errorMessage(sessions.error, sessions.response));
  const rows = sessions?.data?.sessions ?? [];
  const first = rows[0];
  const newest =
    kind === 'ip' && first
      ? (await api.GET('/session/{session_id}', { params: { path: { session_id: first.session_id } } })).data
      : undefined;
  return {
    accounts: accounts.data.accounts,
    moreAccounts: accounts.data.next_cursor !== null,
    sessions: rows,
    moreSessions: sessions ? sessions.data?.next_cursor !== null : false,
    newest,
  };
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="sm">{label}</Text>
      <Text fw={700} size="lg" data-testid={testId}>
        {value}
      </Text>
    </Card>
  );
}

function Summary({ kind, loaded }: { kind: EntityKind; loaded: Loaded }) {
  const { sessions, accounts } = loaded;
  const evaluated = sessions.filter((s) => s.decision !== undefined);
  const fake = evaluated.filter((s) => s.decision === 'Fake').length;
  const times = sessions.map((s) => s.start_time).sort();
  const plus = (more: boolean) => (more ? '+' : '');
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} aria-label="Summary">
      <Figure label="Accounts" value={`${accounts.length}${plus(loaded.moreAccounts)}`} testId="entity-accounts" />
      {ENTITIES[kind].sessions && (
        <>
          <Figure label="Sessions" value={`${sessions.length}${plus(loaded.moreSessions)}`} testId="entity-sessions" />
          <Figure
            label="Decided Fake"
            value={evaluated.length ? `${fake} of ${evaluated.length}` : '—'}
            testId="entity-fake"
          />
          <Figure
            label="Seen"
            value={times.length ? `${time(times[0])} – ${time(times.at(-1))}` : '—'}
            testId="entity-seen"
          />
        </>
      )}
    </SimpleGrid>
  );
}

/** Where an address is and what network it is on, from its newest session. */
function AddressFacts({ address, session }: { address: string; session?: Session | undefined }) {
  const network = networkOf(address);
  const n = session?.network;
  const l = session?.location;
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        The address
      </Title>
      <Text data-testid="entity-network">
        Network:{' '}
        {network ? (
          <Anchor component={Link} to={entityPath('network', network)}>
            {network}
          </Anchor>
        ) : (
          '—'
        )}
        {n ? ` · ${[n.connection_type, n.service_provider].filter(Boolean).join(', ') || 'network unknown'}` : ''}
        {l?.country_code ? ` · ${[l.city, l.country_code].filter(Boolean).join(', ')}` : ''}
      </Text>
      {session && (
        <Text size="sm" data-testid="entity-address-signals">
          Conditions at its newest session:{' '}
          {[...session.risk_signal_details.network, ...session.risk_signal_details.device].join(', ') || 'none'}
        </Text>
      )}
    </Card>
  );
}

export function EntityPage({ kind, value }: { kind: EntityKind; value: string }) {
  const { loaded, error } = useLoaded(() => load(kind, value), [kind, value]);
  const { title, filter } = ENTITIES[kind];
  return (
    <Stack>
      <Title order={1} style={{ wordBreak: 'break-all' }}>
        {title} {value}
      </Title>
      {error && (
        <Alert color="red" role="alert" title={`Cannot show the ${title.toLowerCase()}`}>
          {error}
        </Alert>
      )}
      {!loaded && !error && <Loader aria-label="Loading" />}
      {loaded && (
        <>
          <Summary kind={kind} loaded={loaded} />
          {kind === 'ip' && <AddressFacts address={value} session={loaded.newest} />}
          <Group justify="space-between">
            <Title order={2} size="h3">
              Accounts
            </Title>
            <Anchor component={Link} to={withQuery('/search', { tab: 'accounts', [filter]: value })}>
              All in Search
            </Anchor>
          </Group>
          {loaded.accounts.length ? <AccountsTable rows={loaded.accounts} /> : <Text>No account.</Text>}
          {ENTITIES[kind].sessions && (
            <>
              <Group justify="space-between">
                <Title order={2} size="h3">
                  Sessions
                </Title>
                <Anchor component={Link} to={withQuery('/search', { tab: 'sessions', [filter]: value })}>
                  All in Search
                </Anchor>
              </Group>
              {loaded.sessions.length ? <SessionsTable rows={loaded.sessions} /> : <Text>No session.</Text>}
            </>
          )}
        </>
      )}
    </Stack>
  );
}
