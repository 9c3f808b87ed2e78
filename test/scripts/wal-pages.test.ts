/**
 * The log reader of `bench:authenticate --wal-pages` (scripts/wal-pages.js) on a real SQLite file
 * in WAL mode: commits counted from the log's frames, each page named by its B-tree, only the
 * commits after a snapshot, and a log started again by a checkpoint read as a new generation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

interface Wal {
  salts: number[] | undefined;
  frames: number;
  commits: number[][];
}
const wal = require('../../scripts/wal-pages') as {
  readWal(walFile: string, since?: Wal): Wal;
  pageOwners(driver: typeof Database, dbFile: string): Map<number, string>;
  pagesByBtree(
    commits: number[][],
    owners: Map<number, string>,
  ): { commits: number; perCommit: number; byBtree: { name: string; perCommit: number }[] };
  describe(counted: ReturnType<typeof wal.pagesByBtree>): string[];
};

let dir: string;
let file: string;
let db: Database.Database;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-wal-'));
  file = path.join(dir, 'db.sqlite');
  db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec(`CREATE TABLE a (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX a_v ON a (v);
           CREATE TABLE b (id INTEGER PRIMARY KEY, w TEXT)`);
  db.pragma('wal_checkpoint(TRUNCATE)');
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const insertA = (v: string) => db.prepare('INSERT INTO a (v) VALUES (?)').run(v);
const insertB = (w: string) => db.prepare('INSERT INTO b (w) VALUES (?)').run(w);

test('when rows are committed into a table and its index, then each commit writes a page of each', () => {
  for (let i = 0; i < 5; i++) insertA(`value ${i}`);
  const { commits } = wal.readWal(`${file}-wal`);
  const counted = wal.pagesByBtree(commits, wal.pageOwners(Database, file));
  expect(counted.commits).toBe(5);
  // The first insert also writes page 1 (the file grows); each then writes a's page and a_v's.
  expect(Object.fromEntries(counted.byBtree.map((b) => [b.name, b.perCommit]))).toMatchObject({ a: 1, a_v: 1 });
  expect(counted.byBtree.find((b) => b.name === 'b')).toBeUndefined();
  expect(wal.describe(counted)[0]).toBe(`5 commits, ${counted.perCommit.toFixed(1)} pages a commit; by B-tree:`);
});

test('when a transaction writes a page twice, then its commit counts the page once', () => {
  db.transaction(() => {
    insertB('one');
    insertB('two');
  })();
  const counted = wal.pagesByBtree(wal.readWal(`${file}-wal`).commits, wal.pageOwners(Database, file));
  expect(counted.commits).toBe(1);
  expect(counted.byBtree.find((b) => b.name === 'b')?.perCommit).toBe(1);
});

test('when a snapshot is taken, then only the commits after it count', () => {
  insertA('before');
  const before = wal.readWal(`${file}-wal`);
  expect(before.commits).toHaveLength(1);
  insertB('after 1');
  insertB('after 2');
  const since = wal.readWal(`${file}-wal`, before).commits;
  expect(since).toHaveLength(2);
  const owners = wal.pageOwners(Database, file);
  expect(since.every((pages) => pages.some((p) => owners.get(p) === 'b'))).toBe(true);
  expect(since.some((pages) => pages.some((p) => owners.get(p) === 'a_v'))).toBe(false);
});

test('when the log is started again after the snapshot, then the commits of its new generation count', () => {
  insertA('old 1');
  insertA('old 2');
  const before = wal.readWal(`${file}-wal`);
  db.pragma('wal_checkpoint(RESTART)');
  insertB('new');
  const after = wal.readWal(`${file}-wal`);
  expect(after.salts).not.toEqual(before.salts);
  // The new generation holds one commit, written over the old frames: the old ones do not count.
  expect(wal.readWal(`${file}-wal`, before).commits).toHaveLength(1);
});

test('when there is no log, then there are no commits', () => {
  expect(wal.readWal(path.join(dir, 'missing-wal'))).toEqual({ salts: undefined, frames: 0, commits: [] });
});
