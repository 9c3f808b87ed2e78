/**
 * The SQLite thread's entry (sqlite-thread.ts): one connection to the SQLite file, and the
 * repositories it serves over it, answering one message per batch of calls. The evaluation's
 * reads run on the driver directly (better-sqlite3 binds `?` itself); the writes through knex,
 * on that same connection; all with the request connection's settings and prepared-statement
 * cache. One connection for the reads and the writes: SQLite empties a connection's page cache
 * when another connection has committed since its last read, never for its own commits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import knex from 'knex';
import { tuneSqliteConnection } from './db';
import type { SqliteThreadCall, SqliteThreadOptions, SqliteThreadReply, ThreadStatement } from './sqlite-thread';
import { makeEvaluationFactsRepository } from './repositories/evaluation-facts';
import { makeEvaluationWritesRepository } from './repositories/evaluation-writes';
import { makeRateLimitRepository } from './repositories/rate-limits';

const options = workerData as SqliteThreadOptions;
const port = parentPort!;
const conn = new Database(options.filename, { fileMustExist: true });
conn.pragma('journal_mode = WAL');
conn.pragma('synchronous = NORMAL');
conn.pragma('foreign_keys = ON');
if (options.autocheckpointPages !== undefined) conn.pragma(`wal_autocheckpoint = ${options.autocheckpointPages}`);
tuneSqliteConnection(conn, options.cacheMb, options.mmapMb);

// knex over this same connection (its pool of one is given this connection, not a new one).
const db = knex({ client: 'better-sqlite3', connection: { filename: options.filename }, useNullAsDefault: true });
(db.client as { acquireRawConnection(): Promise<unknown> }).acquireRawConnection = async () => conn;

/** Values as knex gives them to SQLite: dates as milliseconds, booleans as 0/1, undefined as NULL. */
const bindable = (v: unknown) =>
  v instanceof Date ? v.getTime() : typeof v === 'boolean' ? Number(v) : v === undefined ? null : v;

let ran: ThreadStatement[] = [];
const started = new Map<string, { statement: ThreadStatement; at: number }>();
db.on('query', (q: { sql: string; bindings?: unknown[]; __knexQueryUid: string }) => {
  const statement = { sql: q.sql, bindings: q.bindings ?? [], ms: 0 };
  ran.push(statement);
  started.set(q.__knexQueryUid, { statement, at: performance.now() });
});
const done = (_r: unknown, q: { __knexQueryUid: string }) => {
  const s = started.get(q.__knexQueryUid);
  started.delete(q.__knexQueryUid);
  if (s) s.statement.ms = performance.now() - s.at;
};
db.on('query-response', done);
db.on('query-error', (_e: unknown, q: { __knexQueryUid: string }) => done(undefined, q));

type Methods = Record<string, (...args: unknown[]) => Promise<unknown>>;
const areas: Record<string, Methods> = {
  facts: makeEvaluationFactsRepository(async (sql, bindings) => {
    const at = performance.now();
    const rows = conn.prepare(sql).all(...bindings.map(bindable)) as Record<string, unknown>[];
    ran.push({ sql, bindings, ms: performance.now() - at });
    return rows;
  }) as unknown as Methods,
  writes: makeEvaluationWritesRepository(db) as unknown as Methods,
  rateLimits: makeRateLimitRepository(db) as unknown as Methods,
};

async function answer(call: SqliteThreadCall): Promise<SqliteThreadReply> {
  const [area, name] = call.method.split('.');
  const method = area !== undefined && name !== undefined ? areas[area]?.[name] : undefined;
  if (!method)
    return { id: call.id, error: { name: 'Error', message: `the SQLite thread has no method ${call.method}` } };
  ran = [];
  try {
    const result = await method(...call.args);
    return { id: call.id, result, statements: ran };
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
      await db.destroy();
      port.close();
      return;
    }
    const replies: SqliteThreadReply[] = [];
    for (const call of m) replies.push(await answer(call));
    port.postMessage(replies);
  });
});
