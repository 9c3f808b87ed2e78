/**
 * The read thread's entry (read-thread.ts): a read-only connection to the SQLite file and the
 * evaluation-facts repository over it, answering one message per call. The statements run on the
 * driver directly (better-sqlite3 binds `?` itself), with the request connection's settings
 * and prepared-statement cache.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { tuneSqliteConnection } from './db';
import type { ReadThreadCall, ReadThreadOptions, ReadThreadReply, ThreadStatement } from './read-thread';
import { makeEvaluationFactsRepository } from './repositories/evaluation-facts';

const options = workerData as ReadThreadOptions;
const port = parentPort!;
const conn = new Database(options.filename, { readonly: true, fileMustExist: true });
tuneSqliteConnection(conn, options.cacheMb, options.mmapMb);

/** Values as knex gives them to SQLite: dates as milliseconds, booleans as 0/1, undefined as NULL. */
const bindable = (v: unknown) =>
  v instanceof Date ? v.getTime() : typeof v === 'boolean' ? Number(v) : v === undefined ? null : v;

let ran: ThreadStatement[] = [];
const facts = makeEvaluationFactsRepository(async (sql, bindings) => {
  const started = performance.now();
  const rows = conn.prepare(sql).all(...bindings.map(bindable)) as Record<string, unknown>[];
  ran.push({ sql, bindings, ms: performance.now() - started });
  return rows;
}) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;

async function answer(call: ReadThreadCall): Promise<ReadThreadReply> {
  const method = facts[call.method];
  if (!method)
    return { id: call.id, error: { name: 'Error', message: `the read thread has no method ${call.method}` } };
  ran = [];
  try {
    const result = await method(...call.args);
    return { id: call.id, result, statements: ran };
  } catch (err) {
    return { id: call.id, error: { name: (err as Error).name, message: (err as Error).message } };
  }
}

port.on('message', (m: ReadThreadCall[] | 'stop') => {
  if (m === 'stop') {
    conn.close();
    port.close();
    return;
  }
  // One call after the other: the driver is synchronous, so each call's statements are its own.
  void (async () => {
    const replies: ReadThreadReply[] = [];
    for (const call of m) replies.push(await answer(call));
    port.postMessage(replies);
  })();
});
