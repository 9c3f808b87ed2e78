/**
 * The database: PostgreSQL when a URL is given, otherwise an embedded SQLite file in the data
 * folder. The same migrations and queries run on both; what each engine needs of its own
 * (SQLite's threads, page cache and prepared statements; PostgreSQL's pipelined connections and
 * prepared writes) is its adapter's, in storage/sqlite/ and storage/postgres/.
 */
import type { Knex } from 'knex';
import pg from 'pg';
import { migrationSource } from './migrations';
import { sharedAccountLock } from './postgres/account-locks';
import { openPostgres, pgAccountLocksOf, type PostgresOptions } from './postgres/connection';
import { postgresStatements } from './postgres/statements';
import { checkpointerOf, openSqlite, type SqliteOptions } from './sqlite/connection';
import { sqliteStatements } from './sqlite/statements';
import type { Statement, StatementRunner } from './statements';

export type Db = Knex;
export type Dialect = 'sqlite' | 'postgresql';

/** Where the database is, and each engine's settings (its adapter's). */
export interface DbOptions extends SqliteOptions, PostgresOptions {
  /** PostgreSQL's address; without it, the embedded SQLite file. */
  databaseUrl?: string;
}

export function dialectOf(db: Db): Dialect {
  return db.client.config.client === 'pg' ? 'postgresql' : 'sqlite';
}

export function makeDb(options: DbOptions): Db {
  const { databaseUrl } = options;
  return databaseUrl ? openPostgres({ ...options, databaseUrl }) : openSqlite(options);
}

/**
 * After an erasure has committed: what the database file still keeps of the erased rows outside
 * its live pages is overwritten. SQLite's connections zero what they delete (secure_delete), but
 * the rows' earlier versions stay in the write-ahead log until it is written over: a checkpoint
 * that copies the whole log and truncates it removes them, on the checkpoint thread when there
 * is one (it may wait for readers; the request thread must not). False when readers or a writer
 * kept the log busy throughout (the next erasure's, or the log's own restart, writes over it).
 * PostgreSQL: nothing here (a deleted row's dead tuple goes at its table's next VACUUM).
 */
export async function overwriteErased(db: Db): Promise<boolean> {
  if (dialectOf(db) === 'postgresql') return true;
  const checkpointer = checkpointerOf(db);
  if (checkpointer) return checkpointer.truncate();
  const [result] = (await db.raw('PRAGMA wal_checkpoint(TRUNCATE)')) as { busy: number }[];
  return result?.busy === 0;
}

/** The runner of the hot path's statements (the evaluation's, the rate limit's): its engine's adapter's. */
export function hotStatementsOf(db: Db): StatementRunner {
  return dialectOf(db) === 'postgresql' ? postgresStatements(db) : sqliteStatements(db);
}

/**
 * How authenticates of one account on several processes take turns (storage/evaluation-store.ts
 * `exclusively`): on PostgreSQL, its advisory locks (postgres/account-locks.ts); SQLite serves one
 * machine, whose processes its version check and retries settle.
 */
export function accountTurnsOf(db: Db): {
  shareLock?: (projectId: string, accountId: string) => Statement;
  exclusively<T>(projectId: string, accountId: string, work: () => Promise<T>): Promise<T>;
} {
  const locks = pgAccountLocksOf(db);
  if (locks) return { shareLock: sharedAccountLock, exclusively: locks.exclusively };
  return { exclusively: (_projectId, _accountId, work) => work() };
}

/**
 * Applies the pending migrations; resolves with the names of those it applied (none when the
 * database was up to date). Several processes may start at once (servers, `trustgate migrate`):
 * each takes the setup lock first (withSetupLock), so one migrates while the others
 * wait, then find nothing to do. Knex's own lock (its `knex_migrations_lock` row) does not
 * wait: the second process would fail with "Migration table is already locked", and two first
 * starts race to create knex's tables.
 */
export async function migrate(db: Db): Promise<string[]> {
  return withSetupLock(db, async () => {
    const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
    return applied;
  });
}

/** The migrations this code knows that the database has not applied yet, in order. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown[], string[]];
  return pending.map((m) => migrationSource.getMigrationName(m));
}

/** PostgreSQL's advisory lock key for the setup lock ('tgmg'); advisory locks are per database. */
const SETUP_LOCK_KEY = 0x74676d67;
/** The longest a process waits for another's migrations. */
const SETUP_LOCK_WAIT_MS = 15 * 60_000;

/**
 * Runs `fn` holding the database's setup lock, waiting for it while another process holds it:
 * the migrations, and what a first start creates once (the default project, the demo's), which
 * every node of one database may try at the same moment.
 * PostgreSQL: a session advisory lock, on a connection of its own (outside the pool, which the
 * migrations use). SQLite: the write lock (BEGIN IMMEDIATE) of a file beside the database,
 * `<file>-migrate.lock`, on a connection of its own; not the database's own write lock, which the
 * migrations need. Either lock goes with its holder's connection, so a process that dies while
 * migrating leaves none behind (knex's lock row it may leave: `knex migrate:unlock`).
 */
export async function withSetupLock<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (dialectOf(db) === 'postgresql') {
    // Knex keeps the connection settings parsed from DATABASE_URL (pg's own client options).
    const connection = db.client.config.connection as string | pg.ClientConfig;
    const client = new pg.Client(typeof connection === 'string' ? { connectionString: connection } : connection);
    await client.connect();
    try {
      await client.query(`SET lock_timeout = ${SETUP_LOCK_WAIT_MS}`);
      await client.query('SELECT pg_advisory_lock($1)', [SETUP_LOCK_KEY]);
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
    const deadline = Date.now() + SETUP_LOCK_WAIT_MS;
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
