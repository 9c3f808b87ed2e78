/**
 * SQLite's WAL checkpoints, off the request thread. In WAL mode a commit appends pages to the
 * log; a checkpoint copies them back into the database file and waits for the disk (fsync)
 * twice. Left to itself, SQLite checkpoints inside the commit that crosses 1,000 pages, on the
 * thread that serves requests: with better-sqlite3 (synchronous) that request, and every
 * request queued behind it, waits for the disk, for far longer than an ordinary commit takes. A
 * worker thread with its own connection checkpoints every `intervalMs` instead
 * (PASSIVE: it never blocks the writer or the readers), so the writers mostly only append.
 *
 * The writing connections (the request connection and the SQLite thread's) keep an automatic
 * checkpoint at a larger size (CHECKPOINT_FALLBACK_PAGES): a safety valve should the thread fall
 * behind or stop, and under writes that never pause what starts the log again (below).
 * SQLITE_CHECKPOINT_MS=0 turns the thread off (SQLite's own checkpoints at 1,000 pages, as before).
 */
import { Worker } from 'node:worker_threads';

/**
 * WAL pages after which a writing connection checkpoints by itself (SQLite's default: 1,000).
 * Under writes that never pause this is not only a safety valve: SQLite starts the log again from
 * its beginning only when a write begins with every page of it already copied, and the thread's
 * PASSIVE checkpoints never quite catch up with a writer that commits while they copy and wait
 * for the disk. So the log grows until a commit crosses this size, and that commit copies what is
 * left and waits for the database file's fsync on the writing thread, in which the SQLite thread
 * (thread.ts) serves nothing: a stall that shows in the p99 of a steady load. The larger the
 * fallback (64,000 pages: a log file of up to 264 MB, reused in place), the rarer that commit
 * (docs/pipeline.md, *SQLite's checkpoints, off the request thread*). The checkpoint thread
 * keeps the part of the log that readers search small whatever its size.
 */
export const CHECKPOINT_FALLBACK_PAGES = 64_000;

// The thread's code, run as a CommonJS script (no file to compile or ship beside it).
//
// The database file's sync: a checkpoint syncs the database file only when it has copied the
// whole log. Under writes that never pause the thread's passes never do (each leaves what was
// committed while it copied), so what they copied stayed unsynced in the operating system's
// cache, up to the whole log, until the commit that crossed the fallback copied the rest and
// synced it all on the SQLite thread, a long stall in which it served nothing, frequent under
// first authenticates, which write many distinct pages (docs/pipeline.md). After each pass that copied pages the
// thread syncs the file itself (`fdatasync` through a descriptor of its own: a sync writes the
// file's data whoever wrote it), so that commit syncs only what came after the thread's last
// pass. (A pass's result does not say whether SQLite synced: it reports the log as the pass
// found it, all copied, whether or not more was committed meanwhile. Where SQLite did, the
// second sync finds nothing to write. A pass that copied nothing new does not sync.)
const THREAD = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
// Every connection to the file overwrites what it deletes (connection.ts); this one deletes nothing, but says so too.
db.pragma('secure_delete = ON');
// The database file, to sync what a pass copied and SQLite did not (above).
const file = fs.openSync(workerData.filename, 'r');
let before = { log: 0, checkpointed: 0 };
let syncs = 0;
const timer = setInterval(() => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    // Copied pages and found the log otherwise than the pass before did: more of it copied, or
    // a log started again since (however long it has grown).
    if (r.checkpointed > 0 && (r.checkpointed !== before.checkpointed || r.log !== before.log)) {
      fs.fdatasyncSync(file);
      syncs += 1;
    }
    if (r.log >= 0) before = r;
    parentPort.postMessage({ log: r.log, checkpointed: r.checkpointed, syncs });
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) });
  }
}, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m && m.truncate !== undefined) {
    let busy = true;
    try {
      busy = db.pragma('wal_checkpoint(TRUNCATE)')[0].busy !== 0;
    } catch (err) {
      parentPort.postMessage({ error: String(err && err.message || err) });
    }
    parentPort.postMessage({ truncated: m.truncate, busy });
  }
  if (m === 'stop') {
    clearInterval(timer);
    db.close();
    fs.closeSync(file);
    parentPort.close();
  }
});
`;

/**
 * What the thread reports after each pass: the WAL's size and the pages copied (-1 before the
 * first pass), and how many times it has synced the database file itself (above THREAD).
 */
export interface CheckpointReport {
  log: number;
  checkpointed: number;
  syncs: number;
}

export interface Checkpointer {
  /** The last pass's report. */
  last(): CheckpointReport;
  /**
   * A checkpoint that copies the whole log and truncates it to nothing, on the thread (it may
   * wait for readers and the writer, up to the busy timeout); true when it did, false when they
   * kept it busy throughout.
   */
  truncate(): Promise<boolean>;
  stop(): Promise<void>;
}

export function startCheckpointer(
  filename: string,
  intervalMs: number,
  onError: (message: string) => void = () => {},
): Checkpointer {
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: { filename, intervalMs, driver: require.resolve('better-sqlite3') },
  });
  // Never what keeps a process alive: the database's owner stops it when it closes the database.
  worker.unref();
  let last: CheckpointReport = { log: -1, checkpointed: -1, syncs: 0 };
  const truncations = new Map<number, (done: boolean) => void>();
  let asked = 0;
  worker.on('message', (m: CheckpointReport | { error: string } | { truncated: number; busy: boolean }) => {
    if ('error' in m) onError(m.error);
    else if ('truncated' in m) {
      truncations.get(m.truncated)?.(!m.busy);
      truncations.delete(m.truncated);
    } else last = m;
  });
  worker.on('error', (err) => onError(err.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => {
    for (const done of truncations.values()) done(false);
    truncations.clear();
  });
  return {
    last: () => last,
    truncate() {
      const id = ++asked;
      const done = new Promise<boolean>((resolve) => truncations.set(id, resolve));
      worker.postMessage({ truncate: id });
      return done;
    },
    stop() {
      worker.postMessage('stop');
      return exited;
    },
  };
}
