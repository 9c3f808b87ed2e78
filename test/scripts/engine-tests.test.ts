/**
 * scripts/engine-tests.js, which picks the files the PostgreSQL run leaves out, and the test
 * environment's half of the rule: an engine-independent file runs with a DATABASE_URL that points
 * nowhere, so one that reaches a database after all fails on SQLite. The classifier runs on small
 * trees written here; the environment is Jest's own class, set up and torn down as Jest does.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../src/spec';

const run = promisify(execFile);
const { classifyTests } = require('../../scripts/engine-tests') as {
  classifyTests(files: string[]): { storage: string[]; independent: string[] };
};

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-engine-tests-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Writes the files (path → source) under tmp; classifies the ones named *.test.ts. */
function classify(files: Record<string, string>): { storage: string[]; independent: string[] } {
  for (const [file, source] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(tmp, file)), { recursive: true });
    fs.writeFileSync(path.join(tmp, file), source);
  }
  const tests = Object.keys(files)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(tmp, f));
  const { storage, independent } = classifyTests(tests);
  const names = (list: string[]) => list.map((f) => path.relative(tmp, f)).sort();
  return { storage: names(storage), independent: names(independent) };
}

describe('classifyTests', () => {
  it('when a file reaches a database driver through its imports, then it reaches storage', () => {
    expect(
      classify({
        'src/db.ts': "import knex from 'knex';\nexport const db = knex;\n",
        'src/repo.ts': "export { db } from './db';\n",
        'test/helpers/ctx.ts': "import {\n  db,\n} from '../../src/repo.js';\nexport const ctx = db;\n",
        'test/a.test.ts': "import { ctx } from './helpers/ctx';\n",
        'test/b.test.ts': "const pg = require('pg');\n",
        'test/c.test.ts': "it('x', async () => { await import('better-sqlite3'); });\n",
        'test/d.test.ts': "import 'node:fs';\nimport { x } from './pure';\n",
        'test/pure.ts': 'export const x = 1;\n',
      }),
    ).toEqual({ storage: ['test/a.test.ts', 'test/b.test.ts', 'test/c.test.ts'], independent: ['test/d.test.ts'] });
  });

  it('when a module names DATABASE_URL, then a file that loads it reaches storage', () => {
    expect(
      classify({
        'test/helpers/spawn.ts': 'export const env = (url: string) => ({ DATABASE_URL: url });\n',
        'test/a.test.ts': "import { env } from './helpers/spawn';\n",
      }).storage,
    ).toEqual(['test/a.test.ts']);
  });

  it('when a file imports storage for its types alone, then it is engine-independent (types are erased)', () => {
    expect(
      classify({
        'src/db.ts': "import knex from 'knex';\nexport type Db = typeof knex;\n",
        'test/a.test.ts': "import type { Db } from '../src/db';\nexport type { Db } from '../src/db';\n",
      }).independent,
    ).toEqual(['test/a.test.ts']);
  });
});

describe('the test environment of an engine-independent file', () => {
  /**
   * Jest loads the environment in its worker, outside the test's sandbox: so does this, in a Node
   * process of its own, printing what the file's process.env, a child process it starts, and a
   * connection to the database see, then what the worker's environment holds after teardown.
   */
  const probe = `
    const { execFileSync } = require('node:child_process');
    const Environment = require(${JSON.stringify(path.join(PACKAGE_ROOT, 'test', 'helpers', 'leak-guard-environment.js'))});
    const file = process.argv[1];
    const independent = process.argv[2] === 'independent' ? [file] : [];
    const config = { globalConfig: {}, projectConfig: { testEnvironmentOptions: { engineIndependent: independent }, globals: {} } };
    (async () => {
      const environment = new Environment(config, { testPath: file, console, docblockPragmas: {} });
      await environment.setup();
      const child = execFileSync(process.execPath, ['-e', 'process.stdout.write(process.env.DATABASE_URL ?? "unset")']).toString();
      const url = environment.global.process.env.DATABASE_URL ?? 'unset';
      let connection = 'not tried';
      if (url !== 'unset') {
        const client = new (require('pg').Client)({ connectionString: url });
        connection = await client.connect().then(() => 'connected', (err) => err.code);
        await client.end().catch(() => {});
      }
      await environment.teardown();
      process.stdout.write(JSON.stringify({ file: url, child, connection, after: process.env.DATABASE_URL ?? 'unset' }));
    })();
  `;
  const seen = async (kind: 'independent' | 'storage', env: NodeJS.ProcessEnv) => {
    const file = path.join(PACKAGE_ROOT, 'test', 'some.test.ts');
    const { stdout } = await run(process.execPath, ['-e', probe, file, kind], { cwd: PACKAGE_ROOT, env });
    return JSON.parse(stdout) as { file: string; child: string; connection: string; after: string };
  };
  const NOWHERE = /^postgres:\/\/engine-independent-test-reached-storage@127\.0\.0\.1:1\//;

  it('when the file is engine-independent, then it and its child processes get a DATABASE_URL no server answers, until teardown', async () => {
    for (const before of [undefined, 'postgres://postgres@127.0.0.1:5/run']) {
      const env = { PATH: process.env.PATH, ...(before ? { DATABASE_URL: before } : {}) };
      const { file, child, connection, after } = await seen('independent', env);
      expect(file).toMatch(NOWHERE);
      expect(child).toBe(file);
      expect(connection).toBe('ECONNREFUSED');
      expect(after).toBe(before ?? 'unset');
    }
  });

  it('when the file reaches storage, then it and its child processes get the run’s own DATABASE_URL', async () => {
    const before = 'postgres://postgres@127.0.0.1:5/run';
    const { file, child, after } = await seen('storage', { PATH: process.env.PATH, DATABASE_URL: before });
    expect({ file, child, after }).toEqual({ file: before, child: before, after: before });
  });
});
