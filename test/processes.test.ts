/**
 * Several processes on one database, each a real OS process running the compiled sources: two
 * servers sharing the rate limits, a key rotated by the CLI while a server holds it in memory,
 * and a cluster (WEB_CONCURRENCY=2). On SQLite, or on PostgreSQL under DATABASE_URL.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { systemClock, systemRandom } from '../src/clock';
import { DEFAULT_API_KEY_CACHE_TTL_MS } from '../src/config';
import { RATE_LIMIT_WINDOW_MS } from '../src/http/rate-limit';
import { makeLogger } from '../src/logger';
import { makeSecretBox } from '../src/security/secrets';
import { makeServices, type Services } from '../src/services';
import { migrationSource } from '../src/storage/migrations';
import { makeTestContext, type TestContext } from './helpers/app';
import { makeTestDb, type TestDb } from './helpers/db';
import { personSession } from './helpers/evaluation';
import { compileSources, databaseEnv, killAll, removeCompiled, runCli, send, startServer, until, type Reply } from './helpers/processes';

const secretKey = randomBytes(32);
let dataDir: string;

beforeAll(() => {
  compileSources();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-processes-'));
}, 120_000);
afterAll(() => {
  killAll();
  removeCompiled();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function servicesOn(testDb: TestDb): Services {
  return makeServices({
    db: testDb.db,
    clock: systemClock,
    random: systemRandom,
    logger: makeLogger('silent'),
    secretBox: makeSecretBox(secretKey, systemRandom),
    ipIntelligence: { lookup: () => ({}) },
    ipLists: { lookup: () => [] },
  });
}

/** The servers count in the wall clock's 60-second windows: start a sequence with at least 15 s of its window left. */
async function roomInWindow(): Promise<void> {
  const left = RATE_LIMIT_WINDOW_MS - (Date.now() % RATE_LIMIT_WINDOW_MS);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 50));
}


const message = (r: Reply) => (r.body as { message?: string } | undefined)?.message ?? '';

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
    await roomInWindow();

    // The API key: 4 a minute, requests 1–4 spread over both, then 429 from each.
    const key = { 'x-api-key': project.api_key };
    const api = (i: number) => send(servers[i % 2].port, 'GET', `/session/${randomUUID()}`, key);
    const allowed = [await api(0), await api(1), await api(2), await api(3)];
    expect(allowed.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    for (const i of [4, 5]) {
      const limited = await api(i);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ statusCode: 429, message: expect.stringMatching(/^Too many requests for this API key \(limit 4 per minute\); retry after \d+ seconds$/) });
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }

    // The SDK's posts: 3 a minute for the project, 6 for the address (both count every post).
    const post = (i: number, projectId: string) => send(servers[i % 2].port, 'POST', '/ingest/session', { 'x-project-id': projectId }, personSession());
    const posts = [await post(0, project.project_id), await post(1, project.project_id), await post(2, project.project_id)];
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
    const unknown = (i: number) => send(servers[i % 2].port, 'GET', `/session/${randomUUID()}`, { 'x-api-key': `tg_${randomBytes(24).toString('base64url')}` });
    expect([(await unknown(0)).status, (await unknown(1)).status, (await unknown(2)).status]).toEqual([401, 401, 401]);
    for (const i of [3, 4]) {
      const limited = await unknown(i);
      expect(limited.status).toBe(429);
      expect(message(limited)).toMatch(/^Too many failed authentications from this address \(limit 3 per minute\); retry after \d+ seconds$/);
    }

    for (const s of servers) s.child.kill('SIGTERM');
    expect(await Promise.all(servers.map((s) => s.exited))).toEqual([0, 0]);
  }, 90_000);
});

describe('an API key rotated by another process', () => {
  let ctx: TestContext;
  afterAll(() => ctx?.close());

  test('when `trustgate project rotate-key` runs in its own process, then this server takes the old key until its cache entry expires, then 401, and the new key works', async () => {
    ctx = await makeTestContext();
    const get = (apiKey: string) => request(ctx.app).get(`/session/${randomUUID()}`).set('x-api-key', apiKey);
    expect((await get(ctx.project.api_key)).status).toBe(400); // now in this server's cache

    const rotated = await runCli(['project', 'rotate-key', ctx.project.project_id, '--json'], databaseEnv(ctx.testDb, dataDir, secretKey));
    expect(rotated).toMatchObject({ code: 0, stderr: '' });
    const newKey = (JSON.parse(rotated.stdout) as { api_key: string }).api_key;
    expect(await ctx.testDb.db('api_keys').where({ project_id: ctx.project.project_id }).whereNull('revoked_at').count<{ n: number }[]>({ n: '*' })).toEqual([{ n: 1 }]);

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
    const server = await startServer({ ...databaseEnv(testDb, dataDir, secretKey), WEB_CONCURRENCY: '2', ANALYSIS_ENGINE: 'off' }, 2);

    const [, pending] = (await testDb.db.migrate.list({ migrationSource })) as [unknown[], unknown[]];
    expect(pending).toEqual([]);
    const printed = [...server.stdout().matchAll(/api_key: +(tg_\S+)/g)].map((m) => m[1]);
    expect(printed).toHaveLength(1);
    const [apiKey] = printed;
    const primary = server.child.pid;
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
    for (const pid of workers) expect(() => process.kill(Number(pid), 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(server.lines.filter((l) => l.msg === 'shutting down').map((l) => l.pid).sort()).toEqual([...workers].sort());
    expect(await testDb.db('projects').where({ demo: false }).count<{ n: number }[]>({ n: '*' })).toEqual([{ n: 1 }]);
  }, 90_000);
});
