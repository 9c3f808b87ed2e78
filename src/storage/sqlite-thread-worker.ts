/**
 * The SQLite thread's entry (sqlite-thread.ts): one connection to the SQLite file, and the
 * repositories it serves over it, answering one message per batch of calls. The evaluation's
 * reads and its writes (statements built on the request thread: statements.ts) run on the driver
 * directly (better-sqlite3 binds `?` itself), with the request connection's settings and
 * prepared-statement cache. One connection for the reads and the writes: SQLite empties a connection's page cache
 * when another connection has committed since its last read, never for its own commits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { tuneSqliteConnection } from './db';
import type { SqliteThreadCall, SqliteThreadOptions, SqliteThreadReply, ThreadStatement } from './sqlite-thread';
import { makeEvaluationReads } from './repositories/evaluation-facts';
import {
  GuardFailed,
  objectsOf,
  packRows,
  runGuarded,
  type PackedRows,
  type Rows,
  type RunReads,
  type RunRows,
  type StatementRunner,
} from './statements';

const options = workerData as SqliteThreadOptions;
const port = parentPort!;
const conn = new Database(options.filename, { fileMustExist: true });
conn.pragma('journal_mode = WAL');
conn.pragma('synchronous = NORMAL');
conn.pragma('foreign_keys = ON');
if (options.autocheckpointPages !== undefined) conn.pragma(`wal_autocheckpoint = ${options.autocheckpointPages}`);
tuneSqliteConnection(conn, options.cacheMb, options.mmapMb);

/** Values as knex gives them to SQLite: dates as milliseconds, booleans as 0/1, undefined as NULL. */
const bindable = (v: unknown) =>
  v instanceof Date ? v.getTime() : typeof v === 'boolean' ? Number(v) : v === undefined ? null : v;

/** The statements the current call ran, with their times, for the request thread to announce (undefined: not asked for). */
let ran: ThreadStatement[] | undefined;

/**
 * Each reading statement runs in raw mode (rows as arrays) and its rows go back packed: the
 * columns' names and the rows' values (statements.ts `PackedRows`), made objects by the caller.
 * better-sqlite3 builds a row's object key by key through V8's API (ten accounts of 26 columns
 * took 51 µs that way against 28.5 as arrays), and objects cost far more than arrays to copy
 * between threads. Kept per statement: its columns, and whether its rows are packed (all but a
 * statement's with a `__proto__` column: runOne).
 */
const shapes = new WeakMap<Database.Statement, { columns: string[]; packed: boolean }>();
const NO_ROWS: PackedRows = { columns: [], values: [] };

/**
 * Runs one statement: its rows, packed (none for a statement that returns none). A statement with
 * a `__proto__` column answers the driver's own objects, whatever the driver does with that key
 * (better-sqlite3 makes it an own key under Node 22, not under Node 20).
 */
function runOne(sql: string, bindings: readonly unknown[]): Rows {
  const at = performance.now();
  const statement = conn.prepare(sql);
  const values = bindings.map(bindable);
  let out: Rows = NO_ROWS;
  if (statement.reader) {
    let shape = shapes.get(statement);
    if (shape === undefined) {
      const columns = statement.columns().map((c) => c.name);
      shape = { columns, packed: !columns.includes('__proto__') };
      if (shape.packed) statement.raw(true);
      shapes.set(statement, shape);
    }
    const found = statement.all(...values);
    out = shape.packed ? packRows(shape.columns, found as unknown[][]) : (found as Record<string, unknown>[]);
  } else statement.run(...values);
  ran?.push({ sql, bindings, ms: performance.now() - at });
  return out;
}

const packed: RunReads = async (sql, bindings) => runOne(sql, bindings);
const rows: RunRows = async (sql, bindings) => objectsOf(runOne(sql, bindings));

/** The statements, in one transaction as knex runs one (`BEGIN;` is prepared as BEGIN IMMEDIATE: db.ts). */
const sql: StatementRunner = {
  rows,
  async transaction(statements) {
    runOne('BEGIN;', []);
    try {
      await runGuarded(statements, rows);
      runOne('COMMIT;', []);
      return true;
    } catch (err) {
      // (SQLite may have rolled back already, on some errors.)
      if (conn.inTransaction) runOne('ROLLBACK;', []);
      if (err instanceof GuardFailed) return false;
      throw err;
    }
  },
};

type Methods = Record<string, (...args: unknown[]) => Promise<unknown>>;
const areas: Record<string, Methods> = {
  facts: makeEvaluationReads(packed, 'sqlite') as unknown as Methods,
  sql: sql as unknown as Methods,
};

async function answer(call: SqliteThreadCall): Promise<SqliteThreadReply> {
  const [area, name] = call.method.split('.');
  const method = area !== undefined && name !== undefined ? areas[area]?.[name] : undefined;
  if (!method)
    return { id: call.id, error: { name: 'Error', message: `the SQLite thread has no method ${call.method}` } };
  ran = call.announce ? [] : undefined;
  try {
    const result = await method(...call.args);
    return { id: call.id, result, statements: ran ?? [] };
  } catch (err) {
    return { id: call.id, error: { name: (err as Error).name, message: (err as Error).message } };
  }
}

// One batch after the other, one call after the other: a call's statements are its own, and no
// read ever runs inside another call's transaction (knex's transactions await between statements).
let queue = Promise.resolve();
port.on('message', (m: SqliteThreadCall[] | 'stop') => {
  queue = queue.then(async () => {
    if (m === 'stop') {
      conn.close();
      port.close();
      return;
    }
    const replies: SqliteThreadReply[] = [];
    for (const call of m) replies.push(await answer(call));
    port.postMessage(replies);
  });
});
