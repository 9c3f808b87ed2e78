/** GET /accounts (and its export): a page of the project's accounts in id or score order (docs/api-search.md). */
import type { Knex } from 'knex';
import { ACCOUNT_COLUMNS, type AccountRow } from '../accounts';
import { SEARCH_WINDOW, type AccountFilters, type ScoreKey, type SearchPage } from './types';
import { and, isPg, readPage, windowOf, type Sql } from './window';

/** The identifier_accounts kinds of the account filters (linking's names: `browser` is the SDK's device_id). */
const IDENTIFIER_KINDS = { deviceId: 'browser', fingerprint: 'device' } as const;

const ON_LIST =
  'EXISTS (SELECT 1 FROM list_members lm' +
  ' WHERE lm.account_id = a.id AND lm.project_id = a.project_id AND lm.list_name = ?)';

const PRESENTED =
  'EXISTS (SELECT 1 FROM identifier_accounts ia' +
  ' WHERE ia.project_id = a.project_id AND ia.kind = ? AND ia.value = ? AND ia.account_id = a.id)';

/** Where a window of accounts starts: its table, its key and the conditions of its index. */
interface Driver {
  used: Set<keyof AccountFilters>;
  from: string;
  key: string;
  where: Sql[];
}

/** The index the filters start from, the filters it applies and its conditions. */
function driverOf(pg: boolean, projectId: string, f: AccountFilters): Driver {
  const identifier = (['deviceId', 'fingerprint'] as const).find((k) => f[k] !== undefined);
  if (f.emailKey !== undefined)
    // An address is one account's or a few's: its index (project_id, email_key), the few sorted by id.
    return {
      used: new Set(['emailKey']),
      from: pg ? 'accounts a' : 'accounts a INDEXED BY accounts_project_id_email_key_index',
      key: 'a.id',
      where: [{ sql: 'a.project_id = ? AND a.email_key = ?', bindings: [projectId, f.emailKey] }],
    };
  if (identifier)
    return {
      used: new Set([identifier]),
      from: 'identifier_accounts i',
      key: 'i.account_id',
      where: [
        {
          sql: 'i.project_id = ? AND i.kind = ? AND i.value = ?',
          bindings: [projectId, IDENTIFIER_KINDS[identifier], f[identifier]],
        },
      ],
    };
  if (f.list !== undefined)
    return {
      used: new Set(['list']),
      from: 'list_members m',
      key: 'm.account_id',
      where: [{ sql: 'm.list_name = ? AND m.project_id = ?', bindings: [f.list, projectId] }],
    };
  const d: Driver = {
    used: new Set(),
    from: 'accounts a',
    key: 'a.id',
    where: [{ sql: 'a.project_id = ?', bindings: [projectId] }],
  };
  if (f.decision !== undefined && f.emailDomain !== undefined) {
    d.used.add('decision').add('emailDomain');
    d.where.push({ sql: 'a.email_domain = ? AND a.decision = ?', bindings: [f.emailDomain, f.decision] });
  } else if (f.decision !== undefined) {
    d.used.add('decision');
    d.where.push({ sql: 'a.decision = ?', bindings: [f.decision] });
  }
  return d;
}

/** The window of account ids (ascending) after `after`, from the index the filters start from. */
function accountWindow(pg: boolean, projectId: string, f: AccountFilters, after: string | undefined, window: number) {
  const { used, from, key, where } = driverOf(pg, projectId, f);
  if (after !== undefined) where.push({ sql: `${key} > ?`, bindings: [after] });
  return { used, ...windowOf(`${key} AS k`, from, where, key, window) };
}

/** The filters the window did not apply, on the account row `a`. */
function accountResiduals(pg: boolean, f: AccountFilters, used: Set<keyof AccountFilters>): Sql[] {
  const out: Sql[] = [];
  const unused = <K extends keyof AccountFilters>(k: K) => f[k] !== undefined && !used.has(k);
  if (unused('decision')) out.push({ sql: 'a.decision = ?', bindings: [f.decision] });
  if (unused('emailDomain')) out.push({ sql: 'a.email_domain = ?', bindings: [f.emailDomain] });
  if (unused('country')) out.push({ sql: 'a.last_country = ?', bindings: [f.country] });
  if (unused('seenFrom')) out.push({ sql: 'a.last_seen >= ?', bindings: [f.seenFrom!.getTime()] });
  if (unused('seenTo')) out.push({ sql: 'a.last_seen < ?', bindings: [f.seenTo!.getTime()] });
  if (unused('minScore')) out.push({ sql: 'a.account_score >= ?', bindings: [f.minScore] });
  if (unused('maxScore')) out.push({ sql: 'a.account_score <= ?', bindings: [f.maxScore] });
  if (unused('list')) out.push({ sql: ON_LIST, bindings: [f.list] });
  for (const k of ['deviceId', 'fingerprint'] as const)
    if (unused(k)) out.push({ sql: PRESENTED, bindings: [IDENTIFIER_KINDS[k], f[k]] });
  // An account's addresses: its session links, from the account's index (its sessions, a few),
  // never from the address's (a shared address's every session, once per account of the window).
  // SQLite, without statistics, takes the address index: it is named.
  const links = pg
    ? 'session_accounts sx'
    : 'session_accounts sx INDEXED BY session_accounts_project_id_account_id_session_start_session_id_index';
  const linked = `EXISTS (SELECT 1 FROM ${links} WHERE sx.project_id = a.project_id AND sx.account_id = a.id`;
  if (unused('ipAddress')) out.push({ sql: `${linked} AND sx.ip_address = ?)`, bindings: [f.ipAddress] });
  if (unused('network')) out.push({ sql: `${linked} AND sx.ip_block = ?)`, bindings: [f.network] });
  return out;
}

/**
 * The window of (score, id) keys, riskiest first, after `after`: a range of the score index
 * (project_id, account_score, id) read backwards, the score range within it; or an address's
 * few accounts, sorted. The cursor's key is one row-value bound, `(score, id) < (s, i)`, which
 * both engines seek to in the index, so that the accounts sharing its score (many have the
 * same) are never read again. It is the range's only upper bound: given the maximum score as
 * well, SQLite would seek to the maximum and filter the rows up to the cursor one by one; the
 * maximum bounds the range only while the cursor is above it (or there is none).
 */
function scoreWindow(pg: boolean, projectId: string, f: AccountFilters, after: ScoreKey | undefined, window: number) {
  const byEmail = f.emailKey !== undefined;
  const used = new Set<keyof AccountFilters>(byEmail ? ['emailKey'] : ['minScore', 'maxScore']);
  const where: Sql[] = byEmail
    ? [
        { sql: 'a.project_id = ? AND a.email_key = ?', bindings: [projectId, f.emailKey] },
        { sql: 'a.account_score IS NOT NULL', bindings: [] },
      ]
    : [
        { sql: 'a.project_id = ?', bindings: [projectId] },
        f.minScore !== undefined
          ? { sql: 'a.account_score >= ?', bindings: [f.minScore] }
          : { sql: 'a.account_score IS NOT NULL', bindings: [] },
      ];
  const belowMax = !byEmail && f.maxScore !== undefined && (after === undefined || after.score > f.maxScore);
  if (belowMax) where.push({ sql: 'a.account_score <= ?', bindings: [f.maxScore] });
  else if (after) where.push({ sql: '(a.account_score, a.id) < (?, ?)', bindings: [after.score, after.id] });
  const index = byEmail ? 'accounts_project_id_email_key_index' : 'accounts_search_score';
  const from = pg ? 'accounts a' : `accounts a INDEXED BY ${index}`;
  return {
    used,
    ...windowOf('a.account_score AS k1, a.id AS k2', from, where, 'a.account_score DESC, a.id DESC', window),
  };
}

/** The page's rows: each key's account row with the other filters, in the window's order. */
const accountPage = (order: string, key: string) => ({
  columns: ACCOUNT_COLUMNS.map((c) => `a.${c}`).join(', '),
  table: 'accounts a',
  key: `a.project_id = ? AND a.id = ${key}`,
  order,
});

/** A page of the project's accounts, the riskiest first, after `after` (docs/api-search.md). */
export async function searchAccountsByScore(
  db: Knex,
  projectId: string,
  f: AccountFilters,
  after: ScoreKey | undefined,
  limit: number,
  window = SEARCH_WINDOW,
): Promise<SearchPage<AccountRow, ScoreKey>> {
  const pg = isPg(db);
  const win = scoreWindow(pg, projectId, f, after, window);
  const rest = and(accountResiduals(pg, f, win.used));
  const page = accountPage('w.k1 DESC, w.k2 DESC', 'w.k2');
  return readPage(
    db,
    { pg, projectId, win, rest, page, count: limit, window },
    {
      ofRow: (r: AccountRow) => ({ score: Number(r.account_score), id: r.id }),
      keys: 'w.k1, w.k2',
      reverse: 'w.k1 ASC, w.k2 ASC',
      ofLast: (last) => ({ score: Number(last.k1), id: String(last.k2) }),
    },
  );
}

/** A page of the project's accounts in id order, after `after` (docs/api-search.md). */
export async function searchAccounts(
  db: Knex,
  projectId: string,
  f: AccountFilters,
  after: string | undefined,
  limit: number,
  window = SEARCH_WINDOW,
): Promise<SearchPage<AccountRow, string>> {
  const pg = isPg(db);
  const win = accountWindow(pg, projectId, f, after, window);
  const rest = and(accountResiduals(pg, f, win.used));
  const page = accountPage('w.k', 'w.k');
  return readPage(
    db,
    { pg, projectId, win, rest, page, count: limit, window },
    {
      ofRow: (r: AccountRow) => r.id,
      keys: 'w.k',
      reverse: 'w.k DESC',
      ofLast: (last) => String(last.k),
    },
  );
}
