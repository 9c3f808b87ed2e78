/**
 * The linked-accounts graph: the account in the middle and the accounts linked to it (GET
 * /account/{id}/accounts-linked, strongest first, the 40 strongest drawn), one edge per match
 * type coloured by the type, as wide as the link's score. The layout is d3-force's (ISC), run
 * to rest before drawing (no animation); React draws the SVG. Each other account is a link
 * (Tab reaches it, Enter opens it); a table below says the same for screen readers and phones.
 */
import { Anchor, Card, Group, Table, Text, Title } from '@mantine/core';
import { forceCollide, forceLink, forceManyBody, forceSimulation, type SimulationNodeDatum } from 'd3-force';
import { useMemo } from 'react';
import type { LinkedAccount, MatchType } from '../../api';
import { score } from '../../components/format';
import { Link, navigate, BASE } from '../../router';

/** Distinct colours, each at least 3:1 against white (WCAG's non-text contrast). */
export const MATCH_COLOURS: Record<MatchType, string> = {
  browser: '#1f5fa8',
  device: '#8a3ffc',
  network: '#b35900',
  email: '#a51d1d',
  phone: '#1b7a3a',
  username: '#6b5e00',
  name: '#c2185b',
  mobile_id: '#00707a',
  apple_device_check: '#4a4a4a',
};

const DRAWN = 40;
const SIZE = 480;

interface Node extends SimulationNodeDatum {
  id: string;
  centre: boolean;
  score: number;
}

function layout(accountId: string, linked: LinkedAccount[]): Node[] {
  // The account is pinned in the middle (a centring force would pull the others onto it).
  const nodes: Node[] = [
    { id: accountId, centre: true, score: 1, fx: 0, fy: 0 },
    ...linked.map((l) => ({ id: l.account_id, centre: false, score: l.score })),
  ];
  const links = linked.map((l) => ({ source: accountId, target: l.account_id, strength: l.score }));
  const simulation = forceSimulation(nodes)
    .force(
      'link',
      forceLink<Node, (typeof links)[number]>(links)
        .id((n) => n.id)
        // Stronger links sit closer.
        .distance((l) => 190 - 110 * l.strength),
    )
    .force('charge', forceManyBody().strength(-160))
    .force('collide', forceCollide(22))
    .stop();
  // Deterministic: d3-force places the nodes on a phyllotaxis spiral before ticking (no randomness).
  for (let i = 0; i < 300; i++) simulation.tick();
  // Held inside the drawing, with room for the labels.
  const reach = Math.max(...nodes.map((n) => Math.hypot(n.x!, n.y!)));
  const scale = reach > SIZE / 2 - 40 ? (SIZE / 2 - 40) / reach : 1;
  for (const n of nodes) [n.x, n.y] = [n.x! * scale, n.y! * scale];
  return nodes;
}

const label = (id: string) => (id.length > 14 ? `${id.slice(0, 13)}…` : id);

export function LinkedGraph({
  accountId,
  linked,
  total,
}: {
  accountId: string;
  linked: LinkedAccount[];
  total: number;
}) {
  const drawn = linked.slice(0, DRAWN);
  const nodes = useMemo(() => layout(accountId, linked.slice(0, DRAWN)), [accountId, linked]);
  const at = new Map(nodes.map((n) => [n.id, n]));
  const types = [...new Set(drawn.flatMap((l) => l.match_type))];
  // As large as the drawing needs (a few accounts make a small graph), at most SIZE.
  const half = Math.min(SIZE / 2, Math.max(120, ...nodes.map((n) => Math.hypot(n.x!, n.y!) + 40)));

  return (
    <Card withBorder component="section" aria-labelledby="linked-title">
      <Title order={2} size="h4" id="linked-title">
        Linked accounts ({total})
      </Title>
      {linked.length === 0 ? (
        <Text>No linked accounts.</Text>
      ) : (
        <>
          <Text size="sm">
            {linked.length > DRAWN ? `The ${DRAWN} strongest of ${linked.length} are drawn. ` : ''}Edges are coloured by
            what the accounts share and as wide as the link’s score; select an account to open it.
          </Text>
          <Group gap="md" my="xs" aria-label="Match types" role="list">
            {types.map((t) => (
              <Group key={t} gap={4} role="listitem">
                <svg width="18" height="6" aria-hidden="true">
                  <rect width="18" height="6" fill={MATCH_COLOURS[t]} />
                </svg>
                <Text size="sm">{t}</Text>
              </Group>
            ))}
          </Group>
          <svg
            viewBox={`${-half} ${-half} ${2 * half} ${2 * half}`}
            width="100%"
            style={{ maxWidth: 2 * half, display: 'block', margin: '0 auto' }}
            role="group"
            aria-label={`Graph of the ${drawn.length} accounts linked to ${accountId}`}
            data-testid="linked-graph"
          >
            {drawn.flatMap((l) => {
              const target = at.get(l.account_id)!;
              // One line per match type, side by side across the edge.
              const dx = target.x! - 0;
              const dy = target.y! - 0;
              const length = Math.hypot(dx, dy) || 1;
              const [nx, ny] = [-dy / length, dx / length];
              const width = 1 + 5 * l.score;
              return l.match_type.map((t, i) => {
                const offset = (i - (l.match_type.length - 1) / 2) * (width + 1);
                return (
                  <line
                    key={`${l.account_id}-${t}`}
                    data-match-type={t}
                    x1={nx * offset}
                    y1={ny * offset}
                    x2={target.x! + nx * offset}
                    y2={target.y! + ny * offset}
                    stroke={MATCH_COLOURS[t]}
                    strokeWidth={width}
                    strokeOpacity={0.85}
                  />
                );
              });
            })}
            {nodes.map((n) =>
              n.centre ? (
                <g key={n.id} transform={`translate(${n.x} ${n.y})`} aria-label={`This account, ${n.id}`} role="img">
                  <circle r={16} fill="#212529" />
                  <text y={32} textAnchor="middle" fontSize={12} fontWeight={700} fill="#212529">
                    {label(n.id)}
                  </text>
                </g>
              ) : (
                <a
                  key={n.id}
                  href={`${BASE}/accounts/${encodeURIComponent(n.id)}`}
                  aria-label={`Account ${n.id}, link score ${score(n.score)}`}
                  onClick={(e) => {
                    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                    e.preventDefault();
                    navigate(`/accounts/${encodeURIComponent(n.id)}`);
                  }}
                  className="graph-node"
                >
                  <g transform={`translate(${n.x} ${n.y})`}>
                    <circle r={11} fill="#ffffff" stroke="#212529" strokeWidth={2} />
                    <text y={25} textAnchor="middle" fontSize={11} fill="#212529">
                      {label(n.id)}
                    </text>
                  </g>
                </a>
              ),
            )}
          </svg>
          <Table.ScrollContainer minWidth={420}>
            <Table aria-label="Linked accounts" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Account</Table.Th>
                  <Table.Th scope="col">Score</Table.Th>
                  <Table.Th scope="col">Shares</Table.Th>
                  <Table.Th scope="col">Lists</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {linked.slice(0, 100).map((l) => (
                  <Table.Tr key={l.account_id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/accounts/${encodeURIComponent(l.account_id)}`}>
                        {l.account_id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{score(l.score)}</Table.Td>
                    <Table.Td>{l.match_type.join(', ')}</Table.Td>
                    <Table.Td>{l.lists.join(', ') || '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Card>
  );
}
