/**
 * The database: PostgreSQL when a URL is given, otherwise an embedded SQLite file in the data
 * folder. The same migrations and queries run on both.
 *
 * SQLite runs on better-sqlite3: a synchronous driver on one connection, so a statement costs
 * its own time and no thread-pool round trip, and a transaction never waits for the connection
 * (knex runs its statements back to back). Settings: WAL (readers and the writer do not block
 * each other; other processes can read while one writes), synchronous NORMAL (durable across a
 * crash of the process; only a power loss can undo the last commits), a page cache and a memory
 * map sized for files of several GB (SQLITE_CACHE_MB, SQLITE_MMAP_MB).
 */
import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import knex, { type Knex } from 'knex';
import pg from 'pg';
import { DB_DEFAULTS } from '../config';
import { CHECKPOINT_FALLBACK_PAGES, startCheckpointer, type Checkpointer } from './checkpointer';
import { migrationSource } from './migrations';
import { makePgPipeline, type PgPipeline } from './pg-pipeline';
import { startSqliteThread, type SqliteThread } from './sqlite-thread';

export type Db = Knex;
export type Dialect = 'sqlite' | 'postgresql';

// PostgreSQL returns BIGINT (int8) and COUNT(*) as strings; every such value here is a
// millisecond timestamp or a count, far inside Number's safe range.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface DbOptions {
  databaseUrl?: string;
  /** Where the SQLite file lives when there is no URL. */
  sqliteFile?: string;
  /** PostgreSQL connections of knex's pool (every statement but the hot path's). */
  poolSize?: number;
  /** PostgreSQL connections of the hot path (pg-pipeline.ts), each shared by every request. */
  hotConnections?: number;
  /** SQLite page cache and memory map, in MB. */
  sqliteCacheMb?: number;
  sqliteMmapMb?: number;
  /** How often a worker thread checkpoints SQLite's WAL (0: SQLite checkpoints in the committing request). */
  sqliteCheckpointMs?: number;
  /** Told when the checkpoint thread fails (the request connection's own checkpoints still run). */
  onCheckpointError?: (message: string) => void;
  /** PostgreSQL: told when a connection of the hot path fails (it is dropped; the next statement opens another). */
  onConnectionError?: (message: string) => void;
  /** SQLite: run the evaluation's statements on a thread of their own (sqlite-thread.ts; default on for a file). */
  sqliteThread?: boolean;
}

/** The SQLite thread of each database that has one (started on first use). */
const sqliteThreads = new WeakMap<Db, () => SqliteThread>();

/** The database's SQLite thread (sqlite-thread.ts), when it is a SQLite file with one. */
export function sqliteThreadOf(db: Db): SqliteThread | undefined {
  return sqliteThreads.get(db)?.();
}

/** The checkpoint thread of each SQLite file that has one (started with its first connection). */
const checkpointers = new WeakMap<Db, () => Checkpointer | undefined>();

/** The database's checkpoint thread (checkpointer.ts), once its first connection has started it. */
export function checkpointerOf(db: Db): Checkpointer | undefined {
  return checkpointers.get(db)?.();
}

/**
 * `local`'s methods `names`, run on the database's SQLite thread when it has one (sqlite-thread.ts:
 * the thread runs the same repository, registered there as `area`, over its own connection), on
 * this thread otherwise. A call given a transaction handle (a function: it cannot cross threads)
 * runs here. The thread's statements are announced on `db` as knex announces its own (its
 * `query` event, in the caller's async context), so that whatever counts or inspects the
 * statements sees them.
 */
export function onSqliteThread<T extends object, K extends keyof T & string>(
  db: Db,
  area: string,
  local: T,
  names: readonly K[],
): Pick<T, K> {
  const out: Partial<Record<K, unknown>> = {};
  for (const name of names) {
    const method = local[name] as (...args: unknown[]) => Promise<unknown>;
    out[name] = async (...args: unknown[]) => {
      const thread = sqliteThreadOf(db);
      if (!thread || args.some((a) => typeof a === 'function')) return method.apply(local, args);
      // The statements come back only when something listens for them (the tests, the traces, the bench's count).
      const announce = db.listenerCount('query') > 0;
      const { result, statements } = await thread.call(`${area}.${name}`, args, announce);
      for (const s of statements) db.emit('query', { ...s, thread: 'sqlite' });
      return result;
    };
  }
  return out as Pick<T, K>;
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
 * hash table across up to its whole size. With 256 MB cached (65,536 pages) that walk was 12 %
 * of the SQLite thread's time on first authenticates of a 987 MB file, and a cache of 1–8 MB
 * served them 20–40 % faster than 256 MB on a 740 MB one (docs/speed-log.md, 2026-11-29).
 */
export function pageCacheKib(fileBytes: number, mapBytes: number, cacheMb: number): number {
  const mapped = mapBytes > 0 && fileBytes <= mapBytes;
  return Math.round((mapped ? Math.min(cacheMb, MAPPED_PAGE_CACHE_MB) : cacheMb) * 1024);
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

export function dialectOf(db: Db): Dialect {
  return db.client.config.client === 'pg' ? 'postgresql' : 'sqlite';
}

/** The hot path's connections of each PostgreSQL database (made on first use). */
const pgHotPipelines = new WeakMap<Db, () => PgPipeline>();

/**
 * The connections the hot path's statements run on (statements.ts `pgRows`, `pgTransaction`),
 * when `db` is PostgreSQL: shared, pipelined connections of their own (pg-pipeline.ts), whose
 * prepared statements always take the generic plan (`plan_cache_mode = force_generic_plan`).
 * PostgreSQL would otherwise plan a named statement afresh at each of its first five runs on each
 * connection, and the links' and accounts' reads have a text for each number of values they look
 * up: a new process's connections planned them over and over (docs/pipeline.md, +10 % authenticate
 * on the bench). Every one of those statements is a bounded index lookup whatever its values (the
 * query-plan test), so one plan serves all; the rest of the service keeps knex's pool and
 * PostgreSQL's own choice, where a skewed value (an email domain) may want a plan of its own.
 */
export function pgHotPipelineOf(db: Db): PgPipeline | undefined {
  return pgHotPipelines.get(db)?.();
}

export function makeDb(options: DbOptions): Db {
  if (options.databaseUrl) {
    const max = options.poolSize ?? DB_DEFAULTS.poolSize;
    const db = knex({ client: 'pg', connection: options.databaseUrl, pool: { min: 0, max } });
    let hot: PgPipeline | undefined;
    pgHotPipelines.set(
      db,
      () =>
        (hot ??= makePgPipeline({
          connectionString: options.databaseUrl!,
          size: options.hotConnections ?? DB_DEFAULTS.hotConnections,
          onError: options.onConnectionError,
        })),
    );
    const client = db.client as { destroy(callback?: unknown): Promise<void> };
    const destroy = client.destroy.bind(client);
    client.destroy = async (callback?: unknown) => {
      pgHotPipelines.delete(db);
      await hot?.end();
      return destroy(callback);
    };
    return db;
  }
  const filename = options.sqliteFile ?? path.resolve('data', 'trustgate.sqlite');
  if (filename !== ':memory:') fs.mkdirSync(path.dirname(filename), { recursive: true });
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
          conn.pragma('journal_mode = WAL');
          conn.pragma('synchronous = NORMAL');
          conn.pragma('foreign_keys = ON');
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
 * SQLite thread's, sqlite-thread.ts), and a deferred transaction fails at its first write with
 * SQLITE_BUSY(_SNAPSHOT), without waiting, whenever the other connection holds the lock or has
 * committed since the transaction's first read.
 */
function cachePreparedStatements(conn: BetterSqlite3.Database): void {
  const prepare = conn.prepare.bind(conn);
  // How recently a statement ran is a number on its entry, not its place in the Map: moving it to
  // the end (a delete and a set at every run) had V8 replace the Map's table every few runs and
  // link each replaced table to the next, which every young collection then kept and promoted
  // (src/in-flight.ts). Now only a statement not yet cached changes the Map.
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

/**
 * Applies the pending migrations; resolves with the names of those it applied (none when the
 * database was up to date). Several processes may start at once (servers, `trustgate migrate`):
 * each takes the migration lock first (withMigrationLock), so one migrates while the others
 * wait, then find nothing to do. Knex's own lock (its `knex_migrations_lock` row) does not
 * wait: the second process would fail with "Migration table is already locked", and two first
 * starts race to create knex's tables.
 */
export async function migrate(db: Db): Promise<string[]> {
  return withMigrationLock(db, async () => {
    const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
    return applied;
  });
}

/** The migrations this code knows that the database has not applied yet, in order. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown[], string[]];
  return pending.map((m) => migrationSource.getMigrationName(m));
}

/** PostgreSQL's advisory lock key for the migrations ('tgmg'); advisory locks are per database. */
export const MIGRATION_LOCK_KEY = 0x74676d67;
/** The longest a process waits for another's migrations. */
const MIGRATION_LOCK_WAIT_MS = 15 * 60_000;

/**
 * Runs `fn` holding the database's migration lock, waiting for it while another process holds it.
 * PostgreSQL: a session advisory lock, on a connection of its own (outside the pool, which the
 * migrations use). SQLite: the write lock (BEGIN IMMEDIATE) of a file beside the database,
 * `<file>-migrate.lock`, on a connection of its own; not the database's own write lock, which the
 * migrations need. Either lock goes with its holder's connection, so a process that dies while
 * migrating leaves none behind (knex's lock row it may leave: `knex migrate:unlock`).
 */
export async function withMigrationLock<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (dialectOf(db) === 'postgresql') {
    // Knex keeps the connection settings parsed from DATABASE_URL (pg's own client options).
    const connection = db.client.config.connection as string | pg.ClientConfig;
    const client = new pg.Client(typeof connection === 'string' ? { connectionString: connection } : connection);
    await client.connect();
    try {
      await client.query(`SET lock_timeout = ${MIGRATION_LOCK_WAIT_MS}`);
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      return await fn();
    } finally {
      // Ending the session releases the lock.
      await client.end();
    }
  }
  const filename = (db.client.config.connection as { filename: string }).filename;
  if (filename === ':memory:') return fn();
  const { default: Database } = await import('better-sqlite3');
  const lock = new Database(`${filename}-migrate.lock`, { timeout: 0 });
  try {
    const deadline = Date.now() + MIGRATION_LOCK_WAIT_MS;
    // Polled, not waited for under busy_timeout: that would block this process's event loop.
    for (;;) {
      try {
        lock.exec('BEGIN IMMEDIATE');
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    return await fn();
  } finally {
    lock.close();
  }
}
