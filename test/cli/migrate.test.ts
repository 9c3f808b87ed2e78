/**
 * `trustgate migrate`, as real processes: several started at once on a fresh database take
 * turns under the setup lock (storage/db.ts): every one succeeds, each migration is applied
 * exactly once, and a later run finds nothing to do. On SQLite, or on PostgreSQL under DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrationSource } from '../../src/storage/migrations';
import { pendingMigrations } from '../../src/storage/db';
import { makeTestDb, type TestDb } from '../helpers/db';
import { compileSources, databaseEnv, killAll, runCli } from '../helpers/processes';

let testDb: TestDb;
let dataDir: string;
let allMigrations: string[];

beforeAll(async () => {
  compileSources();
  testDb = await makeTestDb({ migrate: false });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-migrate-'));
  allMigrations = (await migrationSource.getMigrations([])).map((m) => migrationSource.getMigrationName(m));
}, 120_000);
afterAll(async () => {
  killAll();
  await testDb.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('trustgate migrate', () => {
  test('when three processes migrate a fresh database at once, then all succeed and each migration is applied once, by one of them', async () => {
    const env = databaseEnv(testDb, dataDir, randomBytes(32));
    const runs = await Promise.all([1, 2, 3].map(() => runCli(['migrate'], env)));
    for (const r of runs) expect({ code: r.code, error: r.stderr.split('\n')[1] }).toEqual({ code: 0, error: '' });
    const applied = runs.flatMap((r) => [...r.stdout.matchAll(/^applied (\S+)$/gm)].map((m) => m[1]));
    expect(applied).toEqual(allMigrations);
    // One applied them all; the others waited and found nothing to do.
    expect(runs.filter((r) => r.stdout.endsWith('the database is up to date\n'))).toHaveLength(2);
    const rows = await testDb.db('knex_migrations').select('name').orderBy('id');
    expect(rows.map((r: { name: string }) => r.name)).toEqual(allMigrations);
    expect(await pendingMigrations(testDb.db)).toEqual([]);
  }, 120_000);

  test('when the database is up to date, then it says so and exits 0', async () => {
    const r = await runCli(['migrate'], databaseEnv(testDb, dataDir, randomBytes(32)));
    expect(r).toMatchObject({ code: 0, stdout: 'the database is up to date\n' });
  }, 60_000);

  test('when it is given an argument, then it is a usage error (exit 2)', async () => {
    const r = await runCli(['migrate', 'now'], databaseEnv(testDb, dataDir, randomBytes(32)));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('migrate takes no arguments');
  }, 60_000);
});
