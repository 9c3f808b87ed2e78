/**
 * The Search API's reads (GET /accounts, GET /sessions and their exports; docs/api-search.md).
 *
 * A page is read in two steps in one statement. The *window*: the next `window` keys after the
 * cursor, in page order, from the one index the filters start from (the driver: an equality
 * that index leads with, the time range within it). Then the rows of the window that pass the
 * other filters, at most `limit` of them. Every request therefore reads at most `window` index
 * entries and rows, however rare its filters: a page may come back short (or empty) with a
 * cursor, and the caller asks again. When the page is short, a second statement reads the
 * window's last key, the cursor of the next page.
 *
 * The window is a subquery with its own LIMIT joined first (CROSS JOIN: SQLite keeps that
 * order), so that neither engine starts from another filter's index and sorts the result.
 */
import type { Knex } from 'knex';
import type { Decision, RiskSignalName } from '../../api-types';
import { ON_THRESHOLD } from '../../domain/signals';
import { limit as limitClause } from '../sql';
import { ACCOUNT_COLUMNS, type AccountRow } from './accounts';

/** How many keys a request reads at most (the window). */
export const SEARCH_WINDOW = 5000;

export interface AccountFilters {
  decision?: Decision;
  list?: string;
  minScore?: number;
  maxScore?: number;
  /** last_seen in [seenFrom, seenTo). */
  seenFrom?: Date;
  seenTo?: Date;
  country?: string;
  emailDomain?: string;
  /** The address as email_key keeps it (normalised). */
  emailKey?: string;
  deviceId?: string;
  fingerprint?: string;
  ipAddress?: string;
  /** An address block as stored in ip_block (`81.2.69.0/24`, `2001:db8:1:2::/64`). */
  network?: string;
}

export interface SessionFilters {
  decision?: Decision;
  /** On the stored (unrounded) account_score: at least scoreFrom, below scoreBelow. */
  scoreFrom?: number;
  scoreBelow?: number;
  /** start_time in [from, to). */
  from?: Date;
  to?: Date;
  signal?: RiskSignalName;
  /** Authenticated with an account on this list, or with an address at this domain. */
  list?: string;
  emailDomain?: string;
  country?: string;
  accountId?: string;
  deviceId?: string;
  ipAddress?: string;
  network?: string;
}

/** A session's place in the search's order (newest first, then id descending). */
export interface SessionKey {
  startTime: number;
  id: string;
}

export interface SessionSearchRow {
  id: string;
  start_time: number;
  source: string | null;
  device_id: string;
  ip_address: string;
  country_code: string | null;
  decision: string | null;
  account_score: number | null;
  risk_scores: string | null;
  evaluation_request_id: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface SearchPage<Row, Key> {
  rows: Row[];
  /** The key after which the next page starts; null when the index has nothing after this page. */
  next: Key | null;
}

/** A piece of SQL and its values. */
interface Sql {
  sql: string;
  bindings: unknown[];
}

const and = (parts: Sql[]): Sql => ({
  sql: parts.map((p) => ` AND ${p.sql}`).join(''),
  bindings: parts.flatMap((p) => p.bindings),
});

/** The identifier_accounts kinds of the account filters (linking's names: `browser` is the SDK's device_id). */
const IDENTIFIER_KINDS = { deviceId: 'browser', fingerprint: 'device' } as const;

/** The session filters an index leads with (after project_id, before start_time), in the order one is chosen. */
const SESSION_DRIVERS = [
  ['deviceId', 's.device_id', 'sessions_project_id_device_id_start_time_id_index'],
  ['ipAddress', 's.ip_address', 'sessions_project_id_ip_address_start_time_decision_id_index'],
  ['network', 's.ip_block', 'sessions_project_id_ip_block_start_time_ip_address_decision_id_index'],
  ['country', 's.country_code', 'sessions_search_country'],
] as const satisfies readonly (readonly [keyof SessionFilters, string, string])[];

const SESSION_COLUMNS = [
  'id',
  'start_time',
  'source',
  'device_id',
  'ip_address',
  'country_code',
  'decision',
  'account_score',
  'risk_scores',
  'evaluation_request_id',
  'latitude',
  'longitude',
] as const satisfies readonly (keyof SessionSearchRow)[];

export function makeSearchRepository(db: Knex) {
  const pg = db.client.config.client === 'pg';

  const rows = async <T>(q: Sql): Promise<T[]> => {
    const result = await db.raw(q.sql, q.bindings as Knex.RawBinding[]);
    return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
  };

  /** A number inside a JSON text column, for a comparison. */
  const jsonNumber = (column: string, path: string[]): string =>
    pg ? `(${column}::jsonb #>> '{${path.join(',')}}')::float8` : `json_extract(${column}, '$.${path.join('.')}')`;

  /** Whether the latest evaluation stored on a session (risk_scores) raised a signal. */
  const raised = (signal: RiskSignalName): Sql =>
    signal === 'spoofed_ip'
      ? {
          sql: pg
            ? `(s.risk_scores::jsonb ->> 'spoofedIp') = 'true'`
            : `json_extract(s.risk_scores, '$.spoofedIp') = 1`,
          bindings: [],
        }
      : {
          sql: pg
            ? `(s.risk_scores::jsonb -> 'scores' ->> ?::text)::float8 >= ?`
            : `json_extract(s.risk_scores, '$.scores.' || ?) >= ?`,
          bindings: [signal, ON_THRESHOLD],
        };

  /**
   * The join from each key of the window to its row, with the other filters: one primary-key
   * lookup per key, in the window's order. SQLite keeps a CROSS JOIN's order; PostgreSQL gets a
   * LATERAL subquery with a LIMIT (never pulled up into the join), since on a small table, or
   * with a filter it guesses rare, it would rather hash the whole project's rows.
   */
  const rowOfKey = (columns: string, table: string, key: string, rest: string): string =>
    pg
      ? `CROSS JOIN LATERAL (SELECT ${columns} FROM ${table} WHERE ${key}${rest} LIMIT 1) ${table.split(' ')[1]}`
      : `CROSS JOIN ${table} WHERE ${key}${rest}`;

  // ------------------------------------------------------------------------------------ accounts

  /** The window of account ids (ascending) after `after`, from the index the filters start from. */
  function accountWindow(projectId: string, f: AccountFilters, after: string | undefined, window: number) {
    const used = new Set<keyof AccountFilters>();
    let from: string;
    let key: string;
    const where: Sql[] = [];
    const identifier = (['deviceId', 'fingerprint'] as const).find((k) => f[k] !== undefined);
    if (f.emailKey !== undefined) {
      // An address is one account's or a few's: its index (project_id, email_key), the few sorted by id.
      used.add('emailKey');
      from = pg ? 'accounts a' : 'accounts a INDEXED BY accounts_project_id_email_key_index';
      key = 'a.id';
      where.push({ sql: 'a.project_id = ? AND a.email_key = ?', bindings: [projectId, f.emailKey] });
    } else if (identifier) {
      used.add(identifier);
      from = 'identifier_accounts i';
      key = 'i.account_id';
      where.push({
        sql: 'i.project_id = ? AND i.kind = ? AND i.value = ?',
        bindings: [projectId, IDENTIFIER_KINDS[identifier], f[identifier]],
      });
    } else if (f.list !== undefined) {
      used.add('list');
      from = 'list_members m';
      key = 'm.account_id';
      where.push({ sql: 'm.list_name = ? AND m.project_id = ?', bindings: [f.list, projectId] });
    } else {
      from = 'accounts a';
      key = 'a.id';
      where.push({ sql: 'a.project_id = ?', bindings: [projectId] });
      if (f.decision !== undefined && f.emailDomain !== undefined) {
        used.add('decision').add('emailDomain');
        where.push({ sql: 'a.email_domain = ? AND a.decision = ?', bindings: [f.emailDomain, f.decision] });
      } else if (f.decision !== undefined) {
        used.add('decision');
        where.push({ sql: 'a.decision = ?', bindings: [f.decision] });
      }
    }
    if (after !== undefined) where.push({ sql: `${key} > ?`, bindings: [after] });
    const w = and(where.slice(1));
    return {
      used,
      sql: `SELECT ${key} AS k FROM ${from} WHERE ${where[0]!.sql}${w.sql} ORDER BY ${key} ${limitClause(window)}`,
      bindings: [...where[0]!.bindings, ...w.bindings],
    };
  }

  /** The filters the window did not apply, on the account row `a`. */
  function accountResiduals(f: AccountFilters, used: Set<keyof AccountFilters>): Sql[] {
    const out: Sql[] = [];
    const unused = <K extends keyof AccountFilters>(k: K) => f[k] !== undefined && !used.has(k);
    if (unused('decision')) out.push({ sql: 'a.decision = ?', bindings: [f.decision] });
    if (unused('emailDomain')) out.push({ sql: 'a.email_domain = ?', bindings: [f.emailDomain] });
    if (unused('country')) out.push({ sql: 'a.last_country = ?', bindings: [f.country] });
    if (unused('seenFrom')) out.push({ sql: 'a.last_seen >= ?', bindings: [f.seenFrom!.getTime()] });
    if (unused('seenTo')) out.push({ sql: 'a.last_seen < ?', bindings: [f.seenTo!.getTime()] });
    const score = jsonNumber('a.scores', ['account_score']);
    if (unused('minScore')) out.push({ sql: `${score} >= ?`, bindings: [f.minScore] });
    if (unused('maxScore')) out.push({ sql: `${score} <= ?`, bindings: [f.maxScore] });
    if (unused('list'))
      out.push({
        sql: 'EXISTS (SELECT 1 FROM list_members lm WHERE lm.account_id = a.id AND lm.project_id = a.project_id AND lm.list_name = ?)',
        bindings: [f.list],
      });
    for (const k of ['deviceId', 'fingerprint'] as const)
      if (unused(k))
        out.push({
          sql: 'EXISTS (SELECT 1 FROM identifier_accounts ia WHERE ia.project_id = a.project_id AND ia.kind = ? AND ia.value = ? AND ia.account_id = a.id)',
          bindings: [IDENTIFIER_KINDS[k], f[k]],
        });
    // An account's addresses: its session links, from the account's index (its sessions, a few),
    // never from the address's (a shared address's every session, once per account of the window).
    // SQLite, without statistics, takes the address index: it is named.
    const links = pg
      ? 'session_accounts sx'
      : 'session_accounts sx INDEXED BY session_accounts_project_id_account_id_session_start_session_id_index';
    if (unused('ipAddress'))
      out.push({
        sql: `EXISTS (SELECT 1 FROM ${links} WHERE sx.project_id = a.project_id AND sx.account_id = a.id AND sx.ip_address = ?)`,
        bindings: [f.ipAddress],
      });
    if (unused('network'))
      out.push({
        sql: `EXISTS (SELECT 1 FROM ${links} WHERE sx.project_id = a.project_id AND sx.account_id = a.id AND sx.ip_block = ?)`,
        bindings: [f.network],
      });
    return out;
  }

  // ------------------------------------------------------------------------------------ sessions

  /** The window of session keys (newest first) after `after`, from the index the filters start from. */
  function sessionWindow(projectId: string, f: SessionFilters, after: SessionKey | undefined, window: number) {
    const used = new Set<keyof SessionFilters>(['from', 'to']);
    let from = 'sessions s';
    let time = 's.start_time';
    let id = 's.id';
    const where: Sql[] = [{ sql: 's.project_id = ?', bindings: [projectId] }];
    if (f.accountId !== undefined) {
      used.add('accountId');
      from = 'session_accounts sa';
      time = 'sa.session_start';
      id = 'sa.session_id';
      where[0] = { sql: 'sa.project_id = ? AND sa.account_id = ?', bindings: [projectId, f.accountId] };
    } else {
      const driver = SESSION_DRIVERS.find(([k]) => f[k] !== undefined);
      if (driver) {
        used.add(driver[0]);
        where.push({ sql: `${driver[1]} = ?`, bindings: [f[driver[0]]] });
        // SQLite, without statistics, prefers the time index (in the page's order, no sort) to an
        // address index whose order has decision between start_time and id: it would walk the project.
        if (!pg) from = `sessions s INDEXED BY ${driver[2]}`;
      }
    }
    if (f.from) where.push({ sql: `${time} >= ?`, bindings: [f.from.getTime()] });
    if (f.to) where.push({ sql: `${time} < ?`, bindings: [f.to.getTime()] });
    if (after)
      where.push({
        sql: `${time} <= ? AND (${time} < ? OR ${id} < ?)`,
        bindings: [after.startTime, after.startTime, after.id],
      });
    const w = and(where.slice(1));
    return {
      used,
      sql: `SELECT ${time} AS k1, ${id} AS k2 FROM ${from} WHERE ${where[0]!.sql}${w.sql} ORDER BY ${time} DESC, ${id} DESC ${limitClause(window)}`,
      bindings: [...where[0]!.bindings, ...w.bindings],
    };
  }

  function sessionResiduals(f: SessionFilters, used: Set<keyof SessionFilters>): Sql[] {
    const out: Sql[] = [];
    const unused = <K extends keyof SessionFilters>(k: K) => f[k] !== undefined && !used.has(k);
    if (unused('decision')) out.push({ sql: 's.decision = ?', bindings: [f.decision] });
    if (unused('scoreFrom')) out.push({ sql: 's.account_score >= ?', bindings: [f.scoreFrom] });
    if (unused('scoreBelow')) out.push({ sql: 's.account_score < ?', bindings: [f.scoreBelow] });
    if (f.signal !== undefined) out.push(raised(f.signal));
    if (unused('deviceId')) out.push({ sql: 's.device_id = ?', bindings: [f.deviceId] });
    if (unused('ipAddress')) out.push({ sql: 's.ip_address = ?', bindings: [f.ipAddress] });
    if (unused('network')) out.push({ sql: 's.ip_block = ?', bindings: [f.network] });
    if (unused('country')) out.push({ sql: 's.country_code = ?', bindings: [f.country] });
    // The session's accounts (its links, by the primary key) and their memberships or rows, by theirs.
    if (unused('list'))
      out.push({
        sql: `EXISTS (SELECT 1 FROM session_accounts sl JOIN list_members lm ON lm.account_id = sl.account_id AND lm.project_id = sl.project_id
                      WHERE sl.session_id = s.id AND lm.list_name = ?)`,
        bindings: [f.list],
      });
    if (unused('emailDomain'))
      out.push({
        sql: `EXISTS (SELECT 1 FROM session_accounts sd JOIN accounts ad ON ad.project_id = sd.project_id AND ad.id = sd.account_id
                      WHERE sd.session_id = s.id AND ad.email_domain = ?)`,
        bindings: [f.emailDomain],
      });
    return out;
  }

  return {
    /** A page of the project's accounts in id order, after `after` (docs/api-search.md). */
    async accounts(
      projectId: string,
      f: AccountFilters,
      after: string | undefined,
      limit: number,
      window = SEARCH_WINDOW,
    ): Promise<SearchPage<AccountRow, string>> {
      const win = accountWindow(projectId, f, after, window);
      const rest = and(accountResiduals(f, win.used));
      const columns = ACCOUNT_COLUMNS.map((c) => `a.${c}`).join(', ');
      const page = await rows<AccountRow>({
        sql: `SELECT ${columns} FROM (${win.sql}) w ${rowOfKey(columns, 'accounts a', 'a.project_id = ? AND a.id = w.k', rest.sql)}
              ORDER BY w.k ${limitClause(limit + 1)}`,
        bindings: [...win.bindings, projectId, ...rest.bindings],
      });
      if (page.length > limit) return { rows: page.slice(0, limit), next: page[limit - 1]!.id };
      const [last] = await rows<{ k: string; n: number | string }>({
        sql: `SELECT w.k, COUNT(*) OVER () AS n FROM (${win.sql}) w ORDER BY w.k DESC LIMIT 1`,
        bindings: win.bindings,
      });
      return { rows: page, next: last && Number(last.n) >= window ? last.k : null };
    },

    /** A page of the project's sessions, newest first, after `after` (docs/api-search.md). */
    async sessions(
      projectId: string,
      f: SessionFilters,
      after: SessionKey | undefined,
      limit: number,
      window = SEARCH_WINDOW,
    ): Promise<SearchPage<SessionSearchRow, SessionKey>> {
      const win = sessionWindow(projectId, f, after, window);
      const rest = and(sessionResiduals(f, win.used));
      const columns = SESSION_COLUMNS.map((c) => `s.${c}`).join(', ');
      const page = await rows<SessionSearchRow>({
        sql: `SELECT ${columns} FROM (${win.sql}) w ${rowOfKey(columns, 'sessions s', 's.project_id = ? AND s.id = w.k2', rest.sql)}
              ORDER BY w.k1 DESC, w.k2 DESC ${limitClause(limit + 1)}`,
        bindings: [...win.bindings, projectId, ...rest.bindings],
      });
      const key = (r: { start_time: number | string; id: string }) => ({ startTime: Number(r.start_time), id: r.id });
      if (page.length > limit) return { rows: page.slice(0, limit), next: key(page[limit - 1]!) };
      const [last] = await rows<{ k1: number | string; k2: string; n: number | string }>({
        sql: `SELECT w.k1, w.k2, COUNT(*) OVER () AS n FROM (${win.sql}) w ORDER BY w.k1 ASC, w.k2 ASC LIMIT 1`,
        bindings: win.bindings,
      });
      return {
        rows: page,
        next: last && Number(last.n) >= window ? { startTime: Number(last.k1), id: last.k2 } : null,
      };
    },

    /** The accounts of each session (in the order they were linked), from session_accounts' primary key. */
    async accountIdsOf(projectId: string, sessionIds: string[]): Promise<Map<string, string[]>> {
      const out = new Map<string, string[]>(sessionIds.map((id) => [id, []]));
      if (sessionIds.length === 0) return out;
      // By the primary key alone (with project_id in the WHERE, SQLite would start from the project's
      // index); the ids are the project's own sessions, and the project is checked on each row.
      const found = await db('session_accounts')
        .whereIn('session_id', sessionIds)
        .orderBy([{ column: 'created_at' }, { column: 'account_id' }])
        .select('session_id', 'account_id', 'project_id');
      for (const r of found as { session_id: string; account_id: string; project_id: string }[])
        if (r.project_id === projectId) out.get(r.session_id)?.push(r.account_id);
      return out;
    },
  };
}

export type SearchRepository = ReturnType<typeof makeSearchRepository>;
