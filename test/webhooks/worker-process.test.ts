/**
 * `trustgate worker` as its own process. Killed with SIGKILL in the middle of a delivery: the
 * webhook is still delivered, by another worker once the lease expires, with the same
 * request_id. On PostgreSQL, woken by the NOTIFY of the transaction that queued a webhook while
 * it sleeps a 10-minute poll. Real processes (the compiled CLI), a real database, a real receiver.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fixedClock, systemRandom } from '../../src/clock';
import { makeSecretBox } from '../../src/security/secrets';
import { makeServices, type Services } from '../../src/composition';
import { makeTestDb, type TestDb } from '../helpers/db';
import { at } from '../helpers/defined';
import { TEST_BASE_URL } from '../helpers/app';
import { webhookReceiver } from '../helpers/receiver';
import { compileSources } from '../helpers/processes';
import { example } from '../helpers/spec';

const LEASE_MS = 1500;
let testDb: TestDb;
let services: Services;
const key = randomBytes(32);
const children: ChildProcess[] = [];

beforeAll(async () => {
  // The workers run the compiled CLI: the sources under test, compiled once per run.
  compileSources();
  testDb = await makeTestDb();
  services = makeServices({
    db: testDb.db,
    secretBox: makeSecretBox(key, systemRandom),
    publicBaseUrl: () => TEST_BASE_URL,
  });
}, 120_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await testDb?.destroy();
});

/** The worker process's environment: the test's database and secret key, loopback allowed. */
const workerEnv = (logLevel = 'silent'): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  TRUSTGATE_SECRET_KEY: key.toString('base64'),
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_LEASE_MS: String(LEASE_MS),
  LOG_LEVEL: logLevel,
  ...(testDb.url ? { DATABASE_URL: testDb.url } : { DATA_DIR: path.dirname(testDb.sqliteFile!) }),
});

function worker(env: NodeJS.ProcessEnv, args: string[] = []): ChildProcess {
  const cli = path.join(compileSources(), 'src', 'cli', 'main.js');
  const script = `require(${JSON.stringify(cli)}).cli(process.argv.slice(1)).then((code) => process.exit(code))`;
  const child = spawn(process.execPath, ['-e', script, 'worker', ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
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

    const env = workerEnv();
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

// On SQLite a separate worker learns of new webhooks by its poll alone: there is nothing to wake it.
(process.env.DATABASE_URL ? test : test.skip)(
  "when a session ends while a worker process sleeps a 10-minute poll, then PostgreSQL's NOTIFY wakes it and it delivers the webhook",
  async () => {
    const rx = await webhookReceiver();
    const child = worker(workerEnv('debug'), ['--poll-ms', '600000']);
    const logs: Record<string, unknown>[] = [];
    // Its stderr is a JSON log, every line of it (which database it uses included).
    readline.createInterface({ input: child.stderr! }).on('line', (line) => logs.push(JSON.parse(line)));
    try {
      await until(() => logs.some((l) => l.msg === 'database' && /^postgresql /.test(String(l.database))));
      const credentials = await services.projects.create({ name: 'Worker NOTIFY test', webhookUrl: rx.url });
      const project = (await services.repos.projects.findById(credentials.project_id))!;

      // Listening, then asleep for the whole poll with no wake pending: from here only a NOTIFY can wake it.
      await until(() => {
        const listening = logs.findIndex((l) => l.msg === 'listening for notifications');
        return (
          listening >= 0 &&
          logs.slice(listening).some((l) => l.msg === 'webhook dispatcher idle' && l.sleepMs === 600_000)
        );
      });

      const created = await services.verification.create(project, { type: 'face-match' }, { requestId: randomUUID() });
      await services.verification.cancel(created.session_id, new URL(created.url).searchParams.get('token')!);

      await until(() => rx.received.length > 0);
      expect(JSON.parse(at(rx.received, 0).body)).toMatchObject({
        session_id: created.session_id,
        error: { code: 'liveness_check_failed' },
      });
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      expect(child.exitCode).toBe(0);
    } finally {
      await rx.close();
    }
  },
  60_000,
);
