/**
 * The rate limits' counters (table rate_limits): hits per key and fixed window. Each method is
 * one statement; `hit` is the one on the hot path (an upsert that returns the new count).
 */
import type { Knex } from 'knex';
import { runStatement, statementsOn, type Statement } from '../statements';

export function makeRateLimitRepository(db: Knex) {
  return {
    /** Counts one hit of `key` in the window starting at `windowStart`; returns the window's hits so far. */
    async hit(key: string, windowStart: number, trx: Knex = db): Promise<number> {
      return hitOf(await runStatement(trx, hitStatement(key, windowStart)));
    },

    /** The window's hits of `key` (0 when none). */
    async hits(key: string, windowStart: number, trx: Knex = db): Promise<number> {
      const row = await trx('rate_limits').where({ window_start: windowStart, key }).first('hits');
      return Number(row?.hits ?? 0);
    },

    /** Takes one hit back (never below 0). */
    async unhit(key: string, windowStart: number, trx: Knex = db): Promise<void> {
      await trx('rate_limits').where({ window_start: windowStart, key }).where('hits', '>', 0).decrement('hits', 1);
    },

    async reset(key: string, windowStart: number, trx: Knex = db): Promise<void> {
      await trx('rate_limits').where({ window_start: windowStart, key }).delete();
    },

    /** Drops the windows that started before `windowStart`; returns how many rows went. */
    async deleteBefore(windowStart: number, trx: Knex = db): Promise<number> {
      return trx('rate_limits').where('window_start', '<', windowStart).delete();
    },
  };
}

export type RateLimitRepository = ReturnType<typeof makeRateLimitRepository>;

/** The upsert that counts one hit and returns the window's hits so far. */
function hitStatement(key: string, windowStart: number): Statement {
  return {
    sql: `INSERT INTO rate_limits (window_start, key, hits) VALUES (?, ?, 1)
          ON CONFLICT (window_start, key) DO UPDATE SET hits = rate_limits.hits + 1 RETURNING hits`,
    bindings: [windowStart, key],
  };
}

function hitOf(rows: Record<string, unknown>[]): number {
  const [row] = rows;
  if (!row) throw new Error('the rate-limit upsert returned no row');
  return Number(row.hits);
}

/** The rate limits as the services use them: `hit`, the hot path's, on the SQLite thread when the database has one. */
export function makeRateLimits(db: Knex): RateLimitRepository {
  const run = statementsOn(db);
  return {
    ...makeRateLimitRepository(db),
    async hit(key: string, windowStart: number, trx?: Knex): Promise<number> {
      if (trx) return hitOf(await runStatement(trx, hitStatement(key, windowStart)));
      const s = hitStatement(key, windowStart);
      return hitOf(await run.rows(s.sql, s.bindings));
    },
  };
}
