/**
 * The reads of an evaluation, set-based: each call is one SQL statement whatever the account's
 * history or the crowd on an address, every branch starts from an index and is bounded.
 * docs/pipeline.md lists them with what each costs.
 */
import type { Knex } from 'knex';
import type { EvaluatedSession, MatchType } from '../../api-types';
import type { SdkFacts } from '../../domain/session/sdk-facts';
import {
  accountsToDescribe,
  LINK_CAP,
  type AccountWithLists,
  type CurrentSession,
  type EmailHistoryFacts,
  type EmailQuery,
  type IdentifierMatch,
  type LinkedRecord,
  type LinkSearch,
  type NetworkMatch,
  type PastSession,
  type StoredUniques,
  UNIQUES_COUNTED,
  type UniquesQuery,
} from '../../domain/evaluation';
import { DAY_MS } from '../../domain/numbers';
import { byCodeUnits } from '../../domain/order';
import type { SignalHistory } from '../../domain/signals';
import { NETWORK_HISTORY_SCAN } from '../../domain/signals/history';
import {
  ACCOUNT_COLUMNS,
  LINKED_ACCOUNT_COLUMNS,
  toAccountRecord,
  toLinkedAccountRecord,
  type AccountRow,
  type LinkedAccountRow,
} from './accounts';
import { identifierSearch } from './identifier-accounts';
import { limit, textOf } from '../sql';
import { dialectOf, onSqliteThread, type Dialect } from '../db';
import { hotRows, objectsOf, type Rows, type RunReads } from '../statements';

/** Ids per accounts read: two bound parameters each, well inside SQLite's 32,766. */
const ACCOUNTS_PER_READ = 5000;

/** The columns of a session that history, linking and the travel rule read (never its facts). */
const PAST_COLUMNS =
  's.id, s.start_time, s.device_id, s.browser_fingerprint, s.ip_address, s.ip_block, s.connection_type, s.country_code, ' +
  's.mobile_id, s.apple_device_key, s.risk_scores, s.latitude, s.longitude, s.location_accuracy_km, s.anonymised';

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
function addEmailHistory(add: (name: string, sql: string, ...b: unknown[]) => void, projectId: string, e: EmailQuery) {
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
      `SELECT CASE WHEN EXISTS (SELECT 1 FROM accounts a WHERE a.project_id = ? AND a.email_domain = ? AND a.decision = 'Fake' AND a.id <> ?)
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

/**
 * The account's kept devices and networks (migration 0035): per kind one derived table over the
 * week's range of `(project_id, account_id, kind, last_start, value)`, newest first (at most
 * UNIQUES_COUNTED rows, the day's read first), answering the week's count, the day's, and this
 * session's value's newest start when it is in the week (older, it is in neither window:
 * uniques.ts `uniquesWith`). Its columns are fixed; two index ranges, no table rows.
 */
function uniquesTables(projectId: string, u: UniquesQuery): { columns: string[]; from: string[]; bindings: unknown[] } {
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

/**
 * The link search's statement: the accounts sharing each searched identifier value (at most
 * `cap` each), and those on each followed session's address and block (at most `crowd` each),
 * one branch each, its rows numbered by branch (`b`); none when there is nothing to search.
 */
function linkStatement(
  projectId: string,
  search: LinkSearch,
  cap: number,
  crowd: number,
): { key: string; sql: () => string; bindings: unknown[] } | undefined {
  const branches: string[] = [];
  const bindings: unknown[] = [];
  const exclude = search.excludeAccount;
  const notSelf = (column: string) => (exclude === undefined ? '' : ` AND ${column} <> ?`);
  const self = exclude === undefined ? [] : [exclude];
  // Each branch's text is fixed by its kind, with the cap, the crowd and whether an account is
  // left out: the statement's is kept by them (sql.ts textOf).
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
    if (column) {
      branch(
        type,
        `SELECT a.id AS account_id FROM accounts a WHERE a.project_id = ? AND a.${column} = ? AND a.id <> ? ${limit(cap)}`,
        [projectId, value, exclude ?? ''],
      );
    } else {
      branch('identifier', identifierSearch(exclude !== undefined, cap), [projectId, type, value, ...self]);
    }
  }
  // The links carry their session's address and start (migration 0013): one index range each.
  const onNetwork = (column: 'ip_address' | 'ip_block', value: string, from: Date, to: Date) =>
    branch(
      column,
      `SELECT DISTINCT sa.account_id FROM session_accounts sa
           WHERE sa.project_id = ? AND sa.${column} = ? AND sa.session_start BETWEEN ? AND ?${notSelf('sa.account_id')} ${limit(crowd)}`,
      [projectId, value, from.getTime(), to.getTime(), ...self],
    );
  for (const n of search.networks) {
    onNetwork('ip_address', n.ip, n.ipFrom, n.ipTo);
    if (n.block) onNetwork('ip_block', n.block, n.blockFrom, n.blockTo);
  }
  if (branches.length === 0) return undefined;
  return {
    key: `links ${cap} ${crowd} ${exclude === undefined ? 'all' : 'other'} ${kinds.join(',')}`,
    sql: () => branches.join('\nUNION ALL\n'),
    bindings,
  };
}

/**
 * PostgreSQL: the link search (`links`, its rows first, `b` set) and, when it found at most
 * LINK_CAP accounts, each of them described with its lists (`b` null), in one statement (the
 * project's id bound last). Each found account is looked up by its key, in a loop over them
 * (`LATERAL ... OFFSET 0`, as `accountRows` does), never joined as a set the planner could hash.
 */
function describedFound(links: () => string): string {
  const columns = LINKED_ACCOUNT_COLUMNS.map((c) => `a.${c}`).join(', ');
  const nulls = LINKED_ACCOUNT_COLUMNS.map((c) => `NULL AS ${c}`).join(', ');
  return `WITH l AS MATERIALIZED (${links()})
SELECT l.b, l.account_id, ${nulls}, NULL AS list_name FROM l
UNION ALL
SELECT NULL, NULL, ${columns}, m.list_name
  FROM (SELECT DISTINCT l.account_id FROM l WHERE (SELECT COUNT(DISTINCT account_id) FROM l) <= ${LINK_CAP}) AS d
  CROSS JOIN LATERAL (SELECT ${LINKED_ACCOUNT_COLUMNS.map((c) => `x.${c}`).join(', ')}, x.project_id FROM accounts x WHERE x.project_id = ? AND x.id = d.account_id OFFSET 0) AS a
  LEFT JOIN LATERAL (SELECT k.list_name FROM list_members k WHERE k.account_id = a.id AND k.project_id = a.project_id OFFSET 0) AS m ON true`;
}

/**
 * The evaluation's reads, each as its statements and their rows as they came: on the SQLite
 * thread, packed (statements.ts `PackedRows`), so that what crosses between the threads is arrays
 * of plain values; `decodedReads` (below) makes them the domain's values on the caller's thread.
 * The thread registers these (sqlite-thread-worker.ts); the services use `makeEvaluationFacts`.
 */
export function makeEvaluationReads(rows: RunReads, dialect: Dialect) {
  /** The accounts' `columns` with their lists (`accounts`, below). */
  async function accountRows(
    projectId: string,
    ids: readonly string[],
    columns: typeof ACCOUNT_COLUMNS | typeof LINKED_ACCOUNT_COLUMNS,
  ): Promise<Rows[]> {
    const out: Rows[] = [];
    for (let i = 0; i < ids.length; i += ACCOUNTS_PER_READ) {
      const chunk = ids.slice(i, i + ACCOUNTS_PER_READ);
      const list = chunk.map(() => '?').join(', ');
      const key = `accounts ${columns === ACCOUNT_COLUMNS ? 'all' : 'linked'} ${chunk.length}`;
      const selected = columns.map((c) => `a.${c}`).join(', ');
      if (dialect === 'postgresql') {
        // Each account's memberships looked up by its key, in the loop over the accounts
        // (`OFFSET 0` keeps the subquery from being merged into a join). As a join, the generic
        // plan read the project's whole membership table whenever it was small enough to look
        // cheap, whether or not narrowed by the ids (620 rows: 0.36 ms against 0.08).
        const sql = textOf(
          `pg ${key}`,
          () => `SELECT ${selected}, m.list_name FROM accounts a
         LEFT JOIN LATERAL (SELECT l.list_name FROM list_members l WHERE l.account_id = a.id AND l.project_id = a.project_id OFFSET 0) AS m ON true
       WHERE a.project_id = ? AND a.id IN (${list}) ORDER BY a.id`,
        );
        out.push(await rows(sql, [projectId, ...chunk]));
      } else {
        // (SQLite looks each account's members up by its key, with or without the ids.)
        const sql = textOf(
          key,
          () => `SELECT ${selected}, m.list_name FROM accounts a
         LEFT JOIN (SELECT account_id, list_name FROM list_members WHERE project_id = ? AND account_id IN (${list})) AS m ON m.account_id = a.id
       WHERE a.project_id = ? AND a.id IN (${list}) ORDER BY a.id`,
        );
        out.push(await rows(sql, [projectId, ...chunk, projectId, ...chunk]));
      }
    }
    return out;
  }

  const reads = {
    /**
     * The session with the accounts it was used with and, with `history`, that account's newest
     * sessions (at most `limit`): one statement.
     */
    session(projectId: string, id: string, history?: { accountId: string; limit: number }): Promise<Rows> {
      const current = `SELECT 0 AS part, ${PAST_COLUMNS}, f.facts, f.sdk, sa.account_id, sa.created_at AS linked_at FROM sessions s
           JOIN session_facts f ON f.session_id = s.id
           LEFT JOIN session_accounts sa ON sa.session_id = s.id WHERE s.project_id = ? AND s.id = ?`;
      // The history as a common table expression: SQLite runs it as one ordered index range
      // (as a compound of two subqueries it measured about 1.7 times the time).
      const past = `WITH h AS (SELECT 1 AS part, ${PAST_COLUMNS}, NULL AS facts, NULL AS sdk, NULL AS account_id, CAST(NULL AS bigint) AS linked_at
           FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
           WHERE sa.project_id = ? AND sa.account_id = ? ORDER BY sa.session_start DESC, sa.session_id DESC ${limit(history?.limit ?? 0)})`;
      return rows(
        textOf(`session ${history ? history.limit : 'alone'}`, () =>
          history ? `${past} ${current} UNION ALL SELECT * FROM h` : current,
        ),
        history ? [projectId, history.accountId, projectId, id] : [projectId, id],
      );
    },

    /** The account's session before `before`, other than `excludeSession`. */
    previousOfAccount(projectId: string, accountId: string, before: Date, excludeSession: string): Promise<Rows> {
      return rows(
        `SELECT ${PAST_COLUMNS} FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
         WHERE sa.project_id = ? AND sa.account_id = ? AND sa.session_start < ? AND sa.session_id <> ? ORDER BY sa.session_start DESC LIMIT 1`,
        [projectId, accountId, before.getTime(), excludeSession],
      );
    },

    /**
     * Accounts with their lists: one statement for up to ACCOUNTS_PER_READ ids (an evaluation
     * describes at most LINK_CAP), more only past that (SQLite's bound parameters are limited).
     */
    accounts(projectId: string, ids: readonly string[]): Promise<Rows[]> {
      return accountRows(projectId, ids, ACCOUNT_COLUMNS);
    },

    /** The account's newest sessions, at most `limit`. */
    accountSessions(projectId: string, accountId: string, limit: number): Promise<Rows> {
      return rows(
        `SELECT ${PAST_COLUMNS} FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
         WHERE sa.project_id = ? AND sa.account_id = ? ORDER BY sa.session_start DESC, sa.session_id DESC LIMIT ?`,
        [projectId, accountId, limit],
      );
    },

    /** The device's session before `before` (without an account, the travel rule compares with it). */
    previousOfDevice(projectId: string, deviceId: string, before: Date, excludeSession: string): Promise<Rows> {
      return rows(
        `SELECT ${PAST_COLUMNS} FROM sessions s
         WHERE s.project_id = ? AND s.device_id = ? AND s.start_time < ? AND s.id <> ? ORDER BY s.start_time DESC LIMIT 1`,
        [projectId, deviceId, before.getTime(), excludeSession],
      );
    },
    /**
     * In one statement: fraud and crowd on the address and its block (the signals' history),
     * and (authenticate) the history of the account's email address and domain.
     */
    counts(projectId: string, q: CountsQuery): Promise<Rows> {
      const since30 = q.now.getTime() - 30 * DAY_MS;
      const parts: string[] = [];
      const names: string[] = [];
      const bindings: unknown[] = [];
      // (Each part's text is fixed by its name: the statement's is kept by them, sql.ts textOf.)
      const add = (name: string, sql: string, ...b: unknown[]) => {
        parts.push(`(${sql}) AS ${name}`);
        names.push(name);
        bindings.push(...b);
      };
      // Each question reads the newest NETWORK_HISTORY_SCAN sessions (or session links) of the
      // address or block in the period, from an index that carries what it asks (no table rows).
      type Network = { column: 'ip_address' | 'ip_block'; value: string };
      const newest = (
        table: 'sessions' | 'session_accounts',
        { column, value }: Network,
        since: number,
        read: string,
        options: { otherIp?: string; self?: boolean } = {},
      ) => {
        const [start, id] = table === 'sessions' ? ['s.start_time', 's.id'] : ['s.session_start', 's.session_id'];
        return {
          sql: `SELECT ${read} FROM ${table} s WHERE s.project_id = ? AND s.${column} = ? AND ${start} >= ?${options.self === false ? '' : ` AND ${id} <> ?`}${options.otherIp ? ' AND s.ip_address <> ?' : ''}
                ORDER BY ${start} DESC LIMIT ${NETWORK_HISTORY_SCAN}`,
          bindings: [
            projectId,
            value,
            since,
            ...(options.self === false ? [] : [q.sessionId]),
            ...(options.otherIp ? [options.otherIp] : []),
          ],
        };
      };
      const fraud = (prefix: string, network: Network, since: number, otherIp?: string) => {
        const fake = newest('sessions', network, since, 's.decision', { otherIp });
        add(`${prefix}_fake`, `SELECT COUNT(*) FROM (${fake.sql}) AS t WHERE t.decision = 'Fake'`, ...fake.bindings);
        const linked = newest('session_accounts', network, since, 's.account_id', { otherIp });
        // Each distinct account looked up on the block list by its key (a scalar subquery: in a
        // join, PostgreSQL's planner could hash the project's whole block list instead).
        add(
          `${prefix}_blocked`,
          `SELECT COUNT(*) FROM (SELECT DISTINCT l.account_id FROM (${linked.sql}) AS l) AS t
             WHERE (SELECT 1 FROM list_members m WHERE m.account_id = t.account_id AND m.project_id = ? AND m.list_name = 'block') = 1`,
          ...linked.bindings,
          projectId,
        );
      };
      const address: Network = { column: 'ip_address', value: q.ip };
      if (q.block) fraud('block30', { column: 'ip_block', value: q.block }, since30, q.ip);
      // The address's 30-day and all-time questions read one range each: the index is in time
      // order, so the address's newest NETWORK_HISTORY_SCAN of all time hold its newest of the 30
      // days (all of them, or the newest that many), and each derived table answers both
      // periods, the 30 days by the start time (two index searches fewer than a range each).
      const periods: string[] = [];
      const periodBindings: unknown[] = [];
      const fake = newest('sessions', address, 0, 's.decision, s.start_time');
      periods.push(`(SELECT COUNT(CASE WHEN t.decision = 'Fake' AND t.start_time >= ? THEN 1 END) AS ip30_fake,
                COUNT(CASE WHEN t.decision = 'Fake' THEN 1 END) AS ever_fake FROM (${fake.sql}) AS t) AS f`);
      periodBindings.push(since30, ...fake.bindings);
      // Each distinct account once, with whether it was on the address in the 30 days, looked up
      // on the block list by its key.
      const linked = newest('session_accounts', address, 0, 's.account_id, s.session_start');
      periods.push(`(SELECT COALESCE(SUM(u.recent), 0) AS ip30_blocked, COUNT(*) AS ever_blocked
                FROM (SELECT l.account_id, MAX(CASE WHEN l.session_start >= ? THEN 1 ELSE 0 END) AS recent FROM (${linked.sql}) AS l GROUP BY l.account_id) AS u
                WHERE (SELECT 1 FROM list_members m WHERE m.account_id = u.account_id AND m.project_id = ? AND m.list_name = 'block') = 1) AS k`);
      periodBindings.push(since30, ...linked.bindings, projectId);
      const crowd = newest('session_accounts', address, since30, 's.account_id', { self: false });
      add('ip_accounts', `SELECT COUNT(DISTINCT t.account_id) FROM (${crowd.sql}) AS t`, ...crowd.bindings);
      if (q.accountId !== undefined) {
        add(
          'account_on_ip',
          `SELECT CASE WHEN EXISTS (SELECT 1 FROM session_accounts sa WHERE sa.project_id = ? AND sa.account_id = ? AND sa.session_start >= ? AND sa.ip_address = ?) THEN 1 ELSE 0 END`,
          projectId,
          q.accountId,
          since30,
          q.ip,
        );
      }
      const e = q.email;
      if (e) addEmailHistory(add, projectId, e);
      if (q.uniques) {
        const u = uniquesTables(projectId, q.uniques);
        names.push('uniques');
        parts.push(...u.columns);
        periods.push(...u.from);
        periodBindings.push(...u.bindings);
      }
      return rows(
        textOf(
          `counts ${names.join(',')}`,
          () =>
            `SELECT f.ip30_fake, f.ever_fake, k.ip30_blocked, k.ever_blocked, ${parts.join(',\n')} FROM ${periods.join(', ')}`,
        ),
        [...bindings, ...periodBindings],
      );
    },

    /** The history of an account's email address and domain (the Account API's email intelligence). */
    emailHistory(projectId: string, e: EmailQuery): Promise<Rows> {
      const parts: string[] = [];
      const bindings: unknown[] = [];
      addEmailHistory(
        (name, sql, ...b) => {
          parts.push(`(${sql}) AS ${name}`);
          bindings.push(...b);
        },
        projectId,
        e,
      );
      return parts.length > 0 ? rows(`SELECT ${parts.join(',\n')}`, bindings) : Promise.resolve([]);
    },

    /** An account's kept devices and networks in the windows of its details (the Account API): one statement. */
    uniques(projectId: string, u: UniquesQuery): Promise<Rows> {
      const { columns, from, bindings } = uniquesTables(projectId, u);
      return rows(
        textOf('uniques', () => `SELECT ${columns.join(', ')} FROM ${from.join(', ')}`),
        bindings,
      );
    },

    /**
     * The accounts sharing each searched identifier value (at most `cap` each), and those on each
     * followed session's address and block (at most `crowd` each): one compound statement.
     */
    links(projectId: string, search: LinkSearch, cap: number, crowd: number): Promise<Rows> {
      const found = linkStatement(projectId, search, cap, crowd);
      return found ? rows(textOf(found.key, found.sql), found.bindings) : Promise.resolve([]);
    },

    /**
     * The link search (`links`) and the accounts the evaluation describes of those it found
     * (domain/evaluation accountsToDescribe), read in the same call. On SQLite two statements in
     * one round trip to the SQLite thread; on PostgreSQL one statement, which describes every
     * account found when they are at most LINK_CAP (a round trip to the database fewer), and a
     * second for the strongest LINK_CAP of a larger crowd.
     */
    async linksDescribed(
      projectId: string,
      search: LinkSearch,
      cap: number,
      crowd: number,
      ask: { describe: boolean; groupsEnabled: boolean },
    ): Promise<{ links: Rows; accounts: Rows[] }> {
      const folded = dialect === 'postgresql' && (ask.describe || ask.groupsEnabled);
      const statement = folded ? linkStatement(projectId, search, cap, crowd) : undefined;
      if (!statement)
        return describedSeparately(projectId, await reads.links(projectId, search, cap, crowd), search, ask);
      const both = objectsOf(
        await rows(
          textOf(`described ${statement.key}`, () => describedFound(statement.sql)),
          [...statement.bindings, projectId],
        ),
      );
      const links = both.filter((r) => r.b != null);
      if (new Set(links.map((r) => r.account_id)).size > LINK_CAP)
        return describedSeparately(projectId, links, search, ask);
      return { links, accounts: [both.filter((r) => r.b == null)] };
    },
  };

  /** `accountsToDescribe` of the links found, read (only the columns a link is described from, about half the account's). */
  async function describedSeparately(
    projectId: string,
    links: Rows,
    search: LinkSearch,
    ask: { describe: boolean; groupsEnabled: boolean },
  ): Promise<{ links: Rows; accounts: Rows[] }> {
    const ids = accountsToDescribe(search, decode.links(links, search), ask);
    return { links, accounts: ids.length > 0 ? await accountRows(projectId, ids, LINKED_ACCOUNT_COLUMNS) : [] };
  }

  return reads;
}

/** Accounts' rows (one per list they are on, or one) as records with their lists, in the order read. */
function withLists<R>(
  found: readonly Rows[],
  record: (r: Record<string, unknown>) => R,
): Map<string, { record: R; lists: string[] }> {
  const out = new Map<string, { record: R; lists: string[] }>();
  for (const chunk of found)
    for (const r of objectsOf(chunk)) {
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
const decode = {
  /** The session with the accounts it was used with (oldest link first) and the history read with it. */
  session(found: Rows): { session: CurrentSession; history: PastSession[] } | undefined {
    const all = objectsOf(found);
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
      // (Object.assign: a spread of the past session measured ten times the time.)
      session: Object.assign(toPastSession(first), { facts, sdk, accountIds }),
      history: all.filter((r) => Number(r.part) === 1).map(toPastSession),
    };
  },

  pastSessions(found: Rows): PastSession[] {
    return objectsOf(found).map(toPastSession);
  },

  pastSession(found: Rows): PastSession | undefined {
    const [r] = objectsOf(found);
    return r && toPastSession(r);
  },

  /** Accounts with their lists (list names in code-unit order), in the order read. */
  accounts(found: readonly Rows[]): Map<string, AccountWithLists> {
    return withLists(found, (r) => toAccountRecord(r as unknown as AccountRow));
  },

  /** Linked accounts (LINKED_ACCOUNT_COLUMNS) with their lists. */
  linked(found: readonly Rows[]): Map<string, LinkedRecord> {
    return withLists(found, (r) => toLinkedAccountRecord(r as unknown as LinkedAccountRow));
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
    const [r] = objectsOf(found);
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
    return emailHistoryOf(objectsOf(found)[0] ?? {});
  },

  uniques(found: Rows): StoredUniques {
    return uniquesOf(objectsOf(found)[0] ?? {});
  },

  /** Each searched identifier's and followed network's accounts, from the branches' rows. */
  links(found: Rows, search: LinkSearch): { identifiers: IdentifierMatch[]; networks: NetworkMatch[] } {
    const byBranch = new Map<number, string[]>();
    for (const r of objectsOf(found)) {
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

export type EvaluationReads = ReturnType<typeof makeEvaluationReads>;

/** The reads, each answering the domain's values. */
function decodedReads(reads: Pick<EvaluationReads, keyof EvaluationReads>) {
  type P<K extends keyof EvaluationReads> = Parameters<EvaluationReads[K]>;
  return {
    session: async (...a: P<'session'>) => decode.session(await reads.session(...a)),
    previousOfAccount: async (...a: P<'previousOfAccount'>) => decode.pastSession(await reads.previousOfAccount(...a)),
    accounts: async (...a: P<'accounts'>) => decode.accounts(await reads.accounts(...a)),
    accountSessions: async (...a: P<'accountSessions'>) => decode.pastSessions(await reads.accountSessions(...a)),
    previousOfDevice: async (...a: P<'previousOfDevice'>) => decode.pastSession(await reads.previousOfDevice(...a)),
    counts: async (...a: P<'counts'>) => decode.counts(await reads.counts(...a), a[1]),
    emailHistory: async (...a: P<'emailHistory'>) => decode.emailHistory(await reads.emailHistory(...a)),
    uniques: async (...a: P<'uniques'>) => decode.uniques(await reads.uniques(...a)),
    links: async (...a: P<'links'>) => decode.links(await reads.links(...a), a[1]),
    linksDescribed: async (...a: P<'linksDescribed'>) => {
      const found = await reads.linksDescribed(...a);
      return { ...decode.links(found.links, a[1]), linked: decode.linked(found.accounts) };
    },
  };
}

/** The evaluation's reads over `rows`, on this thread. */
export function makeEvaluationFactsRepository(rows: RunReads, dialect: Dialect) {
  return decodedReads(makeEvaluationReads(rows, dialect));
}

export type EvaluationFactsRepository = ReturnType<typeof makeEvaluationFactsRepository>;

/** The evaluation's reads as the services use them: on the SQLite thread when the database has one (db.ts onSqliteThread). */
export function makeEvaluationFacts(db: Knex): EvaluationFactsRepository {
  const reads = onSqliteThread(db, 'facts', makeEvaluationReads(hotRows(db), dialectOf(db)), [
    'session',
    'previousOfAccount',
    'accounts',
    'accountSessions',
    'previousOfDevice',
    'counts',
    'emailHistory',
    'uniques',
    'links',
    'linksDescribed',
  ]);
  return decodedReads(reads);
}
