/**
 * The evaluation's reads' rows made the domain's values: sessions, accounts with their lists,
 * the counts' answers, the link search's branches.
 */
import type { EvaluatedSession } from '../../api-types';
import type {
  AccountWithLists,
  CurrentSession,
  EmailHistoryFacts,
  IdentifierMatch,
  LinkedRecord,
  LinkSearch,
  NetworkMatch,
  PastSession,
  StoredUniques,
} from '../../domain/evaluation';
import { byCodeUnits } from '../../domain/order';
import type { SdkFacts } from '../../domain/session/sdk-facts';
import type { SignalHistory } from '../../domain/signals';
import {
  toAccountRecord,
  toLinkedAccountRecord,
  type AccountRow,
  type LinkedAccountRow,
} from '../repositories/accounts';
import type { CountsQuery } from './sql';

/** A statement's rows. */
export type Rows = Record<string, unknown>[];

export function toPastSession(r: Record<string, unknown>): PastSession {
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const out: PastSession = {
    id: String(r.id),
    startTime: new Date(Number(r.start_time)),
    deviceId: String(r.device_id),
    browserFingerprint: str(r.browser_fingerprint),
    ipAddress: String(r.ip_address),
    ipBlock: str(r.ip_block),
    connectionType: str(r.connection_type),
    countryCode: str(r.country_code),
    mobileId: str(r.mobile_id),
    appleDeviceKey: str(r.apple_device_key),
    scores: typeof r.risk_scores === 'string' ? JSON.parse(r.risk_scores) : undefined,
  };
  if (r.latitude != null && r.longitude != null) {
    out.location = {
      latitude: Number(r.latitude),
      longitude: Number(r.longitude),
      accuracyKm: Number(r.location_accuracy_km ?? 500),
      anonymised: Boolean(r.anonymised),
    };
  }
  return out;
}

/** The email history from a row holding addEmailHistory's answers. */
function emailHistoryOf(r: Record<string, unknown>): EmailHistoryFacts {
  const n = (name: string) => Number(r[name] ?? 0);
  return {
    accountsFromDomain: n('domain_accounts'),
    addressFirstSeen: r.address_first != null ? new Date(Number(r.address_first)) : undefined,
    fraudAccountsWithAddress: n('address_fake') + n('address_blocked'),
    fraudAccountsAtDomain: n('domain_fraud'),
  };
}

/** The kept devices and networks from a row holding uniquesTables' columns. */
function uniquesOf(r: Record<string, unknown>): StoredUniques {
  const n = (name: string) => Number(r[name] ?? 0);
  const at = (name: string) => (r[name] != null ? new Date(Number(r[name])) : undefined);
  const out: StoredUniques = {
    devices: { '1_day': n('devices_1_day'), '7_day': n('devices_7_day') },
    networks: { '1_day': n('networks_1_day'), '7_day': n('networks_7_day') },
  };
  const device = at('device_last');
  const network = at('network_last');
  if (device) out.deviceLastStart = device;
  if (network) out.networkLastStart = network;
  return out;
}

/** Accounts' rows (one per list they are on, or one) as records with their lists, in the order read. */
function withLists<R>(
  found: readonly Rows[],
  record: (r: Record<string, unknown>) => R,
): Map<string, { record: R; lists: string[] }> {
  const out = new Map<string, { record: R; lists: string[] }>();
  for (const chunk of found)
    for (const r of chunk) {
      const id = String(r.id);
      const entry = out.get(id) ?? { record: record(r), lists: [] };
      if (r.list_name != null) entry.lists.push(String(r.list_name));
      out.set(id, entry);
    }
  // In code-unit order on both engines (PostgreSQL's ORDER BY follows the database's collation).
  for (const entry of out.values()) entry.lists.sort(byCodeUnits);
  return out;
}

/** The evaluation's reads' rows made the domain's values (on the caller's thread). */
export const decode = {
  /** The session with the accounts it was used with (oldest link first) and the history read with it. */
  session(found: Rows): { session: CurrentSession; history: PastSession[] } | undefined {
    const all = found;
    const own = all
      .filter((r) => Number(r.part) === 0)
      .sort(
        (a, b) => Number(a.linked_at) - Number(b.linked_at) || byCodeUnits(String(a.account_id), String(b.account_id)),
      );
    const [first] = own;
    if (first === undefined) return undefined;
    const facts = JSON.parse(String(first.facts)) as EvaluatedSession;
    const sdk: SdkFacts = first.sdk
      ? (JSON.parse(String(first.sdk)) as SdkFacts)
      : { source: facts.source ?? 'web', device_id: facts.device_id ?? '' };
    const accountIds = own.filter((r) => r.account_id != null).map((r) => String(r.account_id));
    return {
      // (Object.assign: a spread of the past session is far slower on this hot path.)
      session: Object.assign(toPastSession(first), { facts, sdk, accountIds }),
      history: all.filter((r) => Number(r.part) === 1).map(toPastSession),
    };
  },

  pastSessions(found: Rows): PastSession[] {
    return found.map(toPastSession);
  },

  pastSession(found: Rows): PastSession | undefined {
    const [r] = found;
    return r && toPastSession(r);
  },

  /** Accounts with their lists (list names in code-unit order), in the order read. */
  accounts(found: readonly Rows[]): Map<string, AccountWithLists> {
    return withLists(found, (r) => toAccountRecord(r as AccountRow));
  },

  /** Linked accounts (LINKED_ACCOUNT_COLUMNS) with their lists. */
  linked(found: readonly Rows[]): Map<string, LinkedRecord> {
    return withLists(found, (r) => toLinkedAccountRecord(r as LinkedAccountRow));
  },

  counts(
    found: Rows,
    q: CountsQuery,
  ): {
    network: Omit<SignalHistory, 'previous'>;
    accountOnIp: boolean;
    email?: EmailHistoryFacts;
    uniques?: StoredUniques;
  } {
    const [r] = found;
    if (!r) throw new Error('counts: a SELECT without FROM returned no row');
    const n = (name: string) => Number(r[name] ?? 0);
    return {
      network: {
        fraudOnIp: n('ip30_fake') + n('ip30_blocked'),
        fraudOnBlock: n('block30_fake') + n('block30_blocked'),
        ipFakeSessions: n('ever_fake'),
        ipBlockedAccounts: n('ever_blocked'),
        ipDistinctAccounts: n('ip_accounts'),
      },
      accountOnIp: n('account_on_ip') === 1,
      ...(q.email ? { email: emailHistoryOf(r) } : {}),
      ...(q.uniques ? { uniques: uniquesOf(r) } : {}),
    };
  },

  emailHistory(found: Rows): EmailHistoryFacts {
    return emailHistoryOf(found[0] ?? {});
  },

  uniques(found: Rows): StoredUniques {
    return uniquesOf(found[0] ?? {});
  },

  /** Each searched identifier's and followed network's accounts, from the branches' rows. */
  links(found: Rows, search: LinkSearch): { identifiers: IdentifierMatch[]; networks: NetworkMatch[] } {
    const byBranch = new Map<number, string[]>();
    for (const r of found) {
      const b = Number(r.b);
      const list = byBranch.get(b);
      if (list) list.push(String(r.account_id));
      else byBranch.set(b, [String(r.account_id)]);
    }
    let i = 0;
    const next = () => byBranch.get(i++) ?? [];
    const identifiers = search.identifiers.map(({ type, value }) => ({ type, value, accountIds: next() }));
    const networks = search.networks.map((n) => ({
      sessionId: n.sessionId,
      onIp: next(),
      onBlock: n.block ? next() : [],
    }));
    return { identifiers, networks };
  },
};
