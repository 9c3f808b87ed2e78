/**
 * `trustgate worker` as its own process, killed with SIGKILL in the middle of a delivery: the
 * webhook is still delivered, by another worker once the lease expires, with the same
 * request_id. Real processes (the compiled CLI), a real database, a real receiver.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fixedClock, systemClock, systemRandom } from '../../src/clock';
import { makeLogger } from '../../src/logger';
import { makeSecretBox } from '../../src/security/secrets';
import { makeServices } from '../../src/services';
import { PACKAGE_ROOT } from '../../src/spec';
import { makeTestDb, type TestDb } from '../helpers/db';
import { webhookReceiver } from '../helpers/receiver';
import { example } from '../helpers/spec';

const LEASE_MS = 1500;
let testDb: TestDb;
const children: ChildProcess[] = [];

beforeAll(() => {
  // The workers run the compiled CLI: compile the sources under test first.
  execFileSync(process.execPath, [path.join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: PACKAGE_ROOT, stdio: 'pipe' });
}, 120_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await testDb?.destroy();
});

function worker(env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'trustgate.js'), 'worker'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return child;
}

const until = async (ok: () => boolean | Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
};

test('when the worker is killed with SIGKILL mid-delivery, then another worker delivers the webhook with the same request_id', async () => {
  testDb = await makeTestDb();
  const key = randomBytes(32);
  const services = makeServices({
    db: testDb.db,
    clock: systemClock,
    random: systemRandom,
    logger: makeLogger('silent'),
    secretBox: makeSecretBox(key, systemRandom),
    ipIntelligence: { lookup: () => ({}) },
    ipLists: { lookup: () => [] },
  });

  // A receiver that never answers the first delivery (the worker dies waiting) and accepts the next.
  const rx = await webhookReceiver(['hang', 200]);
  const received = rx.received;
  const hookUrl = rx.url;

  try {
    const project = await services.projects.create({ name: 'Worker test', webhookUrl: hookUrl });
    const requestId = randomUUID();
    const envelope = await example<Record<string, unknown>>('FaceMatchCompletedError');
    await services.repos.outbox.enqueue({
      requestId,
      projectId: project.project_id,
      sessionId: randomUUID(),
      eventType: 'verification.face-match.completed',
      body: JSON.stringify({ ...envelope, request_id: requestId, project_id: project.project_id }),
      now: fixedClock(new Date()).now(),
    });

    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      TRUSTGATE_SECRET_KEY: key.toString('base64'),
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_LEASE_MS: String(LEASE_MS),
      LOG_LEVEL: 'silent',
      ...(testDb.url ? { DATABASE_URL: testDb.url } : { DATA_DIR: path.dirname(testDb.sqliteFile!) }),
    };
    const first = worker(env);
    await until(() => received.length === 1);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const held = await services.repos.outbox.find(requestId);
    expect(held).toMatchObject({ status: 'pending', attempts: 1 });
    expect(held!.lockedBy).toBeDefined();

    const second = worker(env);
    await until(async () => (await services.repos.outbox.find(requestId))?.status === 'delivered');
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
    expect(second.exitCode).toBe(0);

    expect(received).toHaveLength(2);
    expect(received.map((r) => r.headers['x-event-id'])).toEqual([requestId, requestId]);
    const row = (await services.repos.outbox.find(requestId))!;
    expect(row.attempts).toBe(2);
    expect((await services.repos.outbox.attempts(requestId)).map((a) => a.statusCode)).toEqual([200]);
  } finally {
    await rx.close();
  }
}, 60_000);
