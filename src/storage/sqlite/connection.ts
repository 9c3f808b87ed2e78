/**
 * The SQLite adapter's connections: the knex handle on the embedded file (one connection: the
 * driver is synchronous), its settings, and the two threads it keeps beside the request thread
 * (thread.ts runs the hot path's statements; checkpointer.ts copies the write-ahead log back).
 *
 * Settings: WAL (readers and the writer do not block each other; other processes can read while
 * one writes), synchronous NORMAL (durable across a crash of the process; only a power loss can
 * undo the last commits), secure_delete (what a statement deletes is overwritten with zeros, so
 * an erased person stays in no free page), a page cache and a memory map sized for files of
 * several GB (SQLITE_CACHE_MB, SQLITE_MMAP_MB), and prepared statements kept per connection.
 * The folder and the files are private to the service's user (privateDatabaseFile).
 */
import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import knex, { type Knex } from 'knex';
import { DB_DEFAULTS } from '../../config';
import { CHECKPOINT_FALLBACK_PAGES, startCheckpointer, type Checkpointer } from './checkpointer';
import { startSqliteThread, type SqliteThread } from './thread';

/** The SQLite thread of each database that has one (started on first use). */
const sqliteThreads = new WeakMap<Knex, () => SqliteThread>();

/** The database's SQLite thread (thread.ts), when it is a SQLite file with one. */
export function sqliteThreadOf(db: Knex): SqliteThread | undefined {
  return sqliteThreads.get(db)?.();
}

/** The checkpoint thread of each SQLite file that has one (started with its first connection). */
const checkpointers = new WeakMap<Knex, () => Checkpointer | undefined>();

/** The database's checkpoint thread (checkpointer.ts), once its first connection has started it. */
export function checkpointerOf(db: Knex): Checkpointer | undefined {
  return checkpointers.get(db)?.();
}

/**
 * The page cache, in MB, of a connection whose memory map covers the whole file: the map serves
 * the file's pages without the cache, which then holds only the pages a transaction writes and
 * those read back from the log.
 */
export const MAPPED_PAGE_CACHE_MB = 2;

/** How often a file connection compares the file's size with its map again (it may grow past it). */
export const PAGE_CACHE_REFIT_MS = 10_000;

/**
 * The page cache a connection keeps, in KiB: `cacheMb` (SQLITE_CACHE_MB) while some of the file
 * lies beyond the memory map (or there is none), read through the cache; MAPPED_PAGE_CACHE_MB (or
 * less, if `cacheMb` is less) while the map covers it all. A large cache on a mapped file only
 * cost: at the end of each write transaction SQLite drops the cached pages numbered beyond the
 * file's end, and B-tree balancing gives pages a temporary number at 1 GiB (the lock-byte page)
 * while it reorders them, so in a file under 1 GiB a commit that split a page walks the cache's
 * hash table across up to its whole size: with hundreds of MB cached, that walk was a large
 * share of the SQLite thread's time on first authenticates (docs/pipeline.md, *The page cache of a mapped file*).
 */
export function pageCacheKib(fileBytes: number, mapBytes: number, cacheMb: number): number {
  const mapped = mapBytes > 0 && fileBytes <= mapBytes;
  return Math.round((mapped ? Math.min(cacheMb, MAPPED_PAGE_CACHE_MB) : cacheMb) * 1024);
}

/**
 * What every connection that writes the file sets, the request connection's and the SQLite
 * thread's alike. `secure_delete` is a connection's own setting, not the file's: a connection
 * without it would leave what it deletes in the freed space. ON, not FAST: FAST leaves the
 * content of whole pages put on the free list.
 */
export function settleSqliteConnection(conn: BetterSqlite3.Database): void {
  conn.pragma('journal_mode = WAL');
  conn.pragma('synchronous = NORMAL');
  conn.pragma('foreign_keys = ON');
  conn.pragma('secure_delete = ON');
}

/**
 * The database's folder (mode 0700 when this creates it) and file (0600), made private before
 * SQLite opens it: the file holds every email and phone. The file is created here, empty (SQLite
 * takes an empty file for a new database), rather than under a umask: the umask is the whole
 * process's, and would change the modes of whatever else any of its threads creates meanwhile.
 * SQLite gives the `-wal` and `-shm` files it creates the mode of the database file, so they are
 * 0600 too. A file an earlier release made 0644, and its `-wal` and `-shm`, are made 0600.
 */
export function privateDatabaseFile(filename: string): void {
  fs.mkdirSync(path.dirname(filename), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(filename, 'a', 0o600));
  for (const file of [filename, `${filename}-wal`, `${filename}-shm`]) {
    try {
      if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
    } catch (err) {
      // Absent (no -wal yet), or not the service's own file to change: SQLite opens it as it is.
      if (!['ENOENT', 'EPERM', 'EROFS'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
  }
}

/** A SQLite connection's page cache, memory map and prepared-statement cache (the request connection and the SQLite thread's). */
export function tuneSqliteConnection(conn: BetterSqlite3.Database, cacheMb: number, mmapMb: number): void {
  conn.pragma('busy_timeout = 5000');
  conn.pragma(`mmap_size = ${Math.round(mmapMb * 1024 * 1024)}`);
  fitPageCache(conn, cacheMb);
  if (!conn.memory) {
    // The file grows; the connection's cache follows it past the map (unref'd: keeps nothing alive).
    const timer = setInterval(() => {
      if (!conn.open) return clearInterval(timer);
      try {
        fitPageCache(conn, cacheMb);
      } catch {
        // The connection busy with a statement being iterated: the next refit sets it.
      }
    }, PAGE_CACHE_REFIT_MS);
    timer.unref();
  }
  cachePreparedStatements(conn);
}

/**
 * Sets the connection's page cache for the file's size now and the map it has (pageCacheKib; the
 * map as SQLite took it, which caps it); an in-memory database keeps `cacheMb`.
 */
export function fitPageCache(conn: BetterSqlite3.Database, cacheMb: number): void {
  const pages = conn.pragma('page_count', { simple: true }) as number;
  const pageSize = conn.pragma('page_size', { simple: true }) as number;
  const mapBytes = conn.pragma('mmap_size', { simple: true }) as number;
  const kib = conn.memory ? Math.round(cacheMb * 1024) : pageCacheKib(pages * pageSize, mapBytes, cacheMb);
  if (conn.pragma('cache_size', { simple: true }) !== -kib) conn.pragma(`cache_size = ${-kib}`);
}

/** The embedded database's settings. */
export interface SqliteOptions {
  /** Where the SQLite file lives (`:memory:` for none). */
  sqliteFile?: string;
  /** The page cache and the memory map, in MB. */
  sqliteCacheMb?: number;
  sqliteMmapMb?: number;
  /** How often a worker thread checkpoints the WAL (0: SQLite checkpoints in the committing request). */
  sqliteCheckpointMs?: number;
  /** Told when the checkpoint thread fails (the request connection's own checkpoints still run). */
  onCheckpointError?: (message: string) => void;
  /** Run the hot path's statements on a thread of their own (thread.ts; default on for a file). */
  sqliteThread?: boolean;
}

/** The embedded database: a SQLite file (or `:memory:`) with its settings and threads. */
export function openSqlite(options: SqliteOptions): Knex {
  const filename = options.sqliteFile ?? path.resolve('data', 'trustgate.sqlite');
  if (filename !== ':memory:') privateDatabaseFile(filename);
  const cacheMb = options.sqliteCacheMb ?? DB_DEFAULTS.sqliteCacheMb;
  const mmapMb = options.sqliteMmapMb ?? DB_DEFAULTS.sqliteMmapMb;
  const checkpointMs = filename === ':memory:' ? 0 : (options.sqliteCheckpointMs ?? DB_DEFAULTS.sqliteCheckpointMs);
  let checkpointer: Checkpointer | undefined;
  const db = knex({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      // One connection: the driver is synchronous, so a second one would only add lock waits.
      min: 1,
      max: 1,
      afterCreate(conn: BetterSqlite3.Database, done: (err: Error | null, c: unknown) => void) {
        try {
          settleSqliteConnection(conn);
          tuneSqliteConnection(conn, cacheMb, mmapMb);
          if (checkpointMs > 0) {
            // The file exists now that a connection opened it.
            conn.pragma(`wal_autocheckpoint = ${CHECKPOINT_FALLBACK_PAGES}`);
            checkpointer ??= startCheckpointer(filename, checkpointMs, options.onCheckpointError);
          }
          done(null, conn);
        } catch (err) {
          done(err as Error, conn);
        }
      },
    },
  });
  checkpointers.set(db, () => checkpointer);
  let sqliteThread: SqliteThread | undefined;
  if (filename !== ':memory:' && (options.sqliteThread ?? true)) {
    const autocheckpointPages = checkpointMs > 0 ? CHECKPOINT_FALLBACK_PAGES : undefined;
    sqliteThreads.set(
      db,
      () => (sqliteThread ??= startSqliteThread({ filename, cacheMb, mmapMb, autocheckpointPages })),
    );
  }
  // Closing the database stops its threads first.
  // (knex.destroy() calls its client's destroy; the instance's own members are read-only.)
  const client = db.client as { destroy(callback?: unknown): Promise<void> };
  const destroy = client.destroy.bind(client);
  client.destroy = async (callback?: unknown) => {
    sqliteThreads.delete(db);
    checkpointers.delete(db);
    await Promise.all([checkpointer?.stop(), sqliteThread?.stop()]);
    return destroy(callback);
  };
  return db;
}

/** Prepared statements kept per connection (the hot path's statements are a few dozen shapes). */
export const PREPARED_CACHE_SIZE = 500;

/**
 * Knex prepares every statement it runs afresh; preparing costs more than running most of
 * ours. The connection keeps its prepared statements by SQL text instead, least recently used
 * dropped first. Safe because knex only calls `all` or `run` on them (each runs to completion
 * at once), and SQLite recompiles a statement itself when a migration changes the schema.
 *
 * Transactions begin IMMEDIATE (knex sends `BEGIN;`): the write lock is taken at BEGIN, waiting
 * for it under `busy_timeout`. Two connections write the file (the request thread's and the
 * SQLite thread's, thread.ts), and a deferred transaction fails at its first write with
 * SQLITE_BUSY(_SNAPSHOT), without waiting, whenever the other connection holds the lock or has
 * committed since the transaction's first read.
 */
function cachePreparedStatements(conn: BetterSqlite3.Database): void {
  const prepare = conn.prepare.bind(conn);
  // How recently a statement ran is a number on its entry, not its place in the Map, so that a
  // statement run again changes nothing but that number.
  const cache = new Map<string, { statement: BetterSqlite3.Statement; ran: number }>();
  let runs = 0;
  conn.prepare = ((text: string) => {
    const sql = text === 'BEGIN;' ? 'BEGIN IMMEDIATE;' : text;
    const cached = cache.get(sql);
    if (cached) {
      cached.ran = ++runs;
      return cached.statement;
    }
    if (cache.size >= PREPARED_CACHE_SIZE) {
      let oldest: string | undefined;
      let oldestRan = Infinity;
      for (const [key, entry] of cache) {
        if (entry.ran < oldestRan) [oldest, oldestRan] = [key, entry.ran];
      }
      cache.delete(oldest!);
    }
    const statement = prepare(sql);
    cache.set(sql, { statement, ran: ++runs });
    return statement;
  }) as BetterSqlite3.Database['prepare'];
}
