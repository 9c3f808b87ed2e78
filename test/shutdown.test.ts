/**
 * The server's graceful shutdown, as a real OS process: on SIGTERM it stops taking connections,
 * answers the requests under way, writes the overview's counts its evaluations tallied, then
 * exits 0.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { systemRandom } from '../src/clock';
import { makeServices } from '../src/composition';
import { makeSecretBox } from '../src/security/secrets';
import { makeTestDb, type TestDb } from './helpers/db';
import { personSession } from './helpers/evaluation';
import { compileSources, databaseEnv, killAll, send, startServer, until } from './helpers/processes';

let testDb: TestDb;
let dataDir: string;
/** One key for every server of the file: the database's secrets open only with the key that sealed them. */
const secretKey = randomBytes(32);

beforeAll(async () => {
  compileSources();
  testDb = await makeTestDb();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-shutdown-'));
}, 120_000);
afterAll(async () => {
  killAll();
  await testDb.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('when SIGTERM arrives while a request is under way, then that request is answered and the server exits 0', async () => {
  const server = await startServer({
    ...databaseEnv(testDb, dataDir, secretKey),
    ANALYSIS_ENGINE: 'off',
    WEBHOOK_WORKER: 'off',
  });
  const socket = net.connect(server.port, '127.0.0.1');
  let answer = '';
  socket.on('data', (c: Buffer) => (answer += c.toString('utf8')));
  await new Promise((resolve) => socket.once('connect', resolve));
  const body = JSON.stringify({ session_id: 'shutdown-test' });
  // The head and half the body: the request is under way when the signal arrives.
  socket.write(
    `POST /session/unauthenticated HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n` +
      body.slice(0, 10),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  server.child.kill('SIGTERM');
  await until(() => server.lines.some((l) => l.msg === 'shutting down'), 'the server to log shutting down');
  // No new connections.
  const refused = await new Promise<boolean>((resolve) => {
    const other = net.connect(server.port, '127.0.0.1');
    other.once('connect', () => (other.destroy(), resolve(false)));
    other.once('error', () => resolve(true));
  });
  expect(refused).toBe(true);
  socket.write(body.slice(10));
  expect(await server.exited).toBe(0);
  // Answered (401: no API key), not cut off.
  expect(answer).toMatch(/^HTTP\/1\.1 401 /);
  expect(answer).toContain('"statusCode":401');
  socket.destroy();
}, 90_000);

test('when SIGTERM arrives after evaluations, then the overview counts they tallied are written before the server exits', async () => {
  const project = await makeServices({
    db: testDb.db,
    secretBox: makeSecretBox(secretKey, systemRandom),
  }).projects.create({
    name: 'Counts at shutdown',
  });
  const server = await startServer({
    ...databaseEnv(testDb, dataDir, secretKey),
    ANALYSIS_ENGINE: 'off',
    WEBHOOK_WORKER: 'off',
    // No flush by the timer during the test: only the one at shutdown.
    STATS_FLUSH_MS: '3600000',
  });
  for (let i = 0; i < 3; i++) {
    const session = personSession();
    const posted = await send(server.port, 'POST', '/ingest/session', { 'x-project-id': project.project_id }, session);
    expect(posted.status).toBe(200);
    const evaluated = await send(
      server.port,
      'POST',
      '/session/unauthenticated',
      { 'x-api-key': project.api_key },
      { session_id: session.session_id },
    );
    expect(evaluated.status).toBe(200);
  }
  const decisions = async () =>
    Number(
      (
        await testDb
          .db('evaluation_counts')
          .where({ project_id: project.project_id })
          .where('metric', 'like', 'decision:%')
          .sum({ n: 'count' })
          .first()
      )?.n ?? 0,
    );
  await expect(decisions()).resolves.toBe(0);
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  await expect(decisions()).resolves.toBe(3);
}, 90_000);
