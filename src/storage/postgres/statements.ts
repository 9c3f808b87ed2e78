/**
 * The PostgreSQL adapter's statements: the hot path's reads as named prepared statements straight
 * on node-postgres over the pipelined connections (connection.ts `pgHotPipelineOf`), and a
 * transaction's statements in one round trip. Every statement is announced on the knex handle as
 * knex announces its own, so that what counts or times statements sees these too.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import pg, { escapeLiteral } from 'pg';
import type { RunRows, RunTransaction, Statement, StatementRunner } from '../statements';
import { pgHotPipelineOf } from './connection';

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
 * pipelined: pipeline.ts), as a named prepared statement, straight on node-postgres rather
 * than through knex's query building and bookkeeping, which is a visible share of the request
 * thread's time on this path.
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
 * would cost n + 2 round trips (BEGIN, COMMIT), each a socket write, a wake-up of the server
 * process and a read on both sides, which would make socket writes a large part of the request
 * thread's time (docs/pipeline.md, *The write transaction's statements prepared*). Sent
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
 * `EXECUTE name(values)`, parsed and planned once per connection instead of at every request,
 * which saves the database's CPU (docs/pipeline.md). At most PREPARED_WRITES a connection (the
 * account's update has a text per set of changed columns); past them, texts go written in. A name is a digest of its
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

/** The hot path's statements on PostgreSQL: reads straight on the driver, transactions in one round trip. */
export function postgresStatements(db: Knex): StatementRunner {
  return { rows: pgRows(db), transaction: pgTransaction(db) };
}
