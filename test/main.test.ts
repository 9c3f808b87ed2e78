/**
 * The server's start as a real OS process (the compiled src/main.js): when its port is taken, it
 * says so, naming the port and the setting that changes it, and exits non-zero, as a single
 * server and as a cluster (WEB_CONCURRENCY=2). On SQLite, or on PostgreSQL under DATABASE_URL.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { makeTestDb, type TestDb } from './helpers/db';
import { compileSources, databaseEnv } from './helpers/processes';

let testDb: TestDb;
let dataDir: string;
let taken: net.Server;
let port: number;
/** One key for every start of the file: the database's secrets open only with the key that sealed them. */
const secretKey = randomBytes(32);

beforeAll(async () => {
  compileSources();
  testDb = await makeTestDb();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-main-'));
  taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as net.AddressInfo).port;
}, 120_000);
afterAll(async () => {
  await new Promise((resolve) => taken.close(resolve));
  await testDb.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the compiled server until it exits by itself (the test's timeout stops one that does not). */
function runServer(env: NodeJS.ProcessEnv): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(compileSources(), 'src', 'main.js')], {
    env: {
      ...databaseEnv(testDb, dataDir, secretKey),
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      ANALYSIS_ENGINE: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code: code ?? signal ?? -1, stdout, stderr })),
  );
}

const messages = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => (JSON.parse(l) as { msg: string }).msg);

describe('a port in use', () => {
  test('when another program holds PORT, then the server exits with 1 and a message naming the port and PORT, and never claims to listen or starts a webhook worker', async () => {
    const r = await runServer({});
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `trustgate: port ${port} is already in use on 127.0.0.1 (another Trustgate or another program listens there): stop it, or set PORT to a free port\n`,
    );
    expect(messages(r.stdout)).not.toContain('listening');
    expect(messages(r.stdout)).not.toContain('webhook worker started');
  }, 60_000);

  test('when a cluster (WEB_CONCURRENCY=2) starts on it, then each worker says so, the primary stops them all and exits with 1', async () => {
    const r = await runServer({ WEB_CONCURRENCY: '2' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`trustgate: port ${port} is already in use on 127.0.0.1`);
    expect(r.stderr).toContain('set PORT to a free port');
    expect(r.stderr).not.toContain('Unhandled'); // no stack trace instead of the message
    const logged = messages(r.stdout);
    expect(logged).toContain('stopping the workers');
    expect(logged).not.toContain('listening');
    expect(logged).not.toContain('webhook worker started');
  }, 90_000);
});

describe('the age of the network data at start', () => {
  test('when a synced IP list is older than IPLIST_STALE_DAYS and others were never synced, then the start logs a warning for each', async () => {
    const lists = path.join(dataDir, 'stale-lists');
    fs.mkdirSync(path.join(lists, 'synced'), { recursive: true });
    const syncedAt = new Date(Date.now() - 30 * 86_400_000).toISOString();
    fs.writeFileSync(
      path.join(lists, 'synced', 'tor.txt'),
      `# source: https://check.torproject.org/torbulkexitlist\n# synced_at: ${syncedAt}\n# entries: 1\n185.220.100.1/32\n`,
    );
    const r = await runServer({ IP_LISTS_DIR: lists, IPLIST_STALE_DAYS: '14', IPLIST_SOURCE_VPN: 'off' });
    expect(r.code).toBe(1); // the port is taken: the warnings come before listening
    const logged = messages(r.stdout);
    expect(logged).toContain(
      'IP list tor is stale (synced 30 days ago, over IPLIST_STALE_DAYS=14); run trustgate iplist sync',
    );
    expect(logged).toContain(
      'IP lists never synced: relay; Tor, VPN and relay detection needs them: run trustgate iplist sync',
    );
  }, 60_000);
});
