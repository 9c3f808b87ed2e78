/**
 * The rate limits' counters (table rate_limits) on the real database: counts per key and
 * window, and the statements' plans: each starts from the primary key (window_start, key).
 */
import { makeRateLimitRepository } from '../../src/storage/repositories/rate-limits';
import { makeTestDb, statementsDuring, type TestDb } from '../helpers/db';

let testDb: TestDb;
let counters: ReturnType<typeof makeRateLimitRepository>;
beforeAll(async () => {
  testDb = await makeTestDb();
  counters = makeRateLimitRepository(testDb.db);
});
afterAll(() => testDb.destroy());

const W = 1_795_000_000_000 - (1_795_000_000_000 % 60_000);

describe('rate-limit counters', () => {
  test('when a key is hit, then each hit returns its window’s count so far, apart from other keys and windows', async () => {
    expect([await counters.hit('a', W), await counters.hit('a', W), await counters.hit('a', W)]).toEqual([1, 2, 3]);
    expect(await counters.hit('b', W)).toBe(1);
    expect(await counters.hit('a', W + 60_000)).toBe(1);
    expect(await counters.hits('a', W)).toBe(3);
    expect(await counters.hits('never', W)).toBe(0);
  });

  test('when several hits are counted at once (a lease), then the count moves by all of them, on a new key as on a known one; fewer than one is refused', async () => {
    expect(await counters.hit('lease', W, 5)).toBe(5);
    expect(await counters.hit('lease', W)).toBe(6);
    expect(await counters.hit('lease', W, 100)).toBe(106);
    await expect(counters.hit('lease', W, 0)).rejects.toThrow(RangeError);
    await expect(counters.hit('lease', W, 1.5)).rejects.toThrow(RangeError);
    expect(await counters.hits('lease', W)).toBe(106);
  });

  test('when hits are taken back, then the count goes down but never below 0; a reset forgets the key in that window', async () => {
    await counters.hit('c', W);
    await counters.unhit('c', W);
    await counters.unhit('c', W);
    expect(await counters.hits('c', W)).toBe(0);
    await counters.hit('d', W);
    await counters.hit('d', W + 60_000);
    await counters.reset('d', W);
    expect([await counters.hits('d', W), await counters.hits('d', W + 60_000)]).toEqual([0, 1]);
  });

  test('when past windows are deleted, then only the rows of windows before the given one go', async () => {
    await counters.hit('e', W - 120_000);
    await counters.hit('e', W - 60_000);
    const deleted = await counters.deleteBefore(W - 60_000);
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await counters.hits('e', W - 120_000)).toBe(0);
    expect(await counters.hits('e', W - 60_000)).toBe(1);
  });
});

describe('their query plans', () => {
  const statementsOf = (call: () => Promise<unknown>) => statementsDuring(testDb.db, call);

  async function plan(call: () => Promise<unknown>): Promise<string> {
    const statements = await statementsOf(call);
    expect(statements).toHaveLength(1);
    const { sql, bindings } = statements[0]!; // toHaveLength(1) above
    if (testDb.dialect === 'sqlite') {
      const rows: { detail: string }[] = await testDb.db.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings as never[]);
      return rows.map((r) => r.detail).join('\n');
    }
    return testDb.db.transaction(async (trx) => {
      await trx.raw('SET LOCAL enable_seqscan = off');
      const result = await trx.raw(`EXPLAIN (FORMAT JSON) ${sql.replace(/\$\d+/g, '?')}`, bindings as never[]);
      return JSON.stringify(result.rows[0]['QUERY PLAN']);
    });
  }

  test('when a hit is counted, then one upsert decides the conflict on the primary key and returns the count', async () => {
    const statements = await statementsOf(() => counters.hit('plan', W));
    expect(statements).toHaveLength(1);
    expect(statements[0]!.sql).toMatch(
      /^insert into .?rate_limits.? .* on conflict \(.?window_start.?, .?key.?\) do update set .* returning .?hits.?$/is,
    );
    if (testDb.dialect === 'postgresql')
      expect(await plan(() => counters.hit('plan', W))).toContain('"Conflict Arbiter Indexes":["rate_limits_pkey"]');
  });

  test('when a count is read, taken back or reset, or past windows deleted, then the primary key bounds the rows', async () => {
    for (const call of [
      () => counters.hits('plan', W),
      () => counters.unhit('plan', W),
      () => counters.reset('plan', W),
      () => counters.deleteBefore(W - 60_000),
    ]) {
      const p = await plan(call);
      if (testDb.dialect === 'sqlite')
        expect(p).toMatch(
          /^SEARCH rate_limits USING (COVERING )?INDEX sqlite_autoindex_rate_limits_1 \((window_start=\? AND key=\?|window_start<\?)\)$/,
        );
      else {
        expect(p).not.toContain('Seq Scan');
        expect(p).toMatch(/"Index Name":"rate_limits_pkey"[^}]*"Index Cond":"\(\(?window_start [=<] /);
      }
    }
  });
});
