/**
 * The rate limits' database store through the real app and database: fixed 60-second windows
 * by the injected clock, one statement per limiter and request, past windows dropped, and what
 * RATE_LIMIT_STORE=memory and a failing store do. (Two server processes sharing a limit:
 * test/processes.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../../src/app';
import { makeTestContext, type TestContext } from '../helpers/app';
import { statementsDuring } from '../helpers/db';

/** The statements sent to rate_limits while `call` runs. */
const rateLimitStatements = async (ctx: TestContext, call: () => Promise<unknown>) =>
  (await statementsDuring(ctx.testDb.db, call)).map((s) => s.sql).filter((sql) => /rate_limits/.test(sql));

const get = (ctx: TestContext, apiKey = ctx.project.api_key) => request(ctx.app).get(`/session/${randomUUID()}`).set('x-api-key', apiKey);

describe('the API limit on the database', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext({ rateLimitPerMinute: 2 });
  });
  afterAll(() => ctx.close());

  test('when a key passes its limit 45 s into a window, then 429 with Retry-After 15, and the next window starts again', async () => {
    ctx.clock.set('2026-11-20T13:00:45.000Z');
    expect([(await get(ctx)).status, (await get(ctx)).status]).toEqual([400, 400]);
    const limited = await get(ctx);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('15');
    expect(limited.body).toEqual({ statusCode: 429, message: 'Too many requests for this API key (limit 2 per minute); retry after 15 seconds' });
    ctx.clock.advance(14_999);
    expect((await get(ctx)).status).toBe(429);
    ctx.clock.advance(1);
    expect((await get(ctx)).status).toBe(400);
  });

  test('when a request is counted, then it sends one statement to the counters per limiter: one for the API, two for an SDK post', async () => {
    ctx.clock.set('2026-11-20T14:00:00.000Z');
    await get(ctx); // the window's first request also deletes the windows before the previous one
    expect(await rateLimitStatements(ctx, () => get(ctx))).toEqual([expect.stringMatching(/^insert into .rate_limits. .* returning .hits.$/i)]);
    const post = () => request(ctx.app).post('/ingest/session').set('x-project-id', randomUUID()).send({});
    const statements = await rateLimitStatements(ctx, post);
    expect(statements).toHaveLength(2);
    for (const sql of statements) expect(sql).toMatch(/^insert into .rate_limits. /i);
  });

  test('when a new window starts, then the windows before the previous one are deleted by the next request', async () => {
    ctx.clock.set('2026-11-20T15:00:10.000Z');
    await get(ctx);
    ctx.clock.set('2026-11-20T15:01:10.000Z');
    await get(ctx);
    ctx.clock.set('2026-11-20T15:02:10.000Z');
    await get(ctx);
    const windows = async () =>
      (await ctx.testDb.db('rate_limits').distinct('window_start').orderBy('window_start')).map((r: { window_start: number | string }) => new Date(Number(r.window_start)).toISOString());
    // The delete is not awaited by the request: wait for it.
    const deadline = Date.now() + 5_000;
    while ((await windows()).length > 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await windows()).toEqual(['2026-11-20T15:01:00.000Z', '2026-11-20T15:02:00.000Z']);
  });

  test('when two apps share the database, then they share the count', async () => {
    ctx.clock.set('2026-11-20T16:00:00.000Z');
    const other = createApp({ ...ctx.deps, config: ctx.config });
    expect((await get(ctx)).status).toBe(400);
    expect((await request(other).get(`/session/${randomUUID()}`).set('x-api-key', ctx.project.api_key)).status).toBe(400);
    expect((await request(other).get(`/session/${randomUUID()}`).set('x-api-key', ctx.project.api_key)).status).toBe(429);
    expect((await get(ctx)).status).toBe(429);
  });
});

describe('RATE_LIMIT_STORE=memory', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext({ rateLimitPerMinute: 2, rateLimitStore: 'memory' });
  });
  afterAll(() => ctx.close());

  test('when a key passes its limit, then 429 as before, nothing is written to the database, and another app keeps a count of its own', async () => {
    expect([(await get(ctx)).status, (await get(ctx)).status, (await get(ctx)).status]).toEqual([400, 400, 429]);
    expect(await ctx.testDb.db('rate_limits').count<{ n: number }[]>({ n: '*' })).toEqual([{ n: 0 }]);
    const other = createApp({ ...ctx.deps, config: ctx.config });
    expect((await request(other).get(`/session/${randomUUID()}`).set('x-api-key', ctx.project.api_key)).status).toBe(400);
  });
});

describe('a store that fails', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext({ rateLimitPerMinute: 1 });
  });
  afterAll(() => ctx.close());

  test('when the counters cannot be written, then the request is served unlimited and the error is logged', async () => {
    await ctx.testDb.db.schema.dropTable('rate_limits');
    expect([(await get(ctx)).status, (await get(ctx)).status]).toEqual([400, 400]);
    expect(ctx.logs.some((l) => l.level === 50 && /error from store, allowing request without rate-limiting/.test(String(l.msg)))).toBe(true);
  });
});
