/**
 * Statements as plain data: SQL text with `?` placeholders and its values, built on the request
 * thread and run by whichever connection serves them. The hot path's writes are lists of them
 * run in one transaction, by the engine's adapter (storage/sqlite/, storage/postgres/); through
 * knex here, for the rest and for a caller's own transaction.
 */
import type { Knex } from 'knex';

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

/** Runs one statement through knex (on `db`, or the caller's transaction when given one) and answers its rows. */
export function knexRows(db: Knex): RunRows {
  return async (sql, bindings) => {
    const result = await db.raw(sql, bindings as Knex.RawBinding[]);
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

/** The statements through knex: on this thread, each transaction a knex one. */
export function knexStatements(db: Knex): StatementRunner {
  return { rows: knexRows(db), transaction: knexTransaction(db) };
}
