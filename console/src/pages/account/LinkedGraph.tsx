/**
 * The account's ring (GET /account/{id}/ring): a summary line (its size and how many are Fake,
 * blocked, labelled fraud or legit), the graph (RingGraph.tsx) with its legend, **Expand to two
 * hops**, the table with the same facts for screen readers and phones, and the ring's actions.
 *
 * One hop by default, as the page always showed: most accounts have no ring, a first hop costs
 * the server a third of a second hop's reads and the drawing stays small; the analyst expands
 * when the first hop gives a reason to.
 */
import { Alert, Anchor, Card, Group, Loader, Switch, Table, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { api, errorMessage, type AccountRing } from '../../api';
import { score } from '../../components/format';
import { Link } from '../../router';
import { OpenCase } from './AccountCase';
import { RingBlock } from './RingBlock';
import { DECISION_MARKS, RingGraph, RingLegend } from './RingGraph';

const percent = (share: number) => `${Math.round(share * 100)} %`;

/** "Ring of 7: 6 Fake (86 %), 4 blocked, 5 labelled fraud, 1 labelled legit". */
export function ringSentence(ring: AccountRing): string {
  const s = ring.summary;
  const parts = [
    `${s.fake.count} Fake (${percent(s.fake.share)})`,
    `${s.blocked.count} blocked (${percent(s.blocked.share)})`,
    `${s.labelled_fraud.count} labelled fraud (${percent(s.labelled_fraud.share)})`,
    ...(s.labelled_legit.count > 0 ? [`${s.labelled_legit.count} labelled legit`] : []),
  ];
  return `Ring of ${s.size}: ${parts.join(', ')}${s.truncated ? '; more were found than a hop keeps (40), the strongest are shown' : ''}.`;
}

export function LinkedGraph({
  accountId,
  total,
  canAct,
  onChanged,
}: {
  accountId: string;
  /** How many accounts are linked to it (GET /account/{id}'s accounts_linked). */
  total: number;
  /** Analysts and admins: the ring's actions are shown. */
  canAct: boolean;
  /** The ring's accounts changed (blocked): the page reloads what it shows of the account. */
  onChanged: (notice: string) => void;
}) {
  const [hops, setHops] = useState<1 | 2>(1);
  const [ring, setRing] = useState<AccountRing>();
  const [error, setError] = useState<string>();

  const load = useCallback(async () => {
    const {
      data,
      error: e,
      response,
    } = await api.GET('/account/{account_id}/ring', {
      params: { path: { account_id: accountId }, query: { hops } },
    });
    if (data) {
      setRing(data);
      setError(undefined);
    } else setError(errorMessage(e, response));
  }, [accountId, hops]);

  useEffect(() => {
    let live = true;
    setRing(undefined);
    load().catch(() => live && setError('The server could not be reached'));
    return () => {
      live = false;
    };
  }, [load]);

  const others = ring ? ring.nodes.length - 1 : 0;
  return (
    <Card withBorder component="section" aria-labelledby="linked-title">
      <Group justify="space-between" align="flex-start">
        <Title order={2} size="h4" id="linked-title">
          Linked accounts ({total})
        </Title>
        <Switch
          label="Expand to two hops"
          checked={hops === 2}
          onChange={(e) => setHops(e.currentTarget.checked ? 2 : 1)}
          data-testid="ring-hops"
        />
      </Group>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {!ring && !error && <Loader aria-label="Loading the ring" size="sm" />}
      {ring && others === 0 && <Text>No linked accounts.</Text>}
      {ring && others > 0 && (
        <>
          <Text fw={700} data-testid="ring-summary" role="status">
            {ringSentence(ring)}
          </Text>
          <Text size="sm">
            Nodes are filled by the last decision and outlined by the label; edges are coloured by what the accounts
            share and as wide as the link’s score; select an account to open it.
          </Text>
          <RingLegend ring={ring} />
          <RingGraph ring={ring} />
          {canAct && (
            <Group mt="sm" data-testid="ring-actions">
              {others > 0 && (
                <OpenCase
                  accountIds={[accountId, ...ring.nodes.map((n) => n.account_id).filter((id) => id !== accountId)]}
                  label="Open a case for the ring"
                />
              )}
              <RingBlock
                accountId={accountId}
                hops={hops}
                onBlocked={async (notice) => {
                  await load();
                  onChanged(notice);
                }}
              />
            </Group>
          )}
          <RingTable ring={ring} />
        </>
      )}
    </Card>
  );
}

/** The ring as a table: what the drawing shows, for screen readers and narrow screens. */
function RingTable({ ring }: { ring: AccountRing }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label="Accounts of the ring" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Account</Table.Th>
            <Table.Th scope="col">Hop</Table.Th>
            <Table.Th scope="col">Decision</Table.Th>
            <Table.Th scope="col">Label</Table.Th>
            <Table.Th scope="col">Lists</Table.Th>
            <Table.Th scope="col">Link score</Table.Th>
            <Table.Th scope="col">Shares</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {ring.nodes.slice(1).map((n) => {
            const shares = [
              ...new Set(
                ring.edges.filter((e) => e.to === n.account_id || e.from === n.account_id).flatMap((e) => e.match_type),
              ),
            ];
            return (
              <Table.Tr key={n.account_id} data-account={n.account_id}>
                <Table.Td>
                  <Anchor component={Link} to={`/accounts/${encodeURIComponent(n.account_id)}`}>
                    {n.account_id}
                  </Anchor>
                </Table.Td>
                <Table.Td>{n.hop}</Table.Td>
                <Table.Td>
                  {DECISION_MARKS[n.decision ?? 'none'].name}
                  {n.list_decision ? ` (${n.list_decision.list} decides ${n.list_decision.decision} next)` : ''}
                </Table.Td>
                <Table.Td>{n.label ?? '—'}</Table.Td>
                <Table.Td data-testid="ring-lists">{n.lists.join(', ') || '—'}</Table.Td>
                <Table.Td>{score(n.link_score)}</Table.Td>
                <Table.Td>{shares.join(', ')}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
