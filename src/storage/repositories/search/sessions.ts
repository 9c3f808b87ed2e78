/** GET /sessions (and its export): a page of the project's sessions, newest first (docs/api-search.md). */
import type { Knex } from 'knex';
import type { RiskSignalName } from '../../../api-types';
import { ON_THRESHOLD } from '../../../domain/signals';
import { SEARCH_WINDOW, type SearchPage, type SessionFilters, type SessionKey, type SessionSearchRow } from './types';
import { and, isPg, readPage, windowOf, type Sql } from './window';

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

/**
 * A condition on the session's accounts: its links (`link`, by the primary key) joined to their
 * memberships or rows (by theirs), one of which meets `condition`.
 */
const ofItsAccounts = (link: string, join: string, condition: string) =>
  `EXISTS (SELECT 1 FROM session_accounts ${link} JOIN ${join}
                      WHERE ${link}.session_id = s.id AND ${condition})`;

const ON_LIST = ofItsAccounts(
  'sl',
  'list_members lm ON lm.account_id = sl.account_id AND lm.project_id = sl.project_id',
  'lm.list_name = ?',
);
const AT_DOMAIN = ofItsAccounts(
  'sd',
  'accounts ad ON ad.project_id = sd.project_id AND ad.id = sd.account_id',
  'ad.email_domain = ?',
);

/** Whether the latest evaluation stored on a session (risk_scores) raised a signal. */
function raised(pg: boolean, signal: RiskSignalName): Sql {
  if (signal === 'spoofed_ip')
    return {
      sql: pg ? `(s.risk_scores::jsonb ->> 'spoofedIp') = 'true'` : `json_extract(s.risk_scores, '$.spoofedIp') = 1`,
      bindings: [],
    };
  return {
    sql: pg
      ? `(s.risk_scores::jsonb -> 'scores' ->> ?::text)::float8 >= ?`
      : `json_extract(s.risk_scores, '$.scores.' || ?) >= ?`,
    bindings: [signal, ON_THRESHOLD],
  };
}

/** The window of session keys (newest first) after `after`, from the index the filters start from. */
function sessionWindow(
  pg: boolean,
  projectId: string,
  f: SessionFilters,
  after: SessionKey | undefined,
  window: number,
) {
  const used = new Set<keyof SessionFilters>(['from', 'to']);
  let from = 'sessions s';
  let time = 's.start_time';
  let id = 's.id';
  const where: Sql[] = [{ sql: 's.project_id = ?', bindings: [projectId] }];
  if (f.sessionId !== undefined) {
    // One session: its primary key, whatever else is asked (the other filters still apply to it).
    used.add('sessionId');
    where.push({ sql: 's.id = ?', bindings: [f.sessionId] });
  } else if (f.accountId !== undefined) {
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
  return { used, ...windowOf(`${time} AS k1, ${id} AS k2`, from, where, `${time} DESC, ${id} DESC`, window) };
}

/** The filters the window did not apply, on the session row `s`. */
function sessionResiduals(pg: boolean, f: SessionFilters, used: Set<keyof SessionFilters>): Sql[] {
  const out: Sql[] = [];
  const unused = <K extends keyof SessionFilters>(k: K) => f[k] !== undefined && !used.has(k);
  if (unused('decision')) out.push({ sql: 's.decision = ?', bindings: [f.decision] });
  if (unused('scoreFrom')) out.push({ sql: 's.account_score >= ?', bindings: [f.scoreFrom] });
  if (unused('scoreBelow')) out.push({ sql: 's.account_score < ?', bindings: [f.scoreBelow] });
  if (f.signal !== undefined) out.push(raised(pg, f.signal));
  if (unused('accountId'))
    out.push({
      sql: 'EXISTS (SELECT 1 FROM session_accounts sb WHERE sb.session_id = s.id AND sb.account_id = ?)',
      bindings: [f.accountId],
    });
  if (unused('deviceId')) out.push({ sql: 's.device_id = ?', bindings: [f.deviceId] });
  if (unused('ipAddress')) out.push({ sql: 's.ip_address = ?', bindings: [f.ipAddress] });
  if (unused('network')) out.push({ sql: 's.ip_block = ?', bindings: [f.network] });
  if (unused('country')) out.push({ sql: 's.country_code = ?', bindings: [f.country] });
  if (unused('list')) out.push({ sql: ON_LIST, bindings: [f.list] });
  if (unused('emailDomain')) out.push({ sql: AT_DOMAIN, bindings: [f.emailDomain] });
  return out;
}

/** A page of the project's sessions, newest first, after `after` (docs/api-search.md). */
export async function searchSessions(
  db: Knex,
  projectId: string,
  f: SessionFilters,
  after: SessionKey | undefined,
  limit: number,
  window = SEARCH_WINDOW,
): Promise<SearchPage<SessionSearchRow, SessionKey>> {
  const pg = isPg(db);
  const win = sessionWindow(pg, projectId, f, after, window);
  const rest = and(sessionResiduals(pg, f, win.used));
  const columns = SESSION_COLUMNS.map((c) => `s.${c}`).join(', ');
  const page = { columns, table: 'sessions s', key: 's.project_id = ? AND s.id = w.k2', order: 'w.k1 DESC, w.k2 DESC' };
  return readPage(
    db,
    { pg, projectId, win, rest, page, count: limit, window },
    {
      ofRow: (r: SessionSearchRow) => ({ startTime: Number(r.start_time), id: r.id }),
      keys: 'w.k1, w.k2',
      reverse: 'w.k1 ASC, w.k2 ASC',
      ofLast: (last) => ({ startTime: Number(last.k1), id: String(last.k2) }),
    },
  );
}

/** The accounts of each session (in the order they were linked), from session_accounts' primary key. */
export async function accountIdsOf(db: Knex, projectId: string, sessionIds: string[]): Promise<Map<string, string[]>> {
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
}
