import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { makeDb } from '../../src/storage/db';
import {
  MAPPED_PAGE_CACHE_MB,
  PAGE_CACHE_REFIT_MS,
  fitPageCache,
  pageCacheKib,
  sqliteThreadOf,
  tuneSqliteConnection,
} from '../../src/storage/sqlite/connection';

const MB = 1024 * 1024;

describe("a SQLite connection's page cache", () => {
  it('is small while the memory map covers the file, and SQLITE_CACHE_MB once the file lies beyond it', () => {
    expect(pageCacheKib(500 * MB, 1024 * MB, 256)).toBe(MAPPED_PAGE_CACHE_MB * 1024);
    expect(pageCacheKib(1024 * MB, 1024 * MB, 256)).toBe(MAPPED_PAGE_CACHE_MB * 1024);
    expect(pageCacheKib(1024 * MB + 4096, 1024 * MB, 256)).toBe(256 * 1024);
    // No map (several processes): every page is read through the cache.
    expect(pageCacheKib(1 * MB, 0, 256)).toBe(256 * 1024);
    // A cache set smaller than the mapped one stays as set.
    expect(pageCacheKib(1 * MB, 1024 * MB, 1)).toBe(1024);
  });

  describe('on a file', () => {
    let dir: string;
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-page-cache-'));
    });
    afterEach(() => {
      jest.useRealTimers();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('follows the file past its map as it grows', () => {
      jest.useFakeTimers();
      const conn = new Database(path.join(dir, 'db.sqlite'));
      conn.pragma('journal_mode = WAL');
      tuneSqliteConnection(conn, 64, 1); // a map of 1 MB
      expect(conn.pragma('mmap_size', { simple: true })).toBe(MB);
      expect(conn.pragma('cache_size', { simple: true })).toBe(-MAPPED_PAGE_CACHE_MB * 1024);
      // 2 MB of rows: the file now lies beyond the map.
      conn.exec('CREATE TABLE t (v BLOB)');
      const insert = conn.prepare('INSERT INTO t VALUES (randomblob(4000))');
      conn.transaction(() => {
        for (let i = 0; i < 512; i++) insert.run();
      })();
      expect(conn.pragma('cache_size', { simple: true })).toBe(-MAPPED_PAGE_CACHE_MB * 1024);
      jest.advanceTimersByTime(PAGE_CACHE_REFIT_MS);
      expect(conn.pragma('cache_size', { simple: true })).toBe(-64 * 1024);
      // Closed, the connection's timer stops at its next turn.
      conn.close();
      expect(() => jest.advanceTimersByTime(PAGE_CACHE_REFIT_MS * 2)).not.toThrow();
      expect(jest.getTimerCount()).toBe(0);
    });

    it('waits for the next refit when a statement is being iterated on the connection', () => {
      jest.useFakeTimers();
      const conn = new Database(path.join(dir, 'busy.sqlite'));
      conn.pragma('journal_mode = WAL');
      tuneSqliteConnection(conn, 64, 1);
      conn.exec('CREATE TABLE t (v BLOB)');
      const insert = conn.prepare('INSERT INTO t VALUES (randomblob(4000))');
      conn.transaction(() => {
        for (let i = 0; i < 512; i++) insert.run();
      })();
      // A read in progress: the connection refuses other statements, so the refit cannot run.
      const rows = conn.prepare('SELECT rowid FROM t').iterate();
      rows.next();
      expect(() => jest.advanceTimersByTime(PAGE_CACHE_REFIT_MS)).not.toThrow();
      rows.return!();
      expect(conn.pragma('cache_size', { simple: true })).toBe(-MAPPED_PAGE_CACHE_MB * 1024);
      // The read done, the next refit sets it.
      jest.advanceTimersByTime(PAGE_CACHE_REFIT_MS);
      expect(conn.pragma('cache_size', { simple: true })).toBe(-64 * 1024);
      conn.close();
    });

    it("is the mapped file's on both of the service's connections (the request thread's and the SQLite thread's)", async () => {
      const db = makeDb({ sqliteFile: path.join(dir, 'service.sqlite'), sqliteCacheMb: 64, sqliteMmapMb: 64 });
      try {
        expect(await db.raw('PRAGMA cache_size')).toEqual([{ cache_size: -MAPPED_PAGE_CACHE_MB * 1024 }]);
        const onThread = await sqliteThreadOf(db)!.rows('PRAGMA cache_size', [], false);
        expect(onThread.rows).toEqual([{ cache_size: -MAPPED_PAGE_CACHE_MB * 1024 }]);
      } finally {
        await db.destroy();
      }
      // Without a map, SQLITE_CACHE_MB on both.
      const unmapped = makeDb({ sqliteFile: path.join(dir, 'unmapped.sqlite'), sqliteCacheMb: 64, sqliteMmapMb: 0 });
      try {
        expect(await unmapped.raw('PRAGMA cache_size')).toEqual([{ cache_size: -64 * 1024 }]);
        const onThread = await sqliteThreadOf(unmapped)!.rows('PRAGMA cache_size', [], false);
        expect(onThread.rows).toEqual([{ cache_size: -64 * 1024 }]);
      } finally {
        await unmapped.destroy();
      }
    });

    it('keeps SQLITE_CACHE_MB without a map', () => {
      const conn = new Database(path.join(dir, 'db.sqlite'));
      tuneSqliteConnection(conn, 64, 0);
      expect(conn.pragma('cache_size', { simple: true })).toBe(-64 * 1024);
      fitPageCache(conn, 32);
      expect(conn.pragma('cache_size', { simple: true })).toBe(-32 * 1024);
      conn.close();
    });
  });

  it('of an in-memory database is SQLITE_CACHE_MB (its pages live there)', () => {
    const conn = new Database(':memory:');
    tuneSqliteConnection(conn, 8, 1024);
    expect(conn.pragma('cache_size', { simple: true })).toBe(-8 * 1024);
    conn.close();
  });
});
