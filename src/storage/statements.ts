/**
 * Statements as plain data: SQL text with `?` placeholders and its values, built on the request
 * thread and run by whichever connection serves them. The hot path's writes are lists of them
 * run in one transaction: on PostgreSQL (and SQLite without its thread) through knex, on the
 * SQLite thread straight on the driver (sqlite-thread-worker.ts), so that the thread spends its
 * time in SQLite rather than building queries.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { escapeLiteral } from 'pg';
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

/** A statement's PostgreSQL text (numbered placeholders) and prepared statement name, kept for the shapes `preparedName` names. */
const pgTexts = new Map<string, string>();
function pgText(sql: string, count: number): string {
  let text = pgTexts.get(sql);
  if (text === undefined) {
    text = positional(sql, count);
    if (pgTexts.size < MAX_PREPARED) pgTexts.set(sql, text);
  }
  return text;
}

/**
 * PostgreSQL: one statement (autocommit) on a connection of `db`'s pool, as a named prepared
 * statement, straight on node-postgres: knex's query building and bookkeeping around each of the
 * hot path's reads took about a tenth of the request thread's time on authenticate. Announced on
 * `db` as knex announces its own statements.
 */
export function pgRows(db: Knex): RunRows {
  return async (sql, bindings) => {
    const text = pgText(sql, bindings.length);
    const name = preparedName(sql);
    const announced = { sql: text, bindings, direct: 'pg', __knexQueryUid: directQueryUid() };
    db.emit('query', announced);
    const connection = (await db.client.acquireConnection()) as PgConnection;
    try {
      const values = bindings as unknown[];
      const { rows } = await connection.query(name ? { name, text, values } : { text, values });
      db.emit('query-response', rows, announced);
      return rows;
    } catch (err) {
      db.emit('query-error', err, announced);
      throw err;
    } finally {
      await db.client.releaseConnection(connection);
    }
  };
}

/**
 * The id of a statement sent straight on the driver, in its `query`, `query-response` and
 * `query-error` announcements (knex's `__knexQueryUid`), so that what times statements (the
 * traces' spans, src/telemetry/tracing.ts) times these too.
 */
let directQueries = 0;
const directQueryUid = () => `pg-direct-${++directQueries}`;

/** One statement of the hot path: on PostgreSQL straight on the driver (`pgRows`), through knex otherwise. */
export function hotRows(db: Knex): RunRows {
  return db.client.config.client === 'pg' ? pgRows(db) : knexRows(db);
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

/**
 * A statement's text with its values written in as literals: each value as text, quoted with
 * node-postgres's `escapeLiteral` (the text node-postgres would send as the parameter; an untyped
 * literal takes its type from where it stands, as an untyped parameter does). Values are what
 * the hot path binds: text, numbers, booleans, null, dates; anything else is refused. `?`
 * placeholders are replaced outside quoted literals and identifiers; a statement whose
 * placeholders and values do not pair up is refused.
 */
export function inlineValues(sql: string, bindings: readonly unknown[]): string {
  return replacePlaceholders(sql, bindings.length, (i) => literal(bindings[i]));
}

/** A statement's text with PostgreSQL's numbered placeholders (`$1`…), as knex announces its own. */
export function positional(sql: string, count: number): string {
  return replacePlaceholders(sql, count, (i) => `$${i + 1}`);
}

/** `sql` with its `count` `?` placeholders (those outside quoted literals and identifiers) replaced. */
function replacePlaceholders(sql: string, count: number, replace: (index: number) => string): string {
  let out = '';
  let next = 0;
  let quote: string | undefined;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i] as string;
    if (quote) {
      out += c;
      if (c !== quote) continue;
      // A doubled quote stays inside the quoted run; a single one ends it.
      if (sql[i + 1] === quote) out += sql[++i];
      else quote = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
      out += c;
    } else if (c === '?') {
      if (sql[i + 1] === '?' || next >= count)
        throw new Error(`placeholder ${next + 1} has no value (or is not a placeholder) in ${sql}`);
      out += replace(next++);
    } else {
      out += c;
    }
  }
  if (next !== count) throw new Error(`${count} values for ${next} placeholders in ${sql}`);
  return out;
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return escapeLiteral(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return `'${String(value)}'`;
  if (typeof value === 'number' && Number.isFinite(value)) return `'${String(value)}'`;
  if (value instanceof Date && Number.isFinite(value.getTime())) return `'${value.toISOString()}'`;
  throw new TypeError(`a value of this kind cannot be written in: ${typeof value}`);
}

/** The SQLSTATE `trustgate_guard` raises (migration 0026). */
const GUARD_FAILED = 'TG001';

/**
 * PostgreSQL: the statements of one transaction in one round trip. node-postgres sends one
 * statement at a time and waits for its answer (no pipelining), so a transaction of n statements
 * cost n + 2 round trips (BEGIN, COMMIT), each a socket write, a wake-up of the server process
 * and a read on both sides: measured, a fifth of the request thread's time on authenticate. Sent
 * as one simple-protocol query (the statements with their values written in, `inlineValues`),
 * PostgreSQL runs them as one implicit transaction: all or nothing, the first error rolling back
 * the rest. A guarded statement runs inside `trustgate_guard`, which fails the transaction on the
 * server when it returned no row. The statements are announced on `db` one by one, as knex
 * announces its own, so counting sees each.
 */
export function pgTransaction(db: Knex): RunTransaction {
  return async (statements) => {
    const text = statements
      .map((s) => {
        const sql = inlineValues(s.sql, s.bindings);
        return s.guard ? `WITH guarded AS (${sql}) SELECT trustgate_guard(count(*)) FROM guarded` : sql;
      })
      .join(';\n');
    const announced = statements.map((s) => ({
      sql: pgText(s.sql, s.bindings.length),
      bindings: s.bindings,
      batch: 'pg',
      __knexQueryUid: directQueryUid(),
    }));
    for (const a of announced) db.emit('query', a);
    const connection = (await db.client.acquireConnection()) as PgConnection;
    try {
      await connection.query(text);
      for (const a of announced) db.emit('query-response', [], a);
      return true;
    } catch (err) {
      for (const a of announced) db.emit('query-error', err, a);
      if ((err as { code?: string }).code === GUARD_FAILED) return false;
      throw err;
    } finally {
      await db.client.releaseConnection(connection);
    }
  };
}

interface PgConnection {
  query(
    query: string | { name?: string; text: string; values: unknown[] },
  ): Promise<{ rows: Record<string, unknown>[] }>;
}

/** Runs statements: one alone (`rows`) or several in one transaction. */
export interface StatementRunner {
  rows: RunRows;
  transaction: RunTransaction;
}

/**
 * The statements of `db`'s hot path: on its SQLite thread when it has one (db.ts onSqliteThread,
 * area `sql`); on PostgreSQL, transactions in one round trip (`pgTransaction`); through knex
 * otherwise.
 */
export function statementsOn(db: Knex): StatementRunner {
  const transaction = db.client.config.client === 'pg' ? pgTransaction(db) : knexTransaction(db);
  return onSqliteThread(db, 'sql', { rows: hotRows(db), transaction }, ['rows', 'transaction']);
}
