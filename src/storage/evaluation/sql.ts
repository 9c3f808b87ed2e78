/**
 * The SQL of the evaluation's reads, set-based: each read is one statement whatever the account's
 * history or the crowd on an address, every branch starts from an index and is bounded.
 * docs/pipeline.md lists them with what each costs.
 */
import type { MatchType } from '../../api-types';
import {
  sharersToRead,
  UNIQUES_COUNTED,
  type EmailQuery,
  type LinkSearch,
  type UniquesQuery,
} from '../../domain/evaluation';
import { DAY_MS } from '../../domain/numbers';
import { COUNTED_UP_TO } from '../../domain/signals/history';
import { identifierSearch } from '../repositories/identifier-accounts';
import { limit } from '../sql';

/** Ids per accounts read: two bound parameters each, well inside SQLite's 32,766. */
export const ACCOUNTS_PER_READ = 5000;

/** The columns of a session that history, linking and the travel rule read (never its facts). */
export const PAST_COLUMNS =
  's.id, s.start_time, s.device_id, s.browser_fingerprint, s.ip_address, s.ip_block, s.connection_type, s.country_code, ' +
  's.mobile_id, s.apple_device_key, s.risk_scores, s.latitude, s.longitude, s.location_accuracy_km, s.anonymised';

/** The account column each kind of account identifier is searched in (the session identifiers are in identifier_accounts). */
const ACCOUNT_IDENTIFIER_COLUMNS: Partial<Record<MatchType, string>> = {
  email: 'email_key',
  phone: 'phone_key',
  username: 'username_key',
  name: 'name_key',
};

/** What the counts statement is asked. */
export interface CountsQuery {
  sessionId: string;
  ip: string;
  block?: string;
  now: Date;
  /** authenticate: whether the account was seen on the address in 30 days (other than by this session). */
  accountId?: string;
  email?: EmailQuery;
  /** authenticate: the account's kept devices and networks in the windows of its details. */
  uniques?: UniquesQuery;
}

/** The email history's questions (authenticate's and the Account API's), added to a compound SELECT. */
export function addEmailHistory(
  add: (name: string, sql: string, ...b: unknown[]) => void,
  projectId: string,
  e: EmailQuery,
) {
  if (e.domain)
    add(
      'domain_accounts',
      `SELECT num_accounts FROM email_domains WHERE project_id = ? AND domain = ?`,
      projectId,
      e.domain,
    );
  if (e.key) {
    add(
      'address_first',
      `SELECT MIN(created_at) FROM accounts WHERE project_id = ? AND email_key = ? AND id <> ?`,
      projectId,
      e.key,
      e.excludeAccount,
    );
    // The decision counted, not filtered on: in the WHERE clause, SQLite's planner (without
    // ANALYZE) took the decision's index (project_id, decision, id) as good as the address's and
    // walked every Fake account of the project.
    add(
      'address_fake',
      `SELECT COUNT(CASE WHEN a.decision = 'Fake' THEN 1 END) FROM accounts a WHERE a.project_id = ? AND a.email_key = ? AND a.id <> ?`,
      projectId,
      e.key,
      e.excludeAccount,
    );
    add(
      'address_blocked',
      `SELECT COUNT(*) FROM list_members m JOIN accounts a ON a.project_id = m.project_id AND a.id = m.account_id
       WHERE m.project_id = ? AND m.list_name = 'block' AND a.email_key = ? AND a.id <> ? AND (a.decision IS NULL OR a.decision <> 'Fake')`,
      projectId,
      e.key,
      e.excludeAccount,
    );
  }
  if (e.domain && e.domainFraud) {
    // Another Fake account at the domain: the first entry of (project_id, email_domain, decision,
    // id) that is not the evaluated account (two at most). Another block-listed one: the domain's
    // kept count of block-listed accounts (migration 0034) against whether the evaluated account
    // is one of them (a key lookup each).
    add(
      'domain_fraud',
      `SELECT CASE WHEN EXISTS (SELECT 1 FROM accounts a
         WHERE a.project_id = ? AND a.email_domain = ? AND a.decision = 'Fake' AND a.id <> ?)
                     OR COALESCE((SELECT d.num_blocked FROM email_domains d WHERE d.project_id = ? AND d.domain = ?), 0)
                        > (SELECT COUNT(*) FROM list_members m JOIN accounts a ON a.project_id = m.project_id AND a.id = m.account_id
                           WHERE m.account_id = ? AND m.project_id = ? AND m.list_name = 'block' AND a.email_domain = ?) THEN 1 ELSE 0 END`,
      projectId,
      e.domain,
      e.excludeAccount,
      projectId,
      e.domain,
      e.excludeAccount,
      projectId,
      e.domain,
    );
  }
}

/**
 * The account's kept devices and networks (migration 0035): per kind one derived table over the
 * week's range of `(project_id, account_id, kind, last_start, value)`, newest first (at most
 * UNIQUES_COUNTED rows, the day's read first), answering the week's count, the day's, and this
 * session's value's newest start when it is in the week (older, it is in neither window:
 * uniques.ts `uniquesWith`). Its columns are fixed; two index ranges, no table rows.
 */
export function uniquesTables(
  projectId: string,
  u: UniquesQuery,
): { columns: string[]; from: string[]; bindings: unknown[] } {
  const out = { columns: [] as string[], from: [] as string[], bindings: [] as unknown[] };
  for (const kind of ['device', 'network'] as const) {
    const alias = `u${kind[0]}`;
    out.columns.push(`${alias}.${kind}s_1_day`, `${alias}.${kind}s_7_day`, `${alias}.${kind}_last`);
    out.from.push(`(SELECT COUNT(CASE WHEN t.last_start >= ? THEN 1 END) AS ${kind}s_1_day, COUNT(*) AS ${kind}s_7_day,
        MAX(CASE WHEN t.value = ? THEN t.last_start END) AS ${kind}_last
      FROM (SELECT u.value, u.last_start FROM account_uniques u
            WHERE u.project_id = ? AND u.account_id = ? AND u.kind = '${kind}' AND u.last_start >= ?
            ORDER BY u.last_start DESC ${limit(UNIQUES_COUNTED)}) AS t) AS ${alias}`);
    out.bindings.push(u.since['1_day'].getTime(), u[kind] ?? null, projectId, u.accountId, u.since['7_day'].getTime());
  }
  return out;
}

/**
 * The link search's statement: the accounts sharing each searched identifier value, and those on
 * each followed session's address and block, each read no further than `sharersToRead` of its
 * type (one past what can still count), one branch each, its rows numbered by branch (`b`);
 * none when there is nothing to search.
 */
export function linkStatement(
  projectId: string,
  search: LinkSearch,
): { key: string; sql: () => string; bindings: unknown[] } | undefined {
  const branches: string[] = [];
  const bindings: unknown[] = [];
  const exclude = search.excludeAccount;
  const notSelf = (column: string) => (exclude === undefined ? '' : ` AND ${column} <> ?`);
  const self = exclude === undefined ? [] : [exclude];
  // Each branch's text is fixed by its kind and type (which fixes how many it reads) and whether
  // an account is left out: the statement's is kept by them (sql.ts textOf).
  const kinds: string[] = [];
  const branch = (kind: string, sql: string, b: unknown[]) => {
    const i = branches.length;
    // The branch number is ours (an integer), never input.
    branches.push(`SELECT ${i} AS b, account_id FROM (${sql}) AS t${i}`);
    kinds.push(kind);
    bindings.push(...b);
  };
  for (const { type, value } of search.identifiers) {
    const column = ACCOUNT_IDENTIFIER_COLUMNS[type];
    const read = sharersToRead(type);
    if (column) {
      branch(
        type,
        `SELECT a.id AS account_id FROM accounts a WHERE a.project_id = ? AND a.${column} = ? AND a.id <> ? ${limit(read)}`,
        [projectId, value, exclude ?? ''],
      );
    } else {
      branch(type, identifierSearch(exclude !== undefined, read), [projectId, type, value, ...self]);
    }
  }
  // The accounts on an address or block in a window, from the accounts kept per network
  // (migration 0042), in the order they were last seen there: one last seen in the window was
  // there in it; one last seen after it was if its newest link there up to the window's end is in
  // the window (read from the account's own links, the address compared as an expression as in
  // 0042's triggers; a scalar subquery, as PostgreSQL may run an EXISTS as one hashed read of
  // every link in the window). A live session's window ends after every link, so the read is the
  // first `sharersToRead` entries of an index however many accounts share the network. (The
  // distinct accounts of the window's links read every one of them on PostgreSQL, which sorts
  // before it can stop: a NAT's thousands.)
  const onNetwork = (column: 'ip_address' | 'ip_block', value: string, from: Date, to: Date) =>
    branch(
      column,
      `SELECT n.account_id FROM network_accounts n
           WHERE n.project_id = ? AND n.network = ? AND n.last_seen >= ?${notSelf('n.account_id')}
             AND (n.last_seen <= ? OR (SELECT MAX(sa.session_start) FROM session_accounts sa
               WHERE sa.project_id = n.project_id AND sa.account_id = n.account_id
                 AND sa.session_start <= ? AND COALESCE(sa.${column}, '') = n.network) >= ?)
           ORDER BY n.last_seen ${limit(sharersToRead('network'))}`,
      [projectId, value, from.getTime(), ...self, to.getTime(), to.getTime(), from.getTime()],
    );
  for (const n of search.networks) {
    onNetwork('ip_address', n.ip, n.ipFrom, n.ipTo);
    if (n.block) onNetwork('ip_block', n.block, n.blockFrom, n.blockTo);
  }
  if (branches.length === 0) return undefined;
  return {
    key: `links ${exclude === undefined ? 'all' : 'other'} ${kinds.join(',')}`,
    sql: () => branches.join('\nUNION ALL\n'),
    bindings,
  };
}

/**
 * At most `upTo` of the address's (or block's) Fake sessions since `since`, other than the one
 * evaluated (and, for a block, other than the address's own): a range of the partial index of
 * Fake sessions (migration 0042), read no further than the count can matter.
 */
function fakeOn(column: 'ip_address' | 'ip_block', upTo: number, otherIp: boolean) {
  const notIp = otherIp ? ' AND s.ip_address <> ?' : '';
  return `SELECT COUNT(*) FROM (SELECT 1 AS one FROM sessions s
      WHERE s.project_id = ? AND s.${column} = ? AND s.decision = 'Fake' AND s.start_time >= ? AND s.id <> ?${notIp}
      ${limit(upTo)}) AS t`;
}

/**
 * At most `upTo` of the accounts seen on a network since `since` (block-listed ones only when
 * `blocked`): a range of `network_accounts` by last seen (migration 0042), left at `upTo`.
 */
function accountsOn(upTo: number, blocked: boolean, extra = '') {
  return `SELECT COUNT(*) FROM (SELECT 1 AS one FROM network_accounts n
      WHERE n.project_id = ? AND n.network = ?${blocked ? ' AND n.blocked = 1' : ''} AND n.last_seen >= ?${extra}
      ${limit(upTo)}) AS t`;
}

/**
 * In one statement: fraud and crowd on the address and its block (the signals' history), and
 * (authenticate) the history of the account's email address and domain and its kept devices and
 * networks. Its text is fixed by the questions asked (`key`: sql.ts textOf keeps it by them).
 * Each network count stops where the signals stop telling counts apart (COUNTED_UP_TO).
 */
export function countsStatement(
  projectId: string,
  q: CountsQuery,
): { key: string; sql: () => string; bindings: unknown[] } {
  const since30 = q.now.getTime() - 30 * DAY_MS;
  const parts: string[] = [];
  const names: string[] = [];
  const bindings: unknown[] = [];
  const from: string[] = [];
  const fromBindings: unknown[] = [];
  // (Each part's text is fixed by its name: the statement's is kept by them, sql.ts textOf.)
  const add = (name: string, sql: string, ...b: unknown[]) => {
    parts.push(`(${sql}) AS ${name}`);
    names.push(name);
    bindings.push(...b);
  };
  const up = COUNTED_UP_TO;
  // fraudOnIp is whether either count is there; fraudOnBlock whether the two make two.
  add('ip30_fake', fakeOn('ip_address', up.fraudOnIp, false), projectId, q.ip, since30, q.sessionId);
  add('ever_fake', fakeOn('ip_address', up.ipFakeSessions, false), projectId, q.ip, 0, q.sessionId);
  add('ip30_blocked', accountsOn(up.fraudOnIp, true), projectId, q.ip, since30);
  add('ever_blocked', accountsOn(up.ipBlockedAccounts, true), projectId, q.ip, 0);
  if (q.block) {
    add('block30_fake', fakeOn('ip_block', up.fraudOnBlock, true), projectId, q.block, since30, q.sessionId, q.ip);
    // An account whose newest session in the block was on this address is the address's, not
    // its neighbours' (the address's own count has it).
    const elsewhere = ` AND NOT EXISTS (SELECT 1 FROM network_accounts x
        WHERE x.project_id = n.project_id AND x.network = ? AND x.account_id = n.account_id AND x.last_seen >= n.last_seen)`;
    add('block30_blocked', accountsOn(up.fraudOnBlock, true, elsewhere), projectId, q.block, since30, q.ip);
  }
  add('ip_accounts', accountsOn(up.ipDistinctAccounts, false), projectId, q.ip, since30);
  if (q.accountId !== undefined) {
    add(
      'account_on_ip',
      `SELECT CASE WHEN EXISTS (SELECT 1 FROM network_accounts n
         WHERE n.project_id = ? AND n.network = ? AND n.account_id = ? AND n.last_seen >= ?) THEN 1 ELSE 0 END`,
      projectId,
      q.ip,
      q.accountId,
      since30,
    );
  }
  const e = q.email;
  if (e) addEmailHistory(add, projectId, e);
  if (q.uniques) {
    const u = uniquesTables(projectId, q.uniques);
    names.push('uniques');
    parts.push(...u.columns);
    from.push(...u.from);
    fromBindings.push(...u.bindings);
  }
  return {
    key: `counts ${names.join(',')}`,
    sql: () => `SELECT ${parts.join(',\n')}${from.length ? ` FROM ${from.join(', ')}` : ''}`,
    bindings: [...bindings, ...fromBindings],
  };
}
