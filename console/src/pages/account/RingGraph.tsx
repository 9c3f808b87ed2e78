/**
 * The ring drawn (GET /account/{id}/ring): the account pinned in the middle, each hop on a
 * ring around it, placed by d3-force (ISC; run to rest before drawing, no animation,
 * deterministic), nearer when the link is stronger. A node's fill is its last decision and carries its letter (F Fake, R Real,
 * – none); its outline says its label (dashed: fraud, double: legit); a square badge with a
 * letter its list (B block, A allow, V review, L another); hop-2 accounts are smaller and
 * fainter. Edges: one line per match type, coloured by type, as wide as the link's score. Never
 * colour alone: every colour has a letter or a shape beside it (RingLegend says which).
 */
import { Group, Text } from '@mantine/core';
import {
  forceCollide,
  forceLink,
  forceManyBody,
  forceRadial,
  forceSimulation,
  type SimulationNodeDatum,
} from 'd3-force';
import { useMemo } from 'react';
import type { AccountRing, MatchType, RingNode } from '../../api';
import { RED, score } from '../../components/format';
import { BASE, navigate } from '../../router';

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

/** A node's fill by its last decision, with the letter drawn on it (white on each: above 4.5:1). */
export const DECISION_MARKS = {
  Fake: { fill: RED, letter: 'F', name: 'Fake' },
  Real: { fill: '#1f5fa8', letter: 'R', name: 'Real' },
  none: { fill: '#495057', letter: '–', name: 'not evaluated' },
} as const;

/** The badge of a list membership: the list that decides first (block, allow), then review, then any other. */
export function listBadge(lists: readonly string[]): { letter: string; list: string } | undefined {
  for (const [list, letter] of [
    ['block', 'B'],
    ['allow', 'A'],
    ['review', 'V'],
  ] as const)
    if (lists.includes(list)) return { letter, list };
  return lists.length > 0 ? { letter: 'L', list: lists[0]! } : undefined;
}

const decisionOf = (n: RingNode) => DECISION_MARKS[n.decision ?? 'none'];
const SIZE = 600;
const RADIUS = [16, 12, 9] as const;

interface Placed extends SimulationNodeDatum {
  node: RingNode;
}

/**
 * Each hop on a ring of its own around the account, a stronger link nearer (hop 1 between 90
 * and 180 from the middle, hop 2 between 210 and 270); the links pull linked accounts together
 * along their ring and the nodes keep apart.
 */
function radiusOf(node: RingNode): number {
  const weak = 1 - (node.link_score ?? 1);
  return node.hop === 1 ? 90 + 90 * weak : 210 + 60 * weak;
}

function layout(ring: AccountRing): Placed[] {
  // The account is pinned in the middle (a centring force would pull the others onto it).
  const placed: Placed[] = ring.nodes.map((node) => (node.hop === 0 ? { node, fx: 0, fy: 0 } : { node }));
  const links = ring.edges.map((e) => ({ source: e.from, target: e.to, strength: e.score }));
  const simulation = forceSimulation(placed)
    .force(
      'link',
      forceLink<Placed, (typeof links)[number]>(links)
        .id((p) => p.node.account_id)
        .distance(80)
        .strength(0.05),
    )
    .force('radial', forceRadial<Placed>((p) => (p.node.hop === 0 ? 0 : radiusOf(p.node)), 0, 0).strength(0.9))
    .force('charge', forceManyBody().strength(-120))
    .force('collide', forceCollide(26))
    .stop();
  // Deterministic: d3-force places the nodes on a phyllotaxis spiral before ticking (no randomness).
  for (let i = 0; i < 300; i++) simulation.tick();
  // Held inside the drawing, with room for the labels.
  const reach = Math.max(...placed.map((p) => Math.hypot(p.x!, p.y!)));
  const scale = reach > SIZE / 2 - 40 ? (SIZE / 2 - 40) / reach : 1;
  for (const p of placed) [p.x, p.y] = [p.x! * scale, p.y! * scale];
  return placed;
}

const short = (id: string) => (id.length > 14 ? `${id.slice(0, 13)}…` : id);

/** What a node says to a screen reader and on hover: the facts its colours and marks show. */
export function describeNode(n: RingNode): string {
  const facts = [
    n.hop === 0 ? 'this account' : `hop ${n.hop}`,
    n.decision ?? 'not evaluated',
    ...(n.label ? [`labelled ${n.label}`] : []),
    ...(n.lists.length > 0 ? [`on ${n.lists.join(', ')}`] : []),
    ...(n.link_score === undefined ? [] : [`link score ${score(n.link_score)}`]),
  ];
  return `Account ${n.account_id}, ${facts.join(', ')}`;
}

/** A node's shape and name: what the link (or the account's own image) holds. */
function NodeShape({ node }: { node: RingNode }) {
  const r = RADIUS[node.hop] ?? RADIUS[2];
  return (
    <>
      <circle
        r={r}
        fill={decisionOf(node).fill}
        stroke={node.label ? '#212529' : '#ffffff'}
        strokeWidth={node.label ? 3 : 1.5}
        strokeDasharray={node.label === 'fraud' ? '4 2' : undefined}
      />
      {node.label === 'legit' && (
        // The second ring of a legit label, drawn as a path so that a node stays one circle.
        <path
          d={`M ${-(r + 4)} 0 a ${r + 4} ${r + 4} 0 1 0 ${2 * (r + 4)} 0 a ${r + 4} ${r + 4} 0 1 0 ${-2 * (r + 4)} 0`}
          fill="none"
          stroke="#212529"
          strokeWidth={1.5}
        />
      )}
      <text
        y={r + 14}
        textAnchor="middle"
        fontSize={node.hop === 0 ? 12 : 11}
        fontWeight={node.hop === 0 ? 700 : 400}
        fill="#212529"
        // A white halo keeps the name readable over the edges.
        stroke="#ffffff"
        strokeWidth={3}
        paintOrder="stroke"
      >
        {short(node.account_id)}
      </text>
    </>
  );
}

/**
 * The decision's letter and the list's badge, over the shape: hidden from screen readers (the
 * node's name says both) and from the pointer (a click goes to the link beneath).
 */
function NodeLetters({ node }: { node: RingNode }) {
  const r = RADIUS[node.hop] ?? RADIUS[2];
  const badge = listBadge(node.lists);
  return (
    <g aria-hidden="true" pointerEvents="none">
      <text y={4} textAnchor="middle" fontSize={node.hop === 2 ? 9 : 11} fontWeight={700} fill="#ffffff">
        {decisionOf(node).letter}
      </text>
      {badge && (
        <g transform={`translate(${r * 0.7} ${-r * 0.7 - 9})`} data-list={badge.list}>
          <rect width={12} height={12} rx={2} fill="#212529" stroke="#ffffff" />
          <text x={6} y={9.5} textAnchor="middle" fontSize={9} fontWeight={700} fill="#ffffff">
            {badge.letter}
          </text>
        </g>
      )}
    </g>
  );
}

/** The drawing; each other account is a link (Tab reaches it, Enter opens it). */
export function RingGraph({ ring }: { ring: AccountRing }) {
  const placed = useMemo(() => layout(ring), [ring]);
  const at = new Map(placed.map((p) => [p.node.account_id, p]));
  // As large as the drawing needs (a few accounts make a small graph), at most SIZE.
  const half = Math.min(SIZE / 2, Math.max(130, ...placed.map((p) => Math.hypot(p.x!, p.y!) + 44)));
  return (
    <svg
      viewBox={`${-half} ${-half} ${2 * half} ${2 * half}`}
      width="100%"
      style={{ maxWidth: 2 * half, display: 'block', margin: '0 auto' }}
      role="group"
      aria-label={`Graph of the ring of ${ring.account_id}: ${ring.nodes.length} accounts`}
      data-testid="linked-graph"
    >
      {ring.edges.flatMap((e) => {
        const [a, b] = [at.get(e.from)!, at.get(e.to)!];
        // One line per match type, side by side across the edge.
        const [dx, dy] = [b.x! - a.x!, b.y! - a.y!];
        const length = Math.hypot(dx, dy) || 1;
        const [nx, ny] = [-dy / length, dx / length];
        const width = 1 + 4 * e.score;
        const faint = a.node.hop === 2 || b.node.hop === 2;
        return e.match_type.map((t, i) => {
          const offset = (i - (e.match_type.length - 1) / 2) * (width + 1);
          return (
            <line
              key={`${e.from}-${e.to}-${t}`}
              data-match-type={t}
              x1={a.x! + nx * offset}
              y1={a.y! + ny * offset}
              x2={b.x! + nx * offset}
              y2={b.y! + ny * offset}
              stroke={MATCH_COLOURS[t]}
              strokeWidth={width}
              strokeOpacity={faint ? 0.6 : 0.85}
            />
          );
        });
      })}
      {placed.map(({ node, x, y }) => (
        <g
          key={node.account_id}
          transform={`translate(${x} ${y})`}
          opacity={node.hop === 2 ? 0.8 : 1}
          data-account={node.account_id}
          data-hop={node.hop}
          data-decision={node.decision ?? 'none'}
          data-label={node.label ?? 'none'}
          data-lists={node.lists.join(' ')}
        >
          {node.hop === 0 ? (
            <g role="img" aria-label={describeNode(node)}>
              <NodeShape node={node} />
            </g>
          ) : (
            <a
              href={`${BASE}/accounts/${encodeURIComponent(node.account_id)}`}
              aria-label={describeNode(node)}
              onClick={(e) => {
                if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                e.preventDefault();
                navigate(`/accounts/${encodeURIComponent(node.account_id)}`);
              }}
              className="graph-node"
            >
              <title>{describeNode(node)}</title>
              <NodeShape node={node} />
            </a>
          )}
          <NodeLetters node={node} />
        </g>
      ))}
    </svg>
  );
}

/** The key to the drawing: each colour with its letter or shape, and the match types present. */
export function RingLegend({ ring }: { ring: AccountRing }) {
  const types = [...new Set(ring.edges.flatMap((e) => e.match_type))];
  const swatch = (fill: string, letter: string) => (
    <svg width="18" height="18" aria-hidden="true">
      <circle cx={9} cy={9} r={8} fill={fill} />
      <text x={9} y={13} textAnchor="middle" fontSize={10} fontWeight={700} fill="#ffffff">
        {letter}
      </text>
    </svg>
  );
  return (
    <Group gap="md" my="xs" aria-label="Legend" role="list">
      {Object.values(DECISION_MARKS).map((m) => (
        <Group key={m.name} gap={4} role="listitem">
          {swatch(m.fill, m.letter)}
          <Text size="sm">{m.name}</Text>
        </Group>
      ))}
      <Group gap={4} role="listitem">
        <svg width="18" height="18" aria-hidden="true">
          <circle cx={9} cy={9} r={7} fill="#ffffff" stroke="#212529" strokeWidth={2.5} strokeDasharray="4 2" />
        </svg>
        <Text size="sm">dashed: labelled fraud</Text>
      </Group>
      <Group gap={4} role="listitem">
        <svg width="18" height="18" aria-hidden="true">
          <circle cx={9} cy={9} r={5} fill="#ffffff" stroke="#212529" strokeWidth={2} />
          <circle cx={9} cy={9} r={8} fill="none" stroke="#212529" strokeWidth={1} />
        </svg>
        <Text size="sm">double: labelled legit</Text>
      </Group>
      <Group gap={4} role="listitem">
        <Text size="sm">badge B block, A allow, V review, L another list; smaller: two hops away</Text>
      </Group>
      {types.map((t) => (
        <Group key={t} gap={4} role="listitem">
          <svg width="18" height="6" aria-hidden="true">
            <rect width="18" height="6" fill={MATCH_COLOURS[t]} />
          </svg>
          <Text size="sm">{t}</Text>
        </Group>
      ))}
    </Group>
  );
}
