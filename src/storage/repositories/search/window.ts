/**
 * The statements every search is made of: the window of keys, the rows of the window that pass
 * the other filters, and the window's last key (see index.ts).
 */
import type { Knex } from 'knex';
import { limit } from '../../sql';
import type { SearchPage } from './types';

/** A piece of SQL and its values. */
export interface Sql {
  sql: string;
  bindings: unknown[];
}

export const and = (parts: Sql[]): Sql => ({
  sql: parts.map((p) => ` AND ${p.sql}`).join(''),
  bindings: parts.flatMap((p) => p.bindings),
});

export const isPg = (db: Knex): boolean => db.client.config.client === 'pg';

/** The rows a raw statement read, on either engine. */
export async function rows<T>(db: Knex, q: Sql): Promise<T[]> {
  const result = await db.raw(q.sql, q.bindings as Knex.RawBinding[]);
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * The window: `select` from `from` where the first condition (the index's) and the others hold,
 * in `order`, at most `window` of them.
 */
export function windowOf(select: string, from: string, where: Sql[], order: string, window: number): Sql {
  const w = and(where.slice(1));
  return {
    sql: `SELECT ${select} FROM ${from} WHERE ${where[0]!.sql}${w.sql} ORDER BY ${order} ${limit(window)}`,
    bindings: [...where[0]!.bindings, ...w.bindings],
  };
}

/**
 * The join from each key of the window to its row, with the other filters: one primary-key
 * lookup per key, in the window's order. SQLite keeps a CROSS JOIN's order; PostgreSQL gets a
 * LATERAL subquery with a LIMIT (never pulled up into the join), since on a small table, or
 * with a filter it guesses rare, it would rather hash the whole project's rows.
 */
const rowOfKey = (pg: boolean, columns: string, table: string, key: string, rest: string): string =>
  pg
    ? `CROSS JOIN LATERAL (SELECT ${columns} FROM ${table} WHERE ${key}${rest} LIMIT 1) ${table.split(' ')[1]}`
    : `CROSS JOIN ${table} WHERE ${key}${rest}`;

/** Which rows a page reads: `columns` of `table` (with its alias), its row of a key, in the window's `order`. */
export interface PageOf {
  columns: string;
  table: string;
  key: string;
  order: string;
}

/** The rows of the window (of the project's keys) that pass the other filters `rest`, at most `count`. */
export function rowsOfWindow(pg: boolean, projectId: string, win: Sql, rest: Sql, p: PageOf, count: number): Sql {
  return {
    sql: `SELECT ${p.columns} FROM (${win.sql}) w ${rowOfKey(pg, p.columns, p.table, p.key, rest.sql)}
              ORDER BY ${p.order} ${limit(count)}`,
    bindings: [...win.bindings, projectId, ...rest.bindings],
  };
}

/** The window's last key (`keys`, in the reverse `order`) and how many keys it holds. */
export function lastOfWindow(win: Sql, keys: string, order: string): Sql {
  return {
    sql: `SELECT ${keys}, COUNT(*) OVER () AS n FROM (${win.sql}) w ORDER BY ${order} LIMIT 1`,
    bindings: win.bindings,
  };
}

/**
 * Where the next page starts: `ofRow` of the page's last row when it is full, else `ofLast` of
 * the window's last key (`keys`, read in the `reverse` order) when the window was full.
 */
export interface Keys<Row, Key> {
  ofRow: (row: Row) => Key;
  keys: string;
  reverse: string;
  ofLast: (last: Record<string, unknown>) => Key;
}

/** A page: at most `count` rows of the window that pass `rest`, and the key after which the next one starts. */
export async function readPage<Row, Key>(
  db: Knex,
  q: { pg: boolean; projectId: string; win: Sql; rest: Sql; page: PageOf; count: number; window: number },
  k: Keys<Row, Key>,
): Promise<SearchPage<Row, Key>> {
  const page = await rows<Row>(db, rowsOfWindow(q.pg, q.projectId, q.win, q.rest, q.page, q.count + 1));
  if (page.length > q.count) return { rows: page.slice(0, q.count), next: k.ofRow(page[q.count - 1]!) };
  const [last] = await rows<Record<string, unknown>>(db, lastOfWindow(q.win, k.keys, k.reverse));
  return { rows: page, next: last && Number(last.n) >= q.window ? k.ofLast(last) : null };
}
