/**
 * The hot path's SQLite statements on a thread of their own. better-sqlite3 runs a statement on
 * the thread that calls it, so on one thread an evaluation's SQL (a large part of its time) left
 * the second core idle. The evaluation's reads and write (storage/evaluation/) and the rate limit's
 * upsert run instead on a worker thread with a connection of its own (thread-worker.ts). In WAL
 * mode that connection and the request thread's (every other statement: ingestion, the Account
 * API, webhooks…) do not block each other's reads; a read sees every transaction committed
 * before it started.
 *
 * The thread is sent statements, never code: one statement to run alone, or a transaction's
 * statements. The calls made in one turn of the event loop are one message each way (structured
 * clones; rows come back packed, rows.ts, which copy far faster than objects). The thread starts
 * on the first call and stops when the database is closed; while no call is waiting it does not
 * keep the process alive.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Statement } from '../statements';
import { objectsOf, type PackedRows } from './rows';

export interface SqliteThreadOptions {
  filename: string;
  cacheMb: number;
  mmapMb: number;
  /** The WAL size at which the thread's own commits checkpoint (as the request connection's; undefined: SQLite's default). */
  autocheckpointPages?: number;
}

/** A statement the thread ran for a call, with its time in ms. */
export interface ThreadStatement {
  sql: string;
  bindings: readonly unknown[];
  ms: number;
}

/** What the thread is asked: one statement alone (autocommit), or statements in one transaction. */
export type ThreadRequest =
  | { kind: 'rows'; sql: string; bindings: readonly unknown[] }
  | { kind: 'transaction'; statements: readonly Statement[] };

/** What it answers: the statement's rows (packed, or the driver's objects: thread-worker.ts), or whether the transaction wrote. */
export type ThreadResult = { rows: PackedRows | Record<string, unknown>[] } | { written: boolean };

export interface SqliteThread {
  /**
   * Runs one statement (autocommit) and answers its rows; with `announce`, also the statements it
   * ran (their text, values and times): copying them back costs both threads, and only something
   * listening for them needs them.
   */
  rows(
    sql: string,
    bindings: readonly unknown[],
    announce: boolean,
  ): Promise<{ rows: Record<string, unknown>[]; statements: ThreadStatement[] }>;
  /** Runs the statements in one transaction; false (nothing written) when a guard returned no row. */
  transaction(
    statements: readonly Statement[],
    announce: boolean,
  ): Promise<{ written: boolean; statements: ThreadStatement[] }>;
  stop(): Promise<void>;
}

/** What the thread answers, one per call. */
export type SqliteThreadReply =
  | { id: number; result: ThreadResult; statements: ThreadStatement[] }
  | { id: number; error: { name: string; message: string } };

/** What the thread is sent, one per call. */
export interface SqliteThreadCall {
  id: number;
  request: ThreadRequest;
  /** Whether to answer the statements the call ran. */
  announce: boolean;
}

// The thread's entry, beside this file: compiled JavaScript, or (run from the sources, as the
// tests do) TypeScript, which the thread then compiles as it loads it with SWC, the tests' own
// compiler (a development dependency: a production install runs the compiled files).
const BOOT = `
const { workerData } = require('node:worker_threads');
if (workerData.swc) {
  const fs = require('node:fs');
  const { transformSync } = require(workerData.swc);
  require.extensions['.ts'] = (module, filename) => {
    const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
      filename,
      module: { type: 'commonjs' },
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    });
    module._compile(code, filename);
  };
}
require(workerData.entry);
`;

export function startSqliteThread(options: SqliteThreadOptions): SqliteThread {
  const entry = path.join(__dirname, `thread-worker${path.extname(__filename)}`);
  const worker = new Worker(BOOT, {
    eval: true,
    workerData: { ...options, entry, swc: entry.endsWith('.ts') ? require.resolve('@swc/core') : undefined },
  });
  worker.unref();
  type Answer = { result: ThreadResult; statements: ThreadStatement[] };
  const pending = new Map<number, { resolve: (v: Answer) => void; reject: (e: Error) => void }>();
  let next = 0;
  let failed: Error | undefined;
  const failAll = (err: Error) => {
    failed = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('message', (replies: SqliteThreadReply[]) => {
    for (const reply of replies) {
      const p = pending.get(reply.id);
      if (!p) continue;
      pending.delete(reply.id);
      if ('error' in reply) p.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name }));
      else p.resolve({ result: reply.result, statements: reply.statements });
    }
    // Only a waiting call keeps the process alive (a command that reads and exits, for one).
    if (pending.size === 0) worker.unref();
  });
  worker.on('error', failAll);
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      failAll(new Error(`the SQLite thread stopped (exit code ${code})`));
      resolve();
    }),
  );
  // The calls made in one turn (an evaluation's reads that do not depend on each other, under
  // Promise.all) go as one message, and come back as one.
  let batch: SqliteThreadCall[] = [];
  const send = () => {
    const calls = batch;
    batch = [];
    worker.postMessage(calls);
  };
  const call = (request: ThreadRequest, announce: boolean): Promise<Answer> => {
    if (failed) return Promise.reject(failed);
    const id = next++;
    if (pending.size === 0) worker.ref();
    if (batch.length === 0) queueMicrotask(send);
    batch.push({ id, request, announce });
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  };
  return {
    async rows(sql, bindings, announce) {
      const { result, statements } = await call({ kind: 'rows', sql, bindings }, announce);
      if (!('rows' in result)) throw new Error('the SQLite thread answered a statement without rows');
      return { rows: Array.isArray(result.rows) ? result.rows : objectsOf(result.rows), statements };
    },
    async transaction(statementsToRun, announce) {
      const { result, statements } = await call({ kind: 'transaction', statements: statementsToRun }, announce);
      if (!('written' in result)) throw new Error('the SQLite thread answered a transaction without its outcome');
      return { written: result.written, statements };
    },
    stop() {
      worker.postMessage('stop');
      return exited;
    },
  };
}
