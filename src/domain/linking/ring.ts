/**
 * An account's ring: the accounts linked to it (hop 1) and those linked to them (hop 2), each
 * hop kept to its strongest RING_PER_HOP, with what each account is (decision, label, lists) and
 * a summary of the whole. Pure: the link search's matches, the accounts and their labels come in
 * as read; the links are found as the Account API finds them (evaluation/links.ts).
 */
import type { AccountRing, LabelValue, RingEdge, RingNode, RingShare } from '../../api-types';
import {
  linkEvidence,
  linksOf,
  type AccountWithLists,
  type IdentifierMatch,
  type Link,
  type LinkSearch,
  type NetworkMatch,
} from '../evaluation';
import { byCodeUnits } from '../order';
import { listDecision } from '../scoring';

/** The most accounts a hop keeps (the strongest): with the account itself, a ring holds at most 81. */
export const RING_PER_HOP = 40;

export type RingHops = 1 | 2;

/**
 * One search for the links of several accounts: each identifier value once, each followed
 * session's networks once, no account left out (each account's own are taken out of the
 * matches afterwards, `linksOfEach`). Reading the sharers of a value with its searcher among
 * them tells the same as reading them without it: `sharersToRead` is one past the most that can
 * still count, so a read that reaches it is past the crowd limit either way.
 */
export function mergedSearch(searches: readonly LinkSearch[]): LinkSearch {
  const identifiers = new Map<string, LinkSearch['identifiers'][number]>();
  const networks = new Map<string, LinkSearch['networks'][number]>();
  for (const s of searches) {
    for (const i of s.identifiers) identifiers.set(`${i.type}\u0000${i.value}`, { ...i, of: 'session' });
    for (const n of s.networks) networks.set(n.sessionId, n);
  }
  return { identifiers: [...identifiers.values()], networks: [...networks.values()] };
}

/**
 * The most branches (identifier values, addresses, blocks) one statement of the link search
 * holds: SQLite refuses a compound SELECT of more than 500 terms, and a merged search of 40
 * accounts' 50 sessions may hold thousands.
 */
export const BRANCHES_PER_SEARCH = 400;

/** The search in parts of at most `most` branches each (a network with its block is two), in order. */
export function searchParts(search: LinkSearch, most = BRANCHES_PER_SEARCH): LinkSearch[] {
  const parts: LinkSearch[] = [];
  let part: LinkSearch = { identifiers: [], networks: [], excludeAccount: search.excludeAccount };
  let size = 0;
  const room = (n: number) => {
    if (size + n <= most || size === 0) return;
    parts.push(part);
    part = { identifiers: [], networks: [], excludeAccount: search.excludeAccount };
    size = 0;
  };
  for (const i of search.identifiers) {
    room(1);
    part.identifiers.push(i);
    size += 1;
  }
  for (const n of search.networks) {
    const branches = n.block ? 2 : 1;
    room(branches);
    part.networks.push(n);
    size += branches;
  }
  if (size > 0 || parts.length === 0) parts.push(part);
  return parts;
}

/**
 * Each searched account's links over `floor`, strongest first, from the merged search's matches
 * (`mergedSearch`): its own identifiers' and networks' matches without itself, weighed as if it
 * had been searched alone (`excludeAccount` set: linkEvidence counts it among the sharers).
 */
export function linksOfEach(
  searches: readonly LinkSearch[],
  found: { identifiers: readonly IdentifierMatch[]; networks: readonly NetworkMatch[] },
  floor: number,
): Map<string, Link[]> {
  const byValue = new Map(found.identifiers.map((m) => [`${m.type}\u0000${m.value}`, m.accountIds]));
  const bySession = new Map(found.networks.map((m) => [m.sessionId, m]));
  const out = new Map<string, Link[]>();
  for (const search of searches) {
    const self = search.excludeAccount;
    if (self === undefined) continue;
    const others = (ids: readonly string[]) => ids.filter((id) => id !== self);
    const identifiers = search.identifiers.map(({ type, value }) => ({
      type,
      value,
      accountIds: others(byValue.get(`${type}\u0000${value}`) ?? []),
    }));
    const networks = search.networks.flatMap((n) => {
      const m = bySession.get(n.sessionId);
      return m ? [{ sessionId: n.sessionId, onIp: others(m.onIp), onBlock: others(m.onBlock) }] : [];
    });
    const evidence = linkEvidence(search, identifiers, networks);
    out.set(self, linksOf(evidence, new Map(), { enabled: false }, floor));
  }
  return out;
}

/**
 * The hop-2 accounts: those linked to a hop-1 account that are neither the account nor in hop 1,
 * each ranked by its strongest such link, the strongest RING_PER_HOP kept.
 */
export function secondHop(
  accountId: string,
  firstHop: readonly string[],
  linksOfFirst: ReadonlyMap<string, readonly Link[]>,
): { kept: { accountId: string; score: number }[]; truncated: boolean } {
  const nearer = new Set([accountId, ...firstHop]);
  const best = new Map<string, number>();
  for (const links of linksOfFirst.values())
    for (const l of links)
      if (!nearer.has(l.accountId)) best.set(l.accountId, Math.max(best.get(l.accountId) ?? 0, l.score));
  const ranked = [...best.entries()]
    .map(([id, score]) => ({ accountId: id, score }))
    .sort((a, b) => b.score - a.score || byCodeUnits(a.accountId, b.accountId));
  return { kept: ranked.slice(0, RING_PER_HOP), truncated: ranked.length > RING_PER_HOP };
}

/** What the ring is assembled from: the links found and the accounts read. */
export interface RingFacts {
  accountId: string;
  hops: RingHops;
  /** The account's links, strongest first (all of them: hop 1 keeps the strongest). */
  links: readonly Link[];
  /** Each hop-1 account's links (hops 2 only). */
  linksOfFirst: ReadonlyMap<string, readonly Link[]>;
  /** The ring's accounts with their lists, as read (one erased meanwhile is missing). */
  accounts: ReadonlyMap<string, AccountWithLists>;
  labels: ReadonlyMap<string, LabelValue>;
  /** With groups on, the account's group: an account of another is left out. */
  group?: { enabled: boolean; name?: string | undefined };
}

const share = (count: number, size: number): RingShare => ({
  count,
  share: Math.round((count / size) * 10_000) / 10_000,
});

/** The ring as GET /account/{account_id}/ring answers it (but its request id). */
export function assembleRing(f: RingFacts): Omit<AccountRing, 'request_id'> {
  const first = f.links.slice(0, RING_PER_HOP);
  const second =
    f.hops === 2
      ? secondHop(
          f.accountId,
          first.map((l) => l.accountId),
          f.linksOfFirst,
        )
      : { kept: [], truncated: false };
  const inGroup = (id: string) => !f.group?.enabled || f.accounts.get(id)?.record.group === f.group.name;
  const placed = [
    { accountId: f.accountId, hop: 0, score: undefined as number | undefined },
    ...first.map((l) => ({ accountId: l.accountId, hop: 1, score: l.score as number | undefined })),
    ...second.kept.map((l) => ({ accountId: l.accountId, hop: 2, score: l.score as number | undefined })),
  ].filter((p) => p.hop === 0 || (f.accounts.has(p.accountId) && inGroup(p.accountId)));
  const nodes: RingNode[] = placed.map((p) => nodeOf(p, f.accounts.get(p.accountId), f.labels.get(p.accountId)));
  const kept = new Set(nodes.map((n) => n.account_id));
  const edges: RingEdge[] = [];
  const seen = new Set<string>();
  const addEdges = (from: string, links: readonly Link[]) => {
    for (const l of links) {
      const pair = [from, l.accountId].sort(byCodeUnits).join('\u0000');
      if (!kept.has(l.accountId) || seen.has(pair)) continue;
      seen.add(pair);
      edges.push({ from, to: l.accountId, match_type: l.matchTypes, score: l.score });
    }
  };
  if (kept.has(f.accountId)) addEdges(f.accountId, first);
  for (const l of first) if (kept.has(l.accountId)) addEdges(l.accountId, f.linksOfFirst.get(l.accountId) ?? []);
  const size = nodes.length;
  const count = (test: (n: RingNode) => boolean) => share(nodes.filter(test).length, size);
  return {
    account_id: f.accountId,
    hops: f.hops,
    nodes,
    edges,
    summary: {
      size,
      fake: count((n) => n.decision === 'Fake'),
      blocked: count((n) => n.lists.includes('block')),
      labelled_fraud: count((n) => n.label === 'fraud'),
      labelled_legit: count((n) => n.label === 'legit'),
      truncated: f.links.length > RING_PER_HOP || second.truncated,
    },
  };
}

function nodeOf(
  p: { accountId: string; hop: number; score: number | undefined },
  account: AccountWithLists | undefined,
  label: LabelValue | undefined,
): RingNode {
  const lists = account?.lists ?? [];
  const decided = listDecision(lists);
  return {
    account_id: p.accountId,
    hop: p.hop,
    decision: account?.record.decision ?? null,
    label: label ?? null,
    lists,
    account_score: account?.record.scores?.account_score ?? null,
    ...(decided ? { list_decision: decided } : {}),
    ...(p.score === undefined ? {} : { link_score: p.score }),
  };
}

/**
 * The accounts a ring block puts on `block`: the ring's, or those `asked` (each must be in the
 * ring); `outside` names the asked accounts the ring does not hold. In code-unit order.
 */
export function ringBlockTargets(
  ring: Pick<AccountRing, 'nodes'>,
  asked: readonly string[] | undefined,
): { targets: string[]; outside: string[]; alreadyBlocked: number } {
  const inRing = new Map(ring.nodes.map((n) => [n.account_id, n]));
  const wanted = asked ?? [...inRing.keys()];
  const outside = wanted.filter((id) => !inRing.has(id));
  const targets = wanted.filter((id) => inRing.has(id)).sort(byCodeUnits);
  const alreadyBlocked = targets.filter((id) => inRing.get(id)!.lists.includes('block')).length;
  return { targets, outside, alreadyBlocked };
}

/** The audit of a ring block: how many accounts joined `block`, and each of them. */
export function ringBlockAudit(added: readonly string[]): { field: string; before: null; after: string | number }[] {
  return [
    { field: 'blocked_count', before: null, after: added.length },
    ...added.map((id) => ({ field: 'blocked_account', before: null, after: id })),
  ];
}
