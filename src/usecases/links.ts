/**
 * Linked accounts: the accounts that share an identifier with an account (authenticate) or
 * with a session (unauthenticated), how, and how confidently. The searches are the history
 * repository's (each by an index, bounded); the confidence is domain/linking's.
 */
import type { LinkedAccount, MatchType } from '../api-types';
import { linkScore, NETWORK_CROWD_LIMIT, type LinkEvidence } from '../domain/linking';
import type { AccountRecord, AccountRepository, IdentifierColumn } from '../storage/repositories/accounts';
import type { AccountSessionRow, HistoryRepository, SessionIdentifier } from '../storage/repositories/history';
import type { ListRepository } from '../storage/repositories/lists';

/** The interface caps the count at 1,500; searches stop one past it. */
export const LINK_CAP = 1500;
/** Sessions of the account whose identifiers are followed (the newest). */
export const SESSIONS_FOLLOWED = 50;
/** Network matches: the same address within a day, the same block within an hour. */
const IP_WINDOW_MS = 24 * 3_600_000;
const BLOCK_WINDOW_MS = 3_600_000;
/** Networks whose addresses are shared by design: not evidence of one person. */
const SHARED_NETWORKS = new Set(['hosting', 'private_relay']);

export interface LinkDeps {
  accounts: AccountRepository;
  history: HistoryRepository;
  lists: ListRepository;
}

export interface Link {
  accountId: string;
  score: number;
  matchTypes: MatchType[];
}

const SESSION_IDENTIFIERS: [SessionIdentifier, MatchType, keyof AccountSessionRow][] = [
  ['browser_fingerprint', 'browser', 'browserFingerprint'],
  ['device_id', 'device', 'deviceId'],
  ['mobile_id', 'mobile_id', 'mobileId'],
  ['apple_device_key', 'apple_device_check', 'appleDeviceKey'],
];

const ACCOUNT_IDENTIFIERS: [IdentifierColumn, MatchType, keyof AccountRecord][] = [
  ['email_key', 'email', 'emailKey'],
  ['phone_key', 'phone', 'phoneKey'],
  ['username_key', 'username', 'usernameKey'],
  ['name_key', 'name', 'nameKey'],
];

export function makeLinks({ accounts, history, lists }: LinkDeps) {
  /** Accounts found per identifier value, with how many accounts share it (both ends included). */
  async function collect(
    projectId: string,
    sessions: AccountSessionRow[],
    account: AccountRecord | undefined,
    excludeAccount: string | undefined,
  ): Promise<Map<string, LinkEvidence[]>> {
    const found = new Map<string, LinkEvidence[]>();
    const add = (ids: string[], type: MatchType, self: number) => {
      const sharedBy = ids.length + self;
      for (const id of ids) {
        const list = found.get(id) ?? [];
        if (!list.some((e) => e.type === type && e.sharedBy <= sharedBy)) list.push({ type, sharedBy });
        found.set(id, list);
      }
    };
    const self = excludeAccount === undefined ? 0 : 1;

    for (const [column, type, key] of SESSION_IDENTIFIERS) {
      const values = [...new Set(sessions.map((s) => s[key]).filter((v): v is string => typeof v === 'string' && v !== ''))];
      for (const value of values) add(await history.accountsSharing(projectId, column, value, excludeAccount, LINK_CAP + 1), type, self);
    }

    for (const s of sessions.slice(0, 10)) {
      if (s.connectionType && SHARED_NETWORKS.has(s.connectionType)) continue;
      const t = s.startTime.getTime();
      const onIp = await history.accountsOnNetwork(projectId, 'ip_address', s.ipAddress, new Date(t - IP_WINDOW_MS), new Date(t + IP_WINDOW_MS), excludeAccount, NETWORK_CROWD_LIMIT + 1);
      if (onIp.length < NETWORK_CROWD_LIMIT) add(onIp, 'network', self);
      if (s.ipBlock) {
        const onBlock = await history.accountsOnNetwork(projectId, 'ip_block', s.ipBlock, new Date(t - BLOCK_WINDOW_MS), new Date(t + BLOCK_WINDOW_MS), excludeAccount, NETWORK_CROWD_LIMIT + 1);
        // A block is a neighbourhood, not an address: it counts as if twice as many accounts shared it.
        if (onBlock.length < NETWORK_CROWD_LIMIT) add(onBlock.filter((id) => !onIp.includes(id)), 'network', self + onBlock.length);
      }
    }

    if (account) {
      for (const [column, type, key] of ACCOUNT_IDENTIFIERS) {
        const value = account[key];
        if (typeof value === 'string' && value) add(await accounts.withIdentifier(projectId, column, value, account.id, LINK_CAP + 1), type, 1);
      }
    }
    return found;
  }

  return {
    /** The links, strongest first; within the account's group when groups are on. */
    async find(
      projectId: string,
      from: { sessions: AccountSessionRow[]; account?: AccountRecord; groupsEnabled: boolean; group?: string },
    ): Promise<Link[]> {
      const evidence = await collect(projectId, from.sessions, from.account, from.account?.id);
      let ids = [...evidence.keys()];
      if (from.groupsEnabled) {
        const records = await accounts.findMany(projectId, ids);
        const inGroup = new Set(records.filter((r) => r.group === from.group).map((r) => r.id));
        ids = ids.filter((id) => inGroup.has(id));
      }
      return ids
        .map((accountId) => {
          const e = evidence.get(accountId)!;
          return { accountId, score: linkScore(e), matchTypes: [...new Set(e.map((x) => x.type))] };
        })
        .sort((a, b) => b.score - a.score || a.accountId.localeCompare(b.accountId));
    },

    /** The interface's LinkedAccount for each link (at most LINK_CAP). */
    async describe(projectId: string, links: Link[]): Promise<LinkedAccount[]> {
      const shown = links.slice(0, LINK_CAP);
      const ids = shown.map((l) => l.accountId);
      const [records, memberships, seen] = await Promise.all([accounts.findMany(projectId, ids), lists.ofAccounts(projectId, ids), history.seen(projectId, ids)]);
      const byId = new Map(records.map((r) => [r.id, r]));
      return shown.map((link) => {
        const r = byId.get(link.accountId);
        const s = seen.get(link.accountId);
        const out: LinkedAccount = {
          account_id: link.accountId,
          score: link.score,
          expected_countries: r?.expectedCountries ?? [],
          first_seen: s ? s.first.toISOString() : null,
          last_seen: s ? s.last.toISOString() : null,
          match_type: link.matchTypes,
          lists: memberships.get(link.accountId) ?? [],
          metadata: r?.metadata ?? {},
        };
        if (r?.email) out.email = r.email;
        if (r?.phone) out.phone = r.phone;
        if (r?.firstName) out.first_name = r.firstName;
        if (r?.lastName) out.last_name = r.lastName;
        if (r?.username) out.username = r.username;
        return out;
      });
    },
  };
}

export type Links = ReturnType<typeof makeLinks>;
