/**
 * The overview: the project's evaluations per day by decision and the signals they raised most
 * (GET /stats, counts the servers keep per day, written every few seconds: never a read of the
 * sessions), over the last 7, 14, 30 or 90 days (`?days=` in the address), and the lists'
 * sizes (GET /list), each a link to its accounts in Search. Every operator may read it.
 */
import { Alert, Anchor, Card, Group, Loader, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, errorMessage, type EvaluationStats, type ListSummary } from '../api';
import { StackedBars } from '../components/BarChart';
import { GREEN, RED } from '../components/format';
import { Link, navigate, useLocation, withQuery } from '../router';

const RANGES = ['7', '14', '30', '90'];
const DAY_MS = 86_400_000;
const day = (t: number) => new Date(t).toISOString().slice(0, 10);

export function OverviewPage() {
  const { query } = useLocation();
  const days = RANGES.includes(query.get('days') ?? '') ? Number(query.get('days')) : 14;
  const [stats, setStats] = useState<EvaluationStats>();
  const [lists, setLists] = useState<ListSummary[]>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    setStats(undefined);
    setError(undefined);
    const today = Date.now();
    Promise.all([
      api.GET('/stats', { params: { query: { from: day(today - (days - 1) * DAY_MS), to: day(today) } } }),
      api.GET('/list'),
    ])
      .then(([s, l]) => {
        if (!s.data) return setError(errorMessage(s.error, s.response));
        setStats(s.data);
        setLists(l.data?.lists ?? []);
      })
      .catch(() => setError('The server could not be reached'));
  }, [days]);

  const totals = stats?.days.reduce((t, d) => ({ Real: t.Real + d.Real, Fake: t.Fake + d.Fake }), { Real: 0, Fake: 0 });
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={1}>Overview</Title>
        <Select
          label="Period"
          data={RANGES.map((r) => ({ value: r, label: `Last ${r} days` }))}
          value={String(days)}
          onChange={(v) => v && navigate(withQuery('/overview', { days: v === '14' ? undefined : v }))}
          allowDeselect={false}
          w={180}
        />
      </Group>
      <Text size="sm">Each server writes its evaluations’ counts every few seconds: the newest may not show yet.</Text>
      {error && (
        <Alert color="red" role="alert" title="Cannot show the overview">
          {error}
        </Alert>
      )}
      {!stats && !error && <Loader aria-label="Loading" />}
      {stats && totals && (
        <>
          <Card withBorder>
            <Title order={2} size="h4" mb="xs">
              Evaluations by decision
            </Title>
            <Text size="sm" mb="xs" data-testid="evaluation-totals">
              {totals.Real + totals.Fake} evaluations from {stats.from} to {stats.to} (UTC): {totals.Real} Real,{' '}
              {totals.Fake} Fake
            </Text>
            <StackedBars
              title="Evaluations per day"
              rows={stats.days}
              series={[
                { key: 'Real', label: 'Real', color: GREEN },
                { key: 'Fake', label: 'Fake', color: RED },
              ]}
            />
          </Card>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder>
              <Title order={2} size="h4" mb="xs">
                Signals raised most
              </Title>
              {stats.signals.length === 0 ? (
                <Text>No signal raised in this period.</Text>
              ) : (
                <CountTable
                  label="Signals raised most"
                  head={['Signal', 'Evaluations']}
                  rows={stats.signals.slice(0, 10).map((x) => ({
                    name: x.signal,
                    to: withQuery('/search', { tab: 'sessions', signal: x.signal }),
                    count: x.count,
                  }))}
                />
              )}
            </Card>
            <Card withBorder>
              <Title order={2} size="h4" mb="xs">
                Lists
              </Title>
              <CountTable
                label="Lists"
                head={['List', 'Accounts']}
                rows={(lists ?? []).map((l) => ({
                  name: l.name,
                  to: withQuery('/search', { tab: 'accounts', list: l.name }),
                  count: l.num_accounts,
                }))}
              />
            </Card>
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}

/** A two-column table of names (each a link) and counts. */
function CountTable({
  label,
  head,
  rows,
}: {
  label: string;
  head: [string, string];
  rows: { name: string; to: string; count: number }[];
}) {
  return (
    <Table aria-label={label} striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{head[0]}</Table.Th>
          <Table.Th>{head[1]}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.name}>
            <Table.Td>
              <Anchor component={Link} to={r.to}>
                {r.name}
              </Anchor>
            </Table.Td>
            <Table.Td>{r.count}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
