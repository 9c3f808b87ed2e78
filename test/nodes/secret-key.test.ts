/**
 * Several nodes, one secret key: server processes on one PostgreSQL database refuse to start,
 * each with a message that says why, when they could not share what the others seal: a node
 * without TRUSTGATE_SECRET_KEY (it would make a key of its own) and a node whose key is not the
 * first node's. PostgreSQL only: it is the way to run several.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keyMismatch } from '../../src/security/installation-keys';
import { SECRET_KEY_REQUIRED } from '../../src/security/secrets';
import { makeTestDb, type TestDb } from '../helpers/db';
import { startNodes, type Nodes } from '../helpers/nodes';
import { compileSources, databaseEnv, killAll } from '../helpers/processes';

const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

beforeAll(() => {
  if (process.env.DATABASE_URL) compileSources();
}, 120_000);
afterAll(() => {
  killAll();
});

/** What a node is given besides its key: the database (each gets its own DATA_DIR). */
const nodeEnv = (testDb: TestDb, key?: Buffer): NodeJS.ProcessEnv => {
  const { TRUSTGATE_SECRET_KEY, ...env } = databaseEnv(testDb, '/nonexistent', key ?? randomBytes(32));
  return { ...env, ...(key ? { TRUSTGATE_SECRET_KEY } : {}), WEBHOOK_WORKER: 'off', ANALYSIS_ENGINE: 'off' };
};

/** A node started on a DATA_DIR of its own, as startServer starts one, run until it exits: its exit code and stderr. */
async function refusedStart(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-node-'));
  const child = spawn(process.execPath, [path.join(compileSources(), 'src', 'main.js')], {
    env: { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env, DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  // A node that starts after all is stopped, and the test fails on its exit code.
  const started = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(started);
  return { code, stderr, dataDir };
}

onPostgres('nodes of one database and their secret key', () => {
  let testDb: TestDb;
  let nodes: Nodes | undefined;
  const dirs: string[] = [];
  afterAll(async () => {
    await nodes?.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    await testDb?.destroy();
  });

  test('when a node starts without TRUSTGATE_SECRET_KEY, or with another key than the running nodes, then it exits saying why', async () => {
    testDb = await makeTestDb({ migrate: false });
    const key = randomBytes(32);
    nodes = await startNodes(2, nodeEnv(testDb, key));

    const keyless = await refusedStart(nodeEnv(testDb));
    dirs.push(keyless.dataDir);
    expect(keyless).toMatchObject({ code: 1, stderr: `trustgate: ${SECRET_KEY_REQUIRED}\n` });
    expect(fs.existsSync(path.join(keyless.dataDir, 'secret.key'))).toBe(false);

    const other = await refusedStart(nodeEnv(testDb, randomBytes(32)));
    dirs.push(other.dataDir);
    expect(other).toMatchObject({ code: 1, stderr: `trustgate: ${keyMismatch('TRUSTGATE_SECRET_KEY')}\n` });

    // The nodes that share the key still serve.
    for (const n of nodes.nodes) expect(n.child.exitCode).toBeNull();
  }, 120_000);
});
