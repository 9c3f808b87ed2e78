/**
 * `trustgate backup` stopped mid-way, as a real process: its plaintext snapshot of the SQLite
 * database is private from its first byte (0600, in a 0700 folder of DATA_DIR) while it runs;
 * SIGTERM removes it and the partial archive before the process ends; after a SIGKILL, which
 * runs no clean-up, what is left stays private and the next backup removes it. The backup is
 * paused (SIGSTOP) once its snapshot exists, so that the signal lands mid-way whatever the
 * machine's speed. SQLite only: on PostgreSQL the backup writes no snapshot (pg_dump has the
 * database).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { makeDb, migrate } from '../../src/storage/db';
import { compileSources, killAll, runCli, spawnCli, until } from '../helpers/processes';

const onSqlite = process.env.DATABASE_URL ? describe.skip : describe;

let root: string;
let dataDir: string;
let env: NodeJS.ProcessEnv;
const snapshots = () => path.join(dataDir, 'backup-snapshots');
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
const listed = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

beforeAll(async () => {
  if (process.env.DATABASE_URL) return;
  compileSources();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-backup-kill-'));
  dataDir = path.join(root, 'data');
  const sqliteFile = path.join(dataDir, 'trustgate.sqlite');
  const db = makeDb({ sqliteFile });
  await migrate(db);
  await db.destroy();
  // Enough incompressible bytes that the backup is still writing when the test looks.
  const conn = new Database(sqliteFile);
  conn.exec('CREATE TABLE filler (bytes BLOB)');
  const insert = conn.prepare('INSERT INTO filler VALUES (?)');
  conn.transaction(() => {
    for (let i = 0; i < 300; i++) insert.run(randomBytes(100_000));
  })();
  conn.close();
  env = { PATH: process.env.PATH, DATA_DIR: dataDir, TRUSTGATE_SECRET_KEY: randomBytes(32).toString('base64') };
}, 180_000);
afterAll(() => {
  killAll();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** A backup to `target`, paused once its snapshot exists; the snapshot's path. */
async function pausedBackup(target: string) {
  const run = spawnCli(['backup', target], env);
  let snapshot: string | undefined;
  await until(() => {
    snapshot = listed(snapshots()).find((n) => n.startsWith(`${run.child.pid}.`));
    if (run.child.exitCode !== null) throw new Error(`the backup ended first: ${run.stderr()}${run.stdout()}`);
    return snapshot !== undefined;
  }, 'the backup’s snapshot');
  run.child.kill('SIGSTOP');
  return { run, snapshot: path.join(snapshots(), snapshot!) };
}

/** The files beside `target` and in the snapshots' folder that are readable by others than the owner. */
function readableByOthers(target: string): string[] {
  const dir = path.dirname(target);
  return [
    ...listed(dir).map((n) => path.join(dir, n)),
    ...listed(snapshots()).map((n) => path.join(snapshots(), n)),
  ].filter((f) => fs.statSync(f).isFile() && (modeOf(f) & 0o077) !== 0);
}

onSqlite('trustgate backup stopped mid-way', () => {
  it('when it is running, then its snapshot is 0600 in a 0700 folder; on SIGTERM it leaves nothing', async () => {
    const target = path.join(root, 'out-term', 'backup.tgz');
    fs.mkdirSync(path.dirname(target));
    const { run, snapshot } = await pausedBackup(target);
    expect(modeOf(snapshot)).toBe(0o600);
    expect(modeOf(snapshots())).toBe(0o700);
    expect(readableByOthers(target)).toEqual([]);

    run.child.kill('SIGTERM');
    run.child.kill('SIGCONT');
    expect(await run.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(listed(snapshots())).toEqual([]);
    expect(listed(path.dirname(target))).toEqual([]);
  });

  it('when it is killed (SIGKILL), then what it left is private and the next backup removes it', async () => {
    const target = path.join(root, 'out-kill', 'backup.tgz');
    fs.mkdirSync(path.dirname(target));
    const { run, snapshot } = await pausedBackup(target);
    run.child.kill('SIGKILL');
    expect(await run.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(fs.existsSync(snapshot)).toBe(true);
    expect(modeOf(snapshot)).toBe(0o600);
    expect(readableByOthers(target)).toEqual([]);

    const next = await runCli(['backup', target], env);
    expect([next.code, next.stdout]).toEqual([0, expect.stringContaining('backup written to')]);
    expect(listed(snapshots())).toEqual([]);
    expect(listed(path.dirname(target))).toEqual(['backup.tgz']);
    expect(modeOf(target)).toBe(0o600);
  });
});
