/**
 * Statements as plain data: SQL text with `?` placeholders and its values, built on the request
 * thread and run by whichever connection serves them. The hot path's writes are lists of them
 * run in one transaction: on PostgreSQL (and SQLite without its thread) through knex, on the
 * SQLite thread straight on the driver (sqlite-thread-worker.ts), so that the thread spends its
 * time in SQLite rather than building queries.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { onSqliteThread } from './db';

/** One statement. With `guard`, the statement must return a row, or the whole transaction is abandoned (nothing written). */
export interface Statement {
  sql: string;
  bindings: readonly unknown[];
  guard?: true;
}

/** Runs one statement (autocommit) and answers its rows. */
export type RunRows = (sql: string, bindings: readonly unknown[]) => Promise<Record<string, unknown>[]>;

/** Runs statements in one transaction, in order; false (nothing written) when a guard returned no row. */
export type RunTransaction = (statements: readonly Statement[]) => Promise<boolean>;

/** The statement of a knex query builder (its text with `?` placeholders, its values), without running it. */
export function statementOf(query: Knex.QueryBuilder | Knex.Raw): Statement {
  const { sql, bindings } = query.toSQL();
  return { sql, bindings };
}

/**
 * The PostgreSQL prepared statement name of a statement's text (a digest, so one name is one
 * text). The shapes are few (the links and accounts reads vary with how many values they look
 * up); past MAX_PREPARED the rest run unnamed, so a connection never holds more than that.
 */
const MAX_PREPARED = 256;
const prepared = new Map<string, string>();
function preparedName(sql: string): string | undefined {
  let name = prepared.get(sql);
  if (!name && prepared.size < MAX_PREPARED) {
    name = `tg_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
    prepared.set(sql, name);
  }
  return name;
}

/** Runs one statement through knex: PostgreSQL (with named prepared statements) or SQLite on this thread. */
export function knexRows(db: Knex): RunRows {
  const pg = db.client.config.client === 'pg';
  return async (sql, bindings) => {
    const query = db.raw(sql, bindings as Knex.RawBinding[]);
    // PostgreSQL: a named statement is parsed and planned once per connection, not at every call.
    // (Statements name their columns, so a migration that adds one does not invalidate them.)
    const name = pg ? preparedName(sql) : undefined;
    const result = await (name ? query.options({ name }) : query);
    // pg answers { rows }, SQLite an array.
    return Array.isArray(result) ? result : ((result as { rows?: Record<string, unknown>[] }).rows ?? []);
  };
}

/** Runs one statement through knex (or the caller's transaction). */
export async function runStatement(db: Knex, s: Statement): Promise<Record<string, unknown>[]> {
  return knexRows(db)(s.sql, s.bindings);
}

/** Thrown inside a transaction to abandon it when a guard returned no row. */
export class GuardFailed extends Error {}

/** Runs the statements in order with `run`; throws GuardFailed when a guard returns no row. */
export async function runGuarded(statements: readonly Statement[], run: RunRows): Promise<void> {
  for (const s of statements) if ((await run(s.sql, s.bindings)).length === 0 && s.guard) throw new GuardFailed();
}

/** Runs statements in one knex transaction (`db` itself, or the caller's transaction when given one). */
export function knexTransaction(db: Knex): RunTransaction {
  return async (statements) => {
    try {
      await db.transaction((trx) => runGuarded(statements, knexRows(trx)));
      return true;
    } catch (err) {
      if (err instanceof GuardFailed) return false;
      throw err;
    }
  };
}

/** Runs statements: one alone (`rows`) or several in one transaction. */
export interface StatementRunner {
  rows: RunRows;
  transaction: RunTransaction;
}

/** The statements of `db`'s hot path: on its SQLite thread when it has one (db.ts onSqliteThread, area `sql`), through knex otherwise. */
export function statementsOn(db: Knex): StatementRunner {
  return onSqliteThread(db, 'sql', { rows: knexRows(db), transaction: knexTransaction(db) }, ['rows', 'transaction']);
}
