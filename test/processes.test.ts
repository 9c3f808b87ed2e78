/**
 * Several processes on one database, each a real OS process running the compiled sources: two
 * servers sharing the rate limits, a key rotated by the CLI while a server holds it in memory,
 * and a cluster (WEB_CONCURRENCY=2). On SQLite, or on PostgreSQL under DATABASE_URL.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { systemRandom } from '../src/clock';
import { databaseLocation, DEFAULT_API_KEY_CACHE_TTL_MS, loadConfig } from '../src/config';
import { LEASE_SHARE, RATE_LIMIT_WINDOW_MS } from '../src/http/rate-limit';
import { makeSecretBox } from '../src/security/secrets';
import { makeServices, type Services } from '../src/composition';
import { migrationSource } from '../src/storage/migrations';
import { makeTestContext, type TestContext } from './helpers/app';
import { makeTestDb, type TestDb } from './helpers/db';
import { personSession } from './helpers/evaluation';
import {
  compileSources,
  databaseEnv,
  killAll,
  runCli,
  send,
  startServer,
  until,
  type Reply,
} from './helpers/processes';

const secretKey = randomBytes(32);
let dataDir: string;

beforeAll(() => {
  compileSources();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-processes-'));
}, 120_000);
afterAll(() => {
  killAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function servicesOn(testDb: TestDb): Services {
  return makeServices({ db: testDb.db, secretBox: makeSecretBox(secretKey, systemRandom) });
}

/** The servers count in the wall clock's 60-second windows: start a sequence with at least 15 s of its window left. */
async function roomInWindow(): Promise<void> {
  const left = RATE_LIMIT_WINDOW_MS - (Date.now() % RATE_LIMIT_WINDOW_MS);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 50));
}

const message = (r: Reply) => (r.body as { message?: string } | undefined)?.message ?? '';

/** The server's data folder for `testDb` (databaseEnv's DATA_DIR). */
const dataDirOf = (testDb: TestDb) => databaseEnv(testDb, dataDir, secretKey).DATA_DIR!;

/** The default project's credentials as the first start wrote them (DATA_DIR/default-project.json). */
function defaultProjectFile(testDb: TestDb): { project_id: string; api_key: string; webhook_secret: string } {
  return JSON.parse(fs.readFileSync(path.join(dataDirOf(testDb), 'default-project.json'), 'utf8')) as {
    project_id: string;
    api_key: string;
    webhook_secret: string;
  };
}

describe('the first start', () => {
  let testDb: TestDb;
  afterAll(() => testDb?.destroy());

  test("when stdout is not a terminal, then the default project's key and secret go to a 0600 file in DATA_DIR, only its path is logged, and a second start writes nothing", async () => {
    testDb = await makeTestDb();
    const env = { ...databaseEnv(testDb, dataDir, secretKey), WEBHOOK_WORKER: 'off', ANALYSIS_ENGINE: 'off' };
    fs.rmSync(path.join(dataDirOf(testDb), 'default-project.json'), { force: true }); // PostgreSQL: the data folder is shared by this file's tests
    const server = await startServer(env);
    const file = path.join(dataDirOf(testDb), 'default-project.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const credentials = defaultProjectFile(testDb);
    expect(credentials).toEqual({
      project_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      api_key: expect.stringMatching(/^tg_/),
      webhook_secret: expect.any(String),
    });

    // Nothing secret on either stream; the log names the file.
    for (const output of [server.stdout(), server.stderr()]) {
      expect(output).not.toContain(credentials.api_key);
      expect(output).not.toContain(credentials.webhook_secret);
    }
    expect(server.lines.filter((l) => String(l.msg).startsWith('created a default project'))).toEqual([
      expect.objectContaining({ projectId: credentials.project_id, file }),
    ]);

    // They are the project's: the key authenticates, the secret is the one webhooks are signed with.
    expect(
      (await send(server.port, 'GET', `/session/${randomUUID()}`, { 'x-api-key': credentials.api_key })).status,
    ).toBe(400);
    const services = servicesOn(testDb);
    const project = (await services.repos.projects.findById(credentials.project_id))!;
    expect(await services.projects.webhookSecret(project)).toBe(credentials.webhook_secret);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const again = await startServer(env);
    expect(again.lines.some((l) => String(l.msg).startsWith('created a default project'))).toBe(false);
    expect(defaultProjectFile(testDb)).toEqual(credentials);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 90_000);

  test('when stdout is a terminal, then the key and secret are printed there once and no file is written', async () => {
    const db = await makeTestDb();
    try {
      const env = {
        ...databaseEnv(db, dataDir, secretKey),
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        WEBHOOK_WORKER: 'off',
        ANALYSIS_ENGINE: 'off',
      };
      const file = path.join(dataDirOf(db), 'default-project.json');
      fs.rmSync(file, { force: true });
      // util-linux's script(1) runs the server on a pseudo-terminal.
      const main = path.join(compileSources(), 'src', 'main.js');
      const child = spawn(
        'script',
        ['-qfec', `${JSON.stringify(process.execPath)} ${JSON.stringify(main)}`, '/dev/null'],
        { env, stdio: ['pipe', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        await until(() => /"msg":"listening"/.test(output), 'the server on a terminal to listen');
      } finally {
        const pid = /"pid":(\d+)[^\n]*"msg":"listening"/.exec(output)?.[1];
        if (pid) process.kill(Number(pid), 'SIGTERM');
        else child.kill('SIGKILL');
        await exited;
      }
      const apiKey = /api_key: +(tg_\S+)/.exec(output)?.[1];
      expect(apiKey).toBeDefined();
      expect(output).toMatch(/webhook_secret: +\S+/);
      expect(fs.existsSync(file)).toBe(false);
      expect(output).not.toContain('created a default project');
    } finally {
      await db.destroy();
    }
  }, 90_000);
});

describe('two server processes on one database', () => {
  let testDb: TestDb;
  afterAll(() => testDb?.destroy());

  test('when requests alternate between them, then the request after the limit gets 429 whichever process it reaches, for the API key, failed authentications and both SDK limits', async () => {
    testDb = await makeTestDb();
    const project = await servicesOn(testDb).projects.create({ name: 'Two processes' });
    const env = {
      ...databaseEnv(testDb, dataDir, secretKey),
      RATE_LIMIT_PER_MINUTE: '4',
      INGEST_RATE_LIMIT_PER_PROJECT: '3',
      INGEST_RATE_LIMIT_PER_IP: '6',
      AUTH_FAILURE_LIMIT_PER_IP: '3',
      WEBHOOK_WORKER: 'off',
      ANALYSIS_ENGINE: 'off',
    };
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    expect(a.child.pid).not.toBe(b.child.pid);
    const servers = [a, b];
    const server = (i: number) => (i % 2 === 0 ? a : b); // alternately
    await roomInWindow();

    // The API key: 4 a minute, requests 1–4 spread over both, then 429 from each.
    const key = { 'x-api-key': project.api_key };
    const api = (i: number) => send(server(i).port, 'GET', `/session/${randomUUID()}`, key);
    const allowed = [await api(0), await api(1), await api(2), await api(3)];
    expect(allowed.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    for (const i of [4, 5]) {
      const limited = await api(i);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({
        statusCode: 429,
        message: expect.stringMatching(
          /^Too many requests for this API key \(limit 4 per minute\); retry after \d+ seconds$/,
        ),
      });
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }

    // The SDK's posts: 3 a minute for the project, 6 for the address (both count every post).
    const post = (i: number, projectId: string) =>
      send(server(i).port, 'POST', '/ingest/session', { 'x-project-id': projectId }, personSession());
    const posts = [
      await post(0, project.project_id),
      await post(1, project.project_id),
      await post(2, project.project_id),
    ];
    expect(posts.map((r) => r.status)).toEqual([200, 200, 200]);
    for (const i of [3, 4]) {
      const limited = await post(i, project.project_id);
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBe('60');
      expect(message(limited)).toBe('Too many session posts for this project; retry after 60 seconds');
    }
    // The address's sixth post names another project (not limited yet); its seventh is refused by either process.
    expect((await post(5, randomUUID())).status).toBe(400);
    for (const i of [6, 7]) {
      const limited = await post(i, randomUUID());
      expect(limited.status).toBe(429);
      expect(message(limited)).toBe('Too many session posts for this address; retry after 60 seconds');
    }

    // Unknown keys, each a bucket of its own in the per-key limit: 3 failures a minute for the address, counted by both.
    const unknown = (i: number) =>
      send(server(i).port, 'GET', `/session/${randomUUID()}`, {
        'x-api-key': `tg_${randomBytes(24).toString('base64url')}`,
      });
    expect([(await unknown(0)).status, (await unknown(1)).status, (await unknown(2)).status]).toEqual([401, 401, 401]);
    for (const i of [3, 4]) {
      const limited = await unknown(i);
      expect(limited.status).toBe(429);
      expect(message(limited)).toMatch(
        /^Too many failed authentications from this address \(limit 3 per minute\); retry after \d+ seconds$/,
      );
    }

    for (const s of servers) s.child.kill('SIGTERM');
    expect(await Promise.all(servers.map((s) => s.exited))).toEqual([0, 0]);
  }, 90_000);
});

describe('a busy key on two server processes', () => {
  let testDb: TestDb;
  afterAll(() => testDb?.destroy());

  test('when 300 requests of one key come at once to both (limit 200), then at most 200 are served, whichever process counted them in leases, and at most two leases short of it', async () => {
    testDb = await makeTestDb();
    const project = await servicesOn(testDb).projects.create({ name: 'Busy key' });
    const env = {
      ...databaseEnv(testDb, dataDir, secretKey),
      RATE_LIMIT_PER_MINUTE: '200',
      WEBHOOK_WORKER: 'off',
      ANALYSIS_ENGINE: 'off',
    };
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    await roomInWindow();
    const key = { 'x-api-key': project.api_key };
    const statuses = await Promise.all(
      Array.from(
        { length: 300 },
        async (_, i) => (await send((i % 2 ? a : b).port, 'GET', `/session/${randomUUID()}`, key)).status,
      ),
    );
    const served = statuses.filter((s) => s === 400).length;
    expect(statuses.filter((s) => s !== 400 && s !== 429)).toEqual([]);
    expect(served).toBeLessThanOrEqual(200);
    expect(served).toBeGreaterThanOrEqual(200 - 2 * Math.floor(200 / LEASE_SHARE));
    // The counts of the key's window hold every hit the leases took.
    const [most] = await testDb.db('rate_limits').max<{ n: number | string }[]>({ n: 'hits' });
    expect(Number(most?.n)).toBeGreaterThanOrEqual(served);
    for (const s of [a, b]) s.child.kill('SIGTERM');
    expect(await Promise.all([a, b].map((s) => s.exited))).toEqual([0, 0]);
  }, 90_000);
});

describe('an API key rotated by another process', () => {
  let ctx: TestContext;
  afterAll(() => ctx?.close());

  test('when `trustgate project rotate-key` runs in its own process, then this server takes the old key until its cache entry expires, then 401, and the new key works', async () => {
    ctx = await makeTestContext();
    const get = (apiKey: string) => request(ctx.app).get(`/session/${randomUUID()}`).set('x-api-key', apiKey);
    expect((await get(ctx.project.api_key)).status).toBe(400); // now in this server's cache

    const env = databaseEnv(ctx.testDb, dataDir, secretKey);
    const rotated = await runCli(['project', 'rotate-key', ctx.project.project_id, '--json'], env);
    expect(rotated).toMatchObject({ code: 0, stderr: `database: ${databaseLocation(loadConfig(env))}\n` });
    const newKey = (JSON.parse(rotated.stdout) as { api_key: string }).api_key;
    expect(
      await ctx.testDb
        .db('api_keys')
        .where({ project_id: ctx.project.project_id })
        .whereNull('revoked_at')
        .count<{ n: number }[]>({ n: '*' }),
    ).toEqual([{ n: 1 }]);

    ctx.clock.advance(DEFAULT_API_KEY_CACHE_TTL_MS - 1);
    expect((await get(ctx.project.api_key)).status).toBe(400);
    ctx.clock.advance(1);
    const refused = await get(ctx.project.api_key);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ statusCode: 401, message: 'Invalid x-api-key' });
    expect((await get(newKey)).status).toBe(400);
  }, 60_000);
});

describe('WEB_CONCURRENCY=2', () => {
  let testDb: TestDb;
  afterAll(() => testDb?.destroy());

  test('when the server starts on an empty database, then the primary migrates and creates the default project once, two workers answer, and SIGTERM stops them all', async () => {
    testDb = await makeTestDb();
    await testDb.db.migrate.rollback({ migrationSource }, true); // empty: the primary must migrate
    const server = await startServer(
      { ...databaseEnv(testDb, dataDir, secretKey), WEB_CONCURRENCY: '2', ANALYSIS_ENGINE: 'off' },
      2,
    );
    const primary = server.child.pid;

    const [, pending] = (await testDb.db.migrate.list({ migrationSource })) as [unknown[], unknown[]];
    expect(pending).toEqual([]);
    // Created once, by the primary: its credentials in the data folder, not in the logs.
    const { api_key: apiKey } = defaultProjectFile(testDb);
    expect(server.stdout()).not.toContain(apiKey);
    expect(
      server.lines.filter((l) => l.msg?.toString().startsWith('created a default project')).map((l) => l.pid),
    ).toEqual([primary]);
    const workers = new Set(server.lines.filter((l) => l.msg === 'listening').map((l) => l.pid));
    expect(workers.size).toBe(2);
    expect(workers.has(primary)).toBe(false);

    // Each request on a connection of its own: the primary hands connections to the workers in turn.
    const served = new Set<unknown>();
    const statuses = new Set<number>();
    for (let i = 0; i < 20 && served.size < 2; i++) {
      const before = server.lines.length;
      statuses.add((await send(server.port, 'GET', `/session/${randomUUID()}`, { 'x-api-key': apiKey })).status);
      await until(() => server.lines.slice(before).some((l) => l.msg === 'request'), 'the request log line');
      for (const l of server.lines.slice(before)) if (l.msg === 'request') served.add(l.pid);
    }
    expect([...statuses]).toEqual([400]);
    expect(served).toEqual(workers);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    for (const pid of workers)
      expect(() => process.kill(Number(pid), 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(
      server.lines
        .filter((l) => l.msg === 'shutting down')
        .map((l) => l.pid)
        .sort(),
    ).toEqual([...workers].sort());
    expect(await testDb.db('projects').where({ demo: false }).count<{ n: number }[]>({ n: '*' })).toEqual([{ n: 1 }]);
  }, 90_000);
});
