/**
 * The rate limits' counters (table rate_limits): hits per key and fixed window. Each method is
 * one statement; `hit` is the one on the hot path (an upsert that returns the new count), and
 * counts one hit or several at once (a lease: src/http/rate-limit.ts).
 */
import type { Knex } from 'knex';
import { hotStatementsOf } from '../db';
import { runStatement, type Statement } from '../statements';

export function makeRateLimitRepository(db: Knex) {
  return {
    /** Counts `count` hits of `key` in the window starting at `windowStart`; returns the window's hits so far. */
    async hit(key: string, windowStart: number, count = 1, trx: Knex = db): Promise<number> {
      return hitOf(await runStatement(trx, hitStatement(key, windowStart, count)));
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

/** The upsert that counts `count` hits and returns the window's hits so far. */
function hitStatement(key: string, windowStart: number, count: number): Statement {
  if (!Number.isSafeInteger(count) || count < 1)
    throw new RangeError(`a rate-limit hit counts at least 1, not ${count}`);
  return {
    sql: `INSERT INTO rate_limits (window_start, key, hits) VALUES (?, ?, ?)
          ON CONFLICT (window_start, key) DO UPDATE SET hits = rate_limits.hits + excluded.hits RETURNING hits`,
    bindings: [windowStart, key, count],
  };
}

function hitOf(rows: Record<string, unknown>[]): number {
  const [row] = rows;
  if (!row) throw new Error('the rate-limit upsert returned no row');
  return Number(row.hits);
}

/** The rate limits as the services use them: `hit`, the hot path's, on the SQLite thread when the database has one. */
export function makeRateLimits(db: Knex): RateLimitRepository {
  const run = hotStatementsOf(db);
  return {
    ...makeRateLimitRepository(db),
    async hit(key: string, windowStart: number, count = 1, trx?: Knex): Promise<number> {
      if (trx) return hitOf(await runStatement(trx, hitStatement(key, windowStart, count)));
      const s = hitStatement(key, windowStart, count);
      return hitOf(await run.rows(s.sql, s.bindings));
    },
  };
}
