/**
 * SQLite's WAL is checkpointed by a worker thread with its own connection, not inside the
 * request connection's commits (src/storage/checkpointer.ts). Through a real database file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHECKPOINT_FALLBACK_PAGES } from '../../src/storage/sqlite/checkpointer';
import { makeDb, type Db } from '../../src/storage/db';
import { checkpointerOf, sqliteThreadOf } from '../../src/storage/sqlite/connection';
import { at } from '../helpers/defined';
import { until } from '../helpers/processes';

const onSqlite = !process.env.DATABASE_URL;
const maybe = onSqlite ? describe : describe.skip;

maybe('the WAL checkpoint thread', () => {
  let dir: string;
  const opened: Db[] = [];
  const open = (sqliteCheckpointMs: number) => {
    const db = makeDb({ sqliteFile: path.join(dir, `t${opened.length}.sqlite`), sqliteCheckpointMs });
    opened.push(db);
    return db;
  };
  const pragma = async (db: Db, name: string) =>
    Object.values(at((await db.raw(`PRAGMA ${name}`)) as Record<string, unknown>[], 0))[0];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-checkpoint-'));
  });
  afterAll(async () => {
    for (const db of opened) await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies committed pages into the database file while the request connection only appends to the WAL', async () => {
    const db = open(20);
    expect(await pragma(db, 'journal_mode')).toBe('wal');
    // The request connection would checkpoint by itself only far past SQLite's 1,000 pages, and
    // so would the SQLite thread's, the one that writes under load (its checkpoint stalls it).
    expect(await pragma(db, 'wal_autocheckpoint')).toBe(CHECKPOINT_FALLBACK_PAGES);
    const onThread = await sqliteThreadOf(db)!.rows('PRAGMA wal_autocheckpoint', [], false);
    expect(onThread.rows).toEqual([{ wal_autocheckpoint: CHECKPOINT_FALLBACK_PAGES }]);
    await db.raw('CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB)');
    const file = path.join(dir, 't0.sqlite');
    const before = fs.statSync(file).size;
    // About 600 pages of 4 KB: under both checkpoint sizes, so only the thread copies them.
    await db.transaction(async (trx) => {
      for (let i = 0; i < 150; i++) await trx('blobs').insert({ id: i, data: Buffer.alloc(16_000, i) });
    });
    await until(() => fs.statSync(file).size > before + 2_000_000, 'the pages copied into the file', 10_000);
    expect(fs.statSync(file).size).toBeGreaterThan(before + 2_000_000);
    expect(await db('blobs').count({ n: '*' })).toEqual([{ n: 150 }]);
  });

  it('syncs the database file after a pass that copied pages, and not again until one copies more', async () => {
    // SQLite syncs the file only after a pass that copied the whole log, which under writes that
    // never pause none does; the thread syncs what each pass copied (checkpointer.ts).
    const db = open(20);
    await db.raw('CREATE TABLE rows (id INTEGER PRIMARY KEY, data BLOB)');
    const syncs = () => checkpointerOf(db)!.last().syncs;
    // A pass has copied the table's creation (and synced it).
    await until(() => checkpointerOf(db)!.last().checkpointed > 0, 'a pass that copied pages', 10_000);
    const before = syncs();
    await db('rows').insert({ id: 1, data: Buffer.alloc(8_000, 1) });
    await until(() => syncs() > before, 'a sync', 10_000);
    expect(syncs()).toBe(before + 1);
    // Passes with nothing new to copy do not sync.
    await new Promise((r) => setTimeout(r, 200));
    expect(syncs()).toBe(before + 1);
    // (Larger: a log started again holds more pages than the last pass copied.)
    await db('rows').insert({ id: 2, data: Buffer.alloc(24_000, 2) });
    await until(() => syncs() > before + 1, 'a second sync', 10_000);
    expect(syncs()).toBe(before + 2);
  });

  it('is off with SQLITE_CHECKPOINT_MS=0: SQLite checkpoints at its own 1,000 pages', async () => {
    const db = open(0);
    expect(await pragma(db, 'wal_autocheckpoint')).toBe(1000);
  });

  it('stops when the database closes (nothing keeps the process alive)', async () => {
    const db = open(20);
    await db.raw('SELECT 1');
    await db.destroy();
    opened.pop();
    await expect(db.raw('SELECT 1')).rejects.toThrow();
  });
});
