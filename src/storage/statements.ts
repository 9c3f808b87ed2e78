/**
 * Statements as plain data: SQL text with `?` placeholders and its values, built on the request
 * thread and run by whichever connection serves them. The hot path's writes are lists of them
 * run in one transaction: on PostgreSQL (and SQLite without its thread) through knex, on the
 * SQLite thread straight on the driver (sqlite-thread-worker.ts), so that the thread spends its
 * time in SQLite rather than building queries.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import pg, { escapeLiteral } from 'pg';
import { onSqliteThread, pgHotPipelineOf } from './db';

/** One statement. With `guard`, the statement must return a row, or the whole transaction is abandoned (nothing written). */
export interface Statement {
  sql: string;
  bindings: readonly unknown[];
  guard?: true;
}

/** Runs one statement (autocommit) and answers its rows. */
export type RunRows = (sql: string, bindings: readonly unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * Rows as the SQLite thread answers them: the columns' names, then every row's values one after
 * the other in one array. Objects cross between threads as structured clones, made property by
 * property on both sides (the replies of one authenticate took about 40 µs to read on the request
 * thread), and so do arrays with holes (better-sqlite3's rows are such arrays); one array of plain
 * values built by appending has none, and is copied whole. The caller makes them objects
 * (`objectsOf`).
 */
export interface PackedRows {
  columns: string[];
  values: unknown[];
}

/** A statement's rows: objects, or packed (the SQLite thread's). */
export type Rows = Record<string, unknown>[] | PackedRows;

/** Runs one statement (autocommit) and answers its rows, as objects or packed. */
export type RunReads = (sql: string, bindings: readonly unknown[]) => Promise<Rows>;

/**
 * The functions that make a packed row an object, one per list of columns: an object literal
 * compiled from the names (written as JSON strings), faster than setting the keys one by one.
 * The lists are the hot path's statements' (a few dozen); past MAX_ROW_MAKERS the rest are made
 * without one. A `__proto__` column (which a literal would take for the prototype) is made
 * without one too.
 */
const MAX_ROW_MAKERS = 256;
type RowMaker = (values: readonly unknown[], at: number) => Record<string, unknown>;
const rowMakers = new Map<string, RowMaker>();
function rowMakerOf(columns: readonly string[]): RowMaker {
  const key = columns.join('\u0000');
  let make = rowMakers.get(key);
  if (make === undefined) {
    if (columns.includes('__proto__') || rowMakers.size >= MAX_ROW_MAKERS)
      // Every column an own key (`__proto__` too), the last of a name twice as in a literal.
      return (values, at) => Object.fromEntries(columns.map((c, i) => [c, values[at + i]]));
    const fields = columns.map((n, i) => `${JSON.stringify(n)}: v[at + ${i}]`).join(', ');
    make = new Function('v', 'at', `return { ${fields} };`) as RowMaker;
    rowMakers.set(key, make);
  }
  return make;
}

/** Rows as objects (packed rows made objects, column by column). */
export function objectsOf(rows: Rows): Record<string, unknown>[] {
  if (Array.isArray(rows)) return rows;
  const { columns, values } = rows;
  const out: Record<string, unknown>[] = [];
  if (values.length === 0 || columns.length === 0) return out;
  const make = rowMakerOf(columns);
  for (let at = 0; at < values.length; at += columns.length) out.push(make(values, at));
  return out;
}

/** Rows packed: their columns' names and their values one after the other (as the SQLite thread answers them). */
export function packRows(columns: string[], rows: readonly (readonly unknown[])[]): PackedRows {
  const values: unknown[] = [];
  for (const row of rows) for (let i = 0; i < columns.length; i++) values.push(row[i]);
  return { columns, values };
}

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
    name = digestName('tg_', sql);
    prepared.set(sql, name);
  }
  return name;
}

/** A prepared statement's name: `prefix` and a digest of `text`, so that one name is one text on any connection. */
function digestName(prefix: string, text: string): string {
  return `${prefix}${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
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

/** A statement's PostgreSQL text (numbered placeholders), kept for as many shapes as `preparedName` names. */
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
 * PostgreSQL: one statement (autocommit) on one of `db`'s hot-path connections (shared and
 * pipelined: pg-pipeline.ts), as a named prepared statement, straight on node-postgres rather
 * than through knex's query building and bookkeeping (knex was 5–7 % of the request thread's
 * busy time in a profile of the bench's server on PostgreSQL).
 */
export function pgRows(db: Knex): RunRows {
  return async (sql, bindings) => {
    const text = pgText(sql, bindings.length);
    const name = preparedName(sql);
    const values = bindings as unknown[];
    const result = await onPgConnection(
      db,
      [{ sql, bindings }],
      (connection) => connection.query(name ? { name, text, values } : { text, values }),
      (r) => r.rows,
    );
    return result.rows;
  };
}

/**
 * Runs `send` on one of `db`'s hot-path connections (knex's pool when it has none), with
 * `statements` announced on `db` (`announced`).
 */
async function onPgConnection<T>(
  db: Knex,
  statements: readonly Pick<Statement, 'sql' | 'bindings'>[],
  send: (connection: PgConnection) => Promise<T>,
  rowsOf: (result: T) => unknown,
): Promise<T> {
  const texts = statements.map((s) => ({ sql: pgText(s.sql, s.bindings.length), bindings: s.bindings }));
  return announced(db, texts, rowsOf, async () => {
    const hot = pgHotPipelineOf(db);
    if (hot) {
      // A lost connection is dropped by the pipeline itself (its client's 'error'), whatever the
      // statement it failed; a failure of ours before anything was sent leaves it in use.
      const connection = await hot.acquire();
      try {
        return await send(connection.client);
      } finally {
        hot.done(connection);
      }
    }
    const connection = (await db.client.acquireConnection()) as PgConnection;
    try {
      return await send(connection);
    } finally {
      await db.client.releaseConnection(connection);
    }
  });
}

/**
 * Runs `run` with `statements` announced on `db` as knex announces its own (`query` before;
 * `query-response` or `query-error` after, under one `__knexQueryUid` each), so that what counts
 * or times statements (the tests, the traces' spans) sees these too. `method: 'prepare'` marks a
 * preparation, which counts of a request's statements leave out.
 */
async function announced<T>(
  db: Knex,
  statements: readonly { sql: string; bindings: readonly unknown[]; method?: 'prepare' }[],
  rowsOf: (result: T) => unknown,
  run: () => Promise<T>,
): Promise<T> {
  const events = statements.map((s) => ({ ...s, __knexQueryUid: `pg-direct-${++directQueries}` }));
  for (const e of events) db.emit('query', e);
  try {
    const result = await run();
    for (const e of events) db.emit('query-response', rowsOf(result), e);
    return result;
  } catch (err) {
    for (const e of events) db.emit('query-error', err, e);
    throw err;
  }
}
let directQueries = 0;

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
 * and a read on both sides (socket writes were 28 % of the request thread's busy time in a
 * profile of the bench's server on PostgreSQL, 5 % on SQLite; with `pgRows`, the request
 * thread's CPU per authenticate fell from 1.38–1.40 to 1.08–1.12 ms: README). Sent
 * as one simple-protocol query, PostgreSQL runs them as one implicit transaction: all or nothing,
 * the first error rolling back the rest. Each statement goes as `EXECUTE name(values)` of a text
 * PREPAREd once on the connection (`preparedWrites`), or with its values written in
 * (`inlineValues`) when it could not be prepared. A guarded statement runs inside
 * `trustgate_guard`, which fails the transaction on the server when it returned no row. The
 * statements are announced on `db` one by one, as knex announces its own, so counting sees each.
 */
export function pgTransaction(db: Knex): RunTransaction {
  return async (statements) => {
    try {
      await onPgConnection(
        db,
        statements,
        async (connection) => {
          const names = await preparedWrites(db, connection, statements);
          try {
            return await connection.query(transactionText(statements, names));
          } catch (err) {
            // The connection does not have our prepared statements (a `DEALLOCATE` from elsewhere,
            // or a pooler that hands each transaction another server connection): the transaction
            // rolled back whole. It is sent again written in, and so is every later one on this
            // connection: a miss costs one round trip more, once.
            if ((err as { code?: string }).code !== UNKNOWN_STATEMENT || names.every((n) => n === undefined)) throw err;
            writesPrepared.set(connection, 'off');
            return connection.query(transactionText(statements, []));
          }
        },
        () => [],
      );
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === GUARD_FAILED) return false;
      throw err;
    }
  };
}

/** PostgreSQL's SQLSTATEs for a prepared statement name it does not know, and one it already has. */
const UNKNOWN_STATEMENT = '26000';
const DUPLICATE_STATEMENT = '42P05';

/** A statement's text, inside `trustgate_guard` when it is guarded (placeholders kept). */
function guardedText(s: Statement): string {
  return s.guard ? `WITH guarded AS (${s.sql}) SELECT trustgate_guard(count(*)) FROM guarded` : s.sql;
}

/** The transaction's one query: each statement as `EXECUTE name(values)` when prepared, written in otherwise. */
function transactionText(statements: readonly Statement[], names: readonly (string | undefined)[]): string {
  return statements
    .map((s, i) => {
      const name = names[i];
      if (name === undefined) return inlineValues(guardedText(s), s.bindings);
      return s.bindings.length === 0 ? `EXECUTE ${name}` : `EXECUTE ${name}(${s.bindings.map(literal).join(', ')})`;
    })
    .join(';\n');
}

/**
 * The write texts PREPAREd on each connection (text → name, or null when PostgreSQL could not
 * prepare it; `off` once the connection has lost them): a transaction's statements go as
 * `EXECUTE name(values)`, parsed and planned once per connection instead of at every request
 * (measured: docs/pipeline.md). At most PREPARED_WRITES a connection (the account's update has a
 * text per set of changed columns); past them, texts go written in. A name is a digest of its
 * text, as the reads' are (`preparedName`), so that whatever server connection a name meets
 * (behind a pooler, one another process prepared) it means that text and no other.
 */
const writesPrepared = new WeakMap<PgConnection, Map<string, string | null> | 'off'>();
const PREPARED_WRITES = 200;

/**
 * Each statement's prepared name on the connection (undefined: written in), PREPAREd first when
 * its text is new there: one round trip each, once per connection and text, announced on `db`
 * as the statement it is.
 */
async function preparedWrites(
  db: Knex,
  connection: PgConnection,
  statements: readonly Statement[],
): Promise<(string | undefined)[]> {
  let known = writesPrepared.get(connection);
  if (known === 'off') return statements.map(() => undefined);
  if (!known) writesPrepared.set(connection, (known = new Map()));
  const names: (string | undefined)[] = [];
  for (const s of statements) {
    const text = guardedText(s);
    let name = known.get(text);
    if (name === undefined && known.size < PREPARED_WRITES) {
      const numbered = positional(text, s.bindings.length);
      const candidate = digestName('tg_w_', numbered);
      const sql = `PREPARE ${candidate} AS ${numbered}`;
      // Announced as a preparation, which counts of a request's statements leave out: it is made
      // once per connection and text, as the reads' are (by node-postgres's Parse).
      try {
        await announced(
          db,
          [{ sql, bindings: [], method: 'prepare' }],
          () => [],
          () => connection.query(sql),
        );
        name = candidate;
      } catch (err) {
        if (!(err instanceof pg.DatabaseError)) throw err;
        // Already there (by its digest, the same text); or a text PostgreSQL cannot prepare (a
        // parameter whose type it cannot infer), which goes written in.
        name = err.code === DUPLICATE_STATEMENT ? candidate : null;
      }
      known.set(text, name);
    }
    names.push(name ?? undefined);
  }
  return names;
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
