import Database from 'better-sqlite3';
import { PREPARED_CACHE_SIZE, tuneSqliteConnection } from '../../src/storage/sqlite/connection';

describe("a SQLite connection's prepared statements", () => {
  it('are kept by text, the least recently run dropped first when the cache is full', () => {
    const conn = new Database(':memory:');
    tuneSqliteConnection(conn, 1, 0);
    const text = (n: number) => `SELECT ${n} AS n`;
    const first = conn.prepare(text(0));
    const second = conn.prepare(text(1));
    expect(conn.prepare(text(0))).toBe(first);
    // Fill the cache; statement 0 runs again halfway, so statement 1 is the least recently run.
    for (let n = 2; n < PREPARED_CACHE_SIZE; n++) {
      conn.prepare(text(n));
      if (n === PREPARED_CACHE_SIZE / 2) conn.prepare(text(0));
    }
    conn.prepare(text(PREPARED_CACHE_SIZE)); // one more than the cache holds
    expect(conn.prepare(text(0))).toBe(first);
    expect(conn.prepare(text(1))).not.toBe(second);
    expect((conn.prepare(text(1)).get() as { n: number }).n).toBe(1);
    // BEGIN is prepared as BEGIN IMMEDIATE (db.ts).
    expect(conn.prepare('BEGIN;').source).toBe('BEGIN IMMEDIATE;');
    conn.close();
  });
});
