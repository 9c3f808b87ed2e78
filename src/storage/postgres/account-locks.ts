/**
 * Authenticates of one account on several nodes, taken in turn by PostgreSQL's advisory locks.
 * Each node already queues its own (usecases/one-at-a-time.ts); across nodes, an authenticate
 * commits only if the account has not changed since it was read (its version), and one that lost
 * that race is evaluated again. Under a storm on one account the same requests could keep losing,
 * so the one that lost runs again holding the account's lock exclusively (`exclusively`), while
 * every first attempt's transaction takes it shared, without waiting (`sharedAccountLock`): a
 * first attempt that meets an exclusive holder gives up as a lost race does, and waits its turn.
 * The holder's reads and write then see no other writer of the account, so it commits at once.
 *
 * The exclusive lock is held on a connection of its own, never on the hot path's shared
 * connections: a statement waiting there would hold up every request behind it, the holder's
 * own reads included.
 */
import pg from 'pg';
import type { Statement } from '../statements';

/** Connections held by authenticates waiting for or holding an account's lock; more wait in turn. */
const LOCK_CONNECTIONS = 4;

/** The lock's name: advisory locks are numbers, so the name is hashed (a collision only makes two accounts take turns). */
const lockName = (projectId: string, accountId: string) => JSON.stringify([projectId, accountId]);

/** A first attempt's share of the account's lock, a guard: no row (nothing written) while another holds it exclusively. */
export function sharedAccountLock(projectId: string, accountId: string): Statement {
  return {
    sql: 'SELECT 1 AS shared WHERE pg_try_advisory_xact_lock_shared(hashtextextended(?, 0))',
    bindings: [lockName(projectId, accountId)],
    guard: true,
  };
}

export interface AccountLocks {
  /** Runs `work` holding the account's lock exclusively, once every transaction that shares it has ended. */
  exclusively<T>(projectId: string, accountId: string, work: () => Promise<T>): Promise<T>;
  end(): Promise<void>;
}

export function makeAccountLocks(connectionString: string): AccountLocks {
  const pool = new pg.Pool({
    connectionString,
    max: LOCK_CONNECTIONS,
    application_name: 'trustgate account locks',
    idleTimeoutMillis: 30_000,
  });
  // A connection that fails while idle is dropped by the pool; its session's locks end with it.
  pool.on('error', () => undefined);
  return {
    async exclusively(projectId, accountId, work) {
      const client = await pool.connect();
      const name = lockName(projectId, accountId);
      // Kept for the next holder only when its lock is known to be released.
      let released = false;
      try {
        await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [name]);
        try {
          return await work();
        } finally {
          released = await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [name]).then(
            () => true,
            () => false,
          );
        }
      } finally {
        // Otherwise the connection is closed, and its session's locks end with it.
        client.release(released ? undefined : true);
      }
    },
    end: () => pool.end(),
  };
}
