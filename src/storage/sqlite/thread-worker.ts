/**
 * The SQLite thread's entry (thread.ts): one connection to the SQLite file, running the
 * statements it is sent, one message per batch of calls. The statements are built on the request
 * thread and run here on the driver directly (better-sqlite3 binds `?` itself), with the request
 * connection's settings and prepared-statement cache. One connection for the reads and the
 * writes: SQLite empties a connection's page cache when another connection has committed since
 * its last read, never for its own commits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { GuardFailed, type Statement } from '../statements';
import { settleSqliteConnection, tuneSqliteConnection } from './connection';
import { packRows, type PackedRows } from './rows';
import type {
  SqliteThreadCall,
  SqliteThreadOptions,
  SqliteThreadReply,
  ThreadRequest,
  ThreadResult,
  ThreadStatement,
} from './thread';

const options = workerData as SqliteThreadOptions;
const port = parentPort!;
const conn = new Database(options.filename, { fileMustExist: true });
settleSqliteConnection(conn);
if (options.autocheckpointPages !== undefined) conn.pragma(`wal_autocheckpoint = ${options.autocheckpointPages}`);
tuneSqliteConnection(conn, options.cacheMb, options.mmapMb);

/** Values as knex gives them to SQLite: dates as milliseconds, booleans as 0/1, undefined as NULL. */
const bindable = (v: unknown) =>
  v instanceof Date ? v.getTime() : typeof v === 'boolean' ? Number(v) : v === undefined ? null : v;

/** The statements the current call ran, with their times, for the request thread to announce (undefined: not asked for). */
let ran: ThreadStatement[] | undefined;

/**
 * Each reading statement runs in raw mode (rows as arrays) and its rows go back packed (rows.ts).
 * better-sqlite3 builds a row's object key by key through V8's API, and objects cost far more
 * than arrays to copy between threads. Kept per statement: its columns, and whether its rows are
 * packed (all but a statement's with a `__proto__` column: runOne).
 */
const shapes = new WeakMap<Database.Statement, { columns: string[]; packed: boolean }>();
const NO_ROWS: PackedRows = { columns: [], values: [] };

/**
 * Runs one statement: its rows, packed (none for a statement that returns none). A statement with
 * a `__proto__` column answers the driver's own objects, whatever the driver does with that key
 * (better-sqlite3 makes it an own key under Node 22, not under Node 20).
 */
function runOne(sql: string, bindings: readonly unknown[]): PackedRows | Record<string, unknown>[] {
  const at = performance.now();
  const statement = conn.prepare(sql);
  const values = bindings.map(bindable);
  let out: PackedRows | Record<string, unknown>[] = NO_ROWS;
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

const returnsRows = (rows: PackedRows | Record<string, unknown>[]) =>
  Array.isArray(rows) ? rows.length > 0 : rows.values.length > 0;

/**
 * The statements in one transaction, as knex runs one (`BEGIN;` is prepared as BEGIN IMMEDIATE:
 * connection.ts); false when a guarded statement returned no row (nothing written).
 */
function transaction(statements: readonly Statement[]): boolean {
  runOne('BEGIN;', []);
  try {
    for (const s of statements) if (!returnsRows(runOne(s.sql, s.bindings)) && s.guard) throw new GuardFailed();
    runOne('COMMIT;', []);
    return true;
  } catch (err) {
    // (SQLite may have rolled back already, on some errors.)
    if (conn.inTransaction) runOne('ROLLBACK;', []);
    if (err instanceof GuardFailed) return false;
    throw err;
  }
}

function run(request: ThreadRequest): ThreadResult {
  switch (request.kind) {
    case 'rows':
      return { rows: runOne(request.sql, request.bindings) };
    case 'transaction':
      return { written: transaction(request.statements) };
  }
}

function answer(call: SqliteThreadCall): SqliteThreadReply {
  ran = call.announce ? [] : undefined;
  try {
    const result = run(call.request);
    return { id: call.id, result, statements: ran ?? [] };
  } catch (err) {
    return { id: call.id, error: { name: (err as Error).name, message: (err as Error).message } };
  }
}

// One batch after the other, one call after the other: a call's statements are its own, and no
// statement ever runs inside another call's transaction.
port.on('message', (m: SqliteThreadCall[] | 'stop') => {
  if (m === 'stop') {
    conn.close();
    port.close();
    return;
  }
  port.postMessage(m.map(answer));
});
