/**
 * Linked accounts from gathered matches: what to search for (the identifiers of the followed
 * sessions and of the account), and, from what the search found, the evidence per account and
 * the links with their confidence (domain/linking). Pure.
 */
import type { LinkedAccount, MatchType } from '../../api-types';
import { crowdLimit, evidenceWeight, linkScore, type LinkEvidence } from '../linking';
import { DAY_MS, HOUR_MS } from '../numbers';
import { byCodeUnits } from '../order';
import type { AccountRecord, IdentifierMatch, LinkedRecord, NetworkMatch, PastSession } from './facts';

/** The interface caps the count at 1,500; the response lists the strongest of them. */
export const LINK_CAP = 1500;
/** Sessions of the account whose identifiers are followed (the newest). */
export const SESSIONS_FOLLOWED = 50;
/** Of those, the newest whose address and block are followed. */
export const NETWORK_SESSIONS_FOLLOWED = 10;
/** Network matches: the same address within a day, the same block within an hour. */
export const IP_WINDOW_MS = DAY_MS;
export const BLOCK_WINDOW_MS = HOUR_MS;
/** Networks whose addresses are shared by design: not evidence of one person. */
const SHARED_NETWORKS: ReadonlySet<string> = new Set(['hosting', 'private_relay']);

export interface Link {
  accountId: string;
  score: number;
  matchTypes: MatchType[];
}

type SessionKey = 'browserFingerprint' | 'deviceId' | 'mobileId' | 'appleDeviceKey';
type AccountKey = 'emailKey' | 'phoneKey' | 'usernameKey' | 'nameKey';

/**
 * The session identifiers and the match each makes (docs/scoring.md, "Linked accounts"): the
 * SDK's stored id (`device_id`, kept in the browser's or app's own storage) is the same browser
 * instance or app install, a `browser` match; the fingerprint of hardware and rendering is the
 * same kind of machine, a `device` match; the native ids match as themselves.
 */
export const SESSION_IDENTIFIERS: readonly { type: MatchType; key: SessionKey }[] = [
  { type: 'browser', key: 'deviceId' },
  { type: 'device', key: 'browserFingerprint' },
  { type: 'mobile_id', key: 'mobileId' },
  { type: 'apple_device_check', key: 'appleDeviceKey' },
];

export const ACCOUNT_IDENTIFIERS: readonly { type: MatchType; key: AccountKey }[] = [
  { type: 'email', key: 'emailKey' },
  { type: 'phone', key: 'phoneKey' },
  { type: 'username', key: 'usernameKey' },
  { type: 'name', key: 'nameKey' },
];

/**
 * How many accounts the search reads of those sharing an identifier of the type: one past the
 * most that can still be evidence (the type's crowd limit, at most LINK_CAP for a browser
 * match). Reading one more says the identifier is past its limit, whatever the crowd behind it,
 * so the cost of a search is bounded by what can count, not by how many share the identifier.
 */
export function sharersToRead(type: MatchType): number {
  return Math.min(crowdLimit(type), LINK_CAP) + 1;
}

/** What the search looks up: identifier values (by type) and the followed sessions' networks. */
export interface LinkSearch {
  identifiers: { type: MatchType; value: string; of: 'session' | 'account' }[];
  networks: {
    sessionId: string;
    ip: string;
    block?: string;
    ipFrom: Date;
    ipTo: Date;
    blockFrom: Date;
    blockTo: Date;
  }[];
  /** The account whose own links are not evidence (authenticate). */
  excludeAccount?: string;
}

/** The searches for links from `sessions` (newest first) and, for authenticate, the account. */
export function linkSearch(sessions: readonly PastSession[], account: AccountRecord | undefined): LinkSearch {
  const identifiers: LinkSearch['identifiers'] = [];
  for (const { type, key } of SESSION_IDENTIFIERS) {
    const values = new Set(sessions.map((s) => s[key]).filter((v): v is string => typeof v === 'string' && v !== ''));
    for (const value of values) identifiers.push({ type, value, of: 'session' });
  }
  if (account) {
    for (const { type, key } of ACCOUNT_IDENTIFIERS) {
      const value = account[key];
      if (typeof value === 'string' && value) identifiers.push({ type, value, of: 'account' });
    }
  }
  const networks = sessions
    .slice(0, NETWORK_SESSIONS_FOLLOWED)
    .filter((s) => !(s.connectionType && SHARED_NETWORKS.has(s.connectionType)))
    .map((s) => {
      const t = s.startTime.getTime();
      return {
        sessionId: s.id,
        ip: s.ipAddress,
        block: s.ipBlock,
        ipFrom: new Date(t - IP_WINDOW_MS),
        ipTo: new Date(t + IP_WINDOW_MS),
        blockFrom: new Date(t - BLOCK_WINDOW_MS),
        blockTo: new Date(t + BLOCK_WINDOW_MS),
      };
    });
  return { identifiers, networks, excludeAccount: account?.id };
}

/**
 * The evidence per found account: how many accounts share each identifier (both ends included).
 * An identifier past its type's crowd limit is no evidence, and leaves no trace on the accounts.
 */
export function linkEvidence(
  search: LinkSearch,
  identifiers: readonly IdentifierMatch[],
  networks: readonly NetworkMatch[],
): Map<string, LinkEvidence[]> {
  const found = new Map<string, LinkEvidence[]>();
  const add = (ids: readonly string[], type: MatchType, self: number) => {
    const evidence = { type, sharedBy: ids.length + self };
    if (evidenceWeight(evidence) === 0) return;
    for (const id of ids) {
      const list = found.get(id) ?? [];
      if (!list.some((e) => e.type === type && e.sharedBy <= evidence.sharedBy)) list.push(evidence);
      found.set(id, list);
    }
  };
  const self = search.excludeAccount === undefined ? 0 : 1;
  const matched = new Map(identifiers.map((m) => [`${m.type}\u0000${m.value}`, m.accountIds]));
  for (const { type, value, of } of search.identifiers)
    add(matched.get(`${type}\u0000${value}`) ?? [], type, of === 'account' ? 1 : self);
  const onNetwork = new Map(networks.map((m) => [m.sessionId, m]));
  for (const n of search.networks) {
    const m = onNetwork.get(n.sessionId);
    if (!m) continue;
    add(m.onIp, 'network', self);
    // A block is a neighbourhood, not an address: it counts as if twice as many accounts shared it.
    if (n.block)
      add(
        m.onBlock.filter((id) => !m.onIp.includes(id)),
        'network',
        self + m.onBlock.length,
      );
  }
  return found;
}

/**
 * The accounts an evaluation describes, of those the link search found over the floor: with
 * groups every one (each is then filtered by its group), without only the strongest LINK_CAP
 * (the response lists no more); none when the linked accounts are not asked for and groups are
 * off. An account under the floor is never read.
 */
export function accountsToDescribe(
  search: LinkSearch,
  found: { identifiers: IdentifierMatch[]; networks: NetworkMatch[] },
  ask: { describe: boolean; groupsEnabled: boolean; floor: number },
): string[] {
  if (!ask.describe && !ask.groupsEnabled) return [];
  const evidence = linkEvidence(search, found.identifiers, found.networks);
  const links = linksOf(evidence, new Map(), { enabled: false }, ask.floor);
  return (ask.groupsEnabled ? links : links.slice(0, LINK_CAP)).map((l) => l.accountId);
}

/**
 * The links whose score reaches the floor, strongest first; with `group` set, only accounts in
 * that group. Under the floor a pair is no link: neither listed, counted nor scored.
 */
export function linksOf(
  evidence: Map<string, LinkEvidence[]>,
  linked: Map<string, LinkedRecord>,
  group: { enabled: boolean; name?: string },
  floor: number,
): Link[] {
  return [...evidence.entries()]
    .filter(([id]) => !group.enabled || linked.get(id)?.record.group === group.name)
    .map(([accountId, e]) => ({ accountId, score: linkScore(e), matchTypes: [...new Set(e.map((x) => x.type))] }))
    .filter((l) => l.score > 0 && l.score >= floor)
    .sort((a, b) => b.score - a.score || byCodeUnits(a.accountId, b.accountId));
}

/** The interface's LinkedAccount for each link (at most LINK_CAP). */
export function describeLinks(links: readonly Link[], linked: Map<string, LinkedRecord>): LinkedAccount[] {
  return links.slice(0, LINK_CAP).map((link) => {
    const found = linked.get(link.accountId);
    const r = found?.record;
    const a = r?.aggregates;
    const out: LinkedAccount = {
      account_id: link.accountId,
      score: link.score,
      expected_countries: r?.expectedCountries ?? [],
      first_seen: a?.firstSeen ? a.firstSeen.toISOString() : null,
      last_seen: a?.lastSeen ? a.lastSeen.toISOString() : null,
      match_type: link.matchTypes,
      lists: found?.lists ?? [],
      metadata: r?.metadata ?? {},
    };
    if (r?.email) out.email = r.email;
    if (r?.phone) out.phone = r.phone;
    if (r?.firstName) out.first_name = r.firstName;
    if (r?.lastName) out.last_name = r.lastName;
    if (r?.username) out.username = r.username;
    return out;
  });
}
