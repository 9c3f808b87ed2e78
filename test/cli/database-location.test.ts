/**
 * Which database the `trustgate` command opens, run as a real process from other folders: with
 * DATA_DIR unset, the installation's `data` folder whatever the current directory; a relative
 * DATA_DIR from the current directory. It names the database on stderr.
 *
 * The installation is a copy of the compiled sources in a temporary folder (with openapi.yaml,
 * which marks a package root, and node_modules linked), so that the default `data` folder is the
 * test's own and never the checkout's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/spec';
import { makeTestDb, type TestDb } from '../helpers/db';
import { compileSources, databaseEnv, runCli } from '../helpers/processes';

let install: string;
let elsewhere: string;

beforeAll(() => {
  install = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-install-'));
  fs.cpSync(compileSources(), path.join(install, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(PACKAGE_ROOT, 'openapi.yaml'), path.join(install, 'openapi.yaml'));
  fs.symlinkSync(path.join(PACKAGE_ROOT, 'node_modules'), path.join(install, 'node_modules'));
  elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-cwd-'));
}, 120_000);
afterAll(() => {
  for (const dir of [install, elsewhere]) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the installation's CLI in `cwd` with only `env` (no DATA_DIR unless given). */
const trustgate = (cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(args, { PATH: process.env.PATH, ...env }, { cwd, compiled: path.join(install, 'dist') });

describe('the database of the trustgate command', () => {
  test('when DATA_DIR is unset, then every folder it runs from uses the installation’s data folder, and it says so on stderr', async () => {
    const a = fs.mkdtempSync(path.join(elsewhere, 'a-'));
    const b = fs.mkdtempSync(path.join(elsewhere, 'b-'));
    const expected = `database: sqlite ${path.join(install, 'data', 'trustgate.sqlite')}\n`;

    const created = await trustgate(a, ['project', 'create', '--name', 'From a', '--json']);
    expect(created).toMatchObject({ code: 0, stderr: expected });
    const { project_id } = JSON.parse(created.stdout) as { project_id: string };

    const listed = await trustgate(b, ['project', 'list', '--json']);
    expect(listed).toMatchObject({ code: 0, stderr: expected });
    expect((JSON.parse(listed.stdout) as { project_id: string }[]).map((p) => p.project_id)).toEqual([project_id]);

    // One database and one generated secret key, in the installation; nothing in either folder.
    expect(fs.readdirSync(path.join(install, 'data'))).toEqual(
      expect.arrayContaining(['trustgate.sqlite', 'secret.key']),
    );
    expect(fs.readdirSync(a)).toEqual([]);
    expect(fs.readdirSync(b)).toEqual([]);
  }, 60_000);

  test('when DATA_DIR is relative, then it is taken from the current folder', async () => {
    const a = fs.mkdtempSync(path.join(elsewhere, 'rel-'));
    const r = await trustgate(a, ['webhooks', 'list'], { DATA_DIR: 'here' });
    expect(r).toEqual({
      code: 0,
      stdout: 'no webhooks\n',
      stderr: `database: sqlite ${path.join(a, 'here', 'trustgate.sqlite')}\n`,
    });
    expect(fs.existsSync(path.join(a, 'here', 'trustgate.sqlite'))).toBe(true);
  }, 60_000);

  describe('on the test database', () => {
    let testDb: TestDb;
    afterAll(() => testDb?.destroy());

    test('when it runs, then stderr names that database (a PostgreSQL one by user, host, port and name, without its password)', async () => {
      testDb = await makeTestDb();
      const r = await trustgate(elsewhere, ['webhooks', 'list', '--status', 'failed'], {
        ...databaseEnv(testDb, elsewhere, Buffer.alloc(32, 7)),
      });
      let named = `sqlite ${testDb.sqliteFile}`;
      if (testDb.url) {
        const url = new URL(testDb.url);
        named = `postgresql ${url.username}@${url.hostname}:${url.port || '5432'}${url.pathname}`;
        if (url.password) expect(r.stderr).not.toContain(url.password);
      }
      expect(r).toEqual({ code: 0, stdout: 'no failed webhooks\n', stderr: `database: ${named}\n` });
    }, 60_000);
  });
});
