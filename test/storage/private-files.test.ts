/**
 * The embedded database keeps nothing of an erased person and nobody else can read it: after
 * `DELETE /account`, the raw bytes of the SQLite file and of its write-ahead log no longer hold
 * the person's email, phone or name (secure_delete on every connection, the log truncated once
 * the erasure has committed); a fresh DATA_DIR is made 0700 and the database, its `-wal` and its
 * `-shm` 0600 (as is the secret key generated there), and a file an earlier release made 0644 is
 * made 0600. SQLite only: PostgreSQL's files are its server's, under its own user.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { makeTestContext, type TestContext } from '../helpers/app';
import { sqliteBytes } from '../helpers/db';
import { scenario } from '../helpers/evaluation';
import { systemRandom } from '../../src/clock';
import { loadSecretKey } from '../../src/security/secrets';
import { makeDb, migrate } from '../../src/storage/db';

const onSqlite = process.env.DATABASE_URL ? describe.skip : describe;

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

onSqlite('an erased account in the SQLite file', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext({ trustProxy: 'loopback' });
  });
  afterAll(() => ctx.close());

  it('when an account is erased, then neither the file nor its log holds its email, phone or name', async () => {
    const person = {
      id: 'bytes-erasure-account',
      email: 'zq.distinctive.erasure@example.org',
      phone: '+447911123377',
      first_name: 'Quillonia',
      last_name: 'Erasmusdottir',
    };
    const sc = scenario(ctx);
    await sc.signIn(person, {}, '90.200.1.10', false);
    await sc.signIn({ id: person.id }, {}, '90.200.1.11', false);
    const file = ctx.testDb.sqliteFile!;
    // Stored: the test can see a value in the bytes.
    expect(sqliteBytes(file)).toContain(person.email);

    await request(ctx.app).delete(`/account/${person.id}`).set('x-api-key', ctx.project.api_key).expect(200);

    const bytes = sqliteBytes(file);
    for (const value of [person.email, person.phone, person.first_name, person.last_name]) {
      expect(bytes).not.toContain(value);
    }
  });
});

onSqlite('the SQLite files’ modes', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-modes-'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('when a fresh DATA_DIR is opened and written, then it is 0700 and the database, -wal and -shm 0600', async () => {
    const dataDir = path.join(root, 'fresh', 'data');
    const sqliteFile = path.join(dataDir, 'trustgate.sqlite');
    const db = makeDb({ sqliteFile });
    try {
      await migrate(db);
      expect(fs.existsSync(`${sqliteFile}-wal`)).toBe(true);
      expect(modeOf(path.join(root, 'fresh'))).toBe(0o700);
      expect(modeOf(dataDir)).toBe(0o700);
      for (const f of [sqliteFile, `${sqliteFile}-wal`, `${sqliteFile}-shm`])
        expect([f, modeOf(f)]).toEqual([f, 0o600]);
    } finally {
      await db.destroy();
    }
  });

  it('when the secret key is generated into a fresh DATA_DIR, then the folder is 0700 and the key 0600', () => {
    const dataDir = path.join(root, 'keyed', 'data');
    expect(loadSecretKey(undefined, dataDir, systemRandom).created).toBe(true);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'secret.key'))).toBe(0o600);
  });

  it('when a database an earlier release made 0644 is opened, then it is 0600 with its -wal and -shm', async () => {
    const sqliteFile = path.join(root, 'old', 'trustgate.sqlite');
    const first = makeDb({ sqliteFile });
    await migrate(first);
    await first.destroy();
    fs.chmodSync(sqliteFile, 0o644);
    const db = makeDb({ sqliteFile });
    try {
      await db.raw('SELECT 1');
      for (const f of [sqliteFile, `${sqliteFile}-wal`, `${sqliteFile}-shm`])
        expect([f, modeOf(f)]).toEqual([f, 0o600]);
    } finally {
      await db.destroy();
    }
  });
});
