/**
 * The rate limits' database store through the real app and database: fixed 60-second windows
 * by the injected clock, one statement per limiter and request, past windows dropped, failed
 * authentications per address, and what RATE_LIMIT_STORE=memory and a failing store do. (Two
 * server processes sharing the limits: test/processes.test.ts.)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../../src/app';
import { makeServices } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { makeTestContext, type TestContext } from '../helpers/app';
import { statementsDuring } from '../helpers/db';

/** The statements sent to rate_limits while `call` runs. */
const rateLimitStatements = async (ctx: TestContext, call: () => Promise<unknown>) =>
  (await statementsDuring(ctx.testDb.db, call)).map((s) => s.sql).filter((sql) => /rate_limits/.test(sql));

const get = (ctx: TestContext, apiKey = ctx.project.api_key) =>
  request(ctx.app).get(`/session/${randomUUID()}`).set('x-api-key', apiKey);

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
    expect(limited.body).toEqual({
      statusCode: 429,
      message: 'Too many requests for this API key (limit 2 per minute); retry after 15 seconds',
    });
    ctx.clock.advance(14_999);
    expect((await get(ctx)).status).toBe(429);
    ctx.clock.advance(1);
    expect((await get(ctx)).status).toBe(400);
  });

  test('when a request is counted, then it sends one statement to the counters per limiter: one for the API, two for an SDK post', async () => {
    ctx.clock.set('2026-11-20T14:00:00.000Z');
    await get(ctx); // the window's first request also deletes the windows before the previous one
    expect(await rateLimitStatements(ctx, () => get(ctx))).toEqual([
      expect.stringMatching(/^insert into .?rate_limits.? .* returning .?hits.?$/is),
    ]);
    const post = () => request(ctx.app).post('/ingest/session').set('x-project-id', randomUUID()).send({});
    const statements = await rateLimitStatements(ctx, post);
    expect(statements).toHaveLength(2);
    for (const sql of statements) expect(sql).toMatch(/^insert into .?rate_limits.? /i);
  });

  test('when a new window starts, then the windows before the previous one are deleted by the next request', async () => {
    ctx.clock.set('2026-11-20T15:00:10.000Z');
    await get(ctx);
    ctx.clock.set('2026-11-20T15:01:10.000Z');
    await get(ctx);
    ctx.clock.set('2026-11-20T15:02:10.000Z');
    await get(ctx);
    const windows = async () =>
      (await ctx.testDb.db('rate_limits').distinct('window_start').orderBy('window_start')).map(
        (r: { window_start: number | string }) => new Date(Number(r.window_start)).toISOString(),
      );
    // The delete is not awaited by the request: wait for it.
    const deadline = Date.now() + 5_000;
    while ((await windows()).length > 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await windows()).toEqual(['2026-11-20T15:01:00.000Z', '2026-11-20T15:02:00.000Z']);
  });

  test('when two apps share the database, then they share the count', async () => {
    ctx.clock.set('2026-11-20T16:00:00.000Z');
    const other = createApp({ config: ctx.config, services: makeServices(ctx.deps) });
    expect((await get(ctx)).status).toBe(400);
    expect((await request(other).get(`/session/${randomUUID()}`).set('x-api-key', ctx.project.api_key)).status).toBe(
      400,
    );
    expect((await request(other).get(`/session/${randomUUID()}`).set('x-api-key', ctx.project.api_key)).status).toBe(
      429,
    );
    expect((await get(ctx)).status).toBe(429);
  });
});

/** A key no project has, shaped like a real one. */
const randomKey = () => `tg_${randomBytes(24).toString('base64url')}`;

describe('failed authentications per address', () => {
  test.each(['database', 'memory'] as const)(
    'when one address sends 350 random keys (store %s, the default limit), then 401 up to the limit, 429 with Retry-After after it, and a key the server holds is still served',
    async (store) => {
      const limit = loadConfig({}).authFailureLimitPerIp;
      const ctx = await makeTestContext({ authFailureLimitPerIp: limit, rateLimitStore: store });
      try {
        ctx.clock.set('2026-11-20T17:00:20.000Z');
        expect((await get(ctx)).status).toBe(400); // the project's key, now known to this server
        const statuses: number[] = [];
        let limited;
        for (let i = 0; i < 350; i++) {
          const res = await get(ctx, randomKey());
          statuses.push(res.status);
          if (res.status === 429) limited ??= res;
        }
        expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(401));
        expect(statuses.slice(limit)).toEqual(Array(350 - limit).fill(429));
        expect(limited!.body).toEqual({
          statusCode: 429,
          message: expect.stringMatching(
            new RegExp(
              `^Too many failed authentications from this address \\(limit ${limit} per minute\\); retry after \\d+ seconds$`,
            ),
          ),
        });
        const retryAfter = Number(limited!.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(60);
        // A missing key is limited per address by the API limit, not counted here: still 401.
        expect((await request(ctx.app).get(`/session/${randomUUID()}`)).status).toBe(401);
        // The project's own key, held by this server, is served as before.
        expect((await get(ctx)).status).toBe(400);
      } finally {
        await ctx.close();
      }
    },
  );

  describe('on the database store', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      // TRUST_PROXY on: X-Forwarded-For names the client address.
      ctx = await makeTestContext({ authFailureLimitPerIp: 2, trustProxy: true });
    });
    afterAll(() => ctx.close());

    test('when an address has used up its failures, then a key this server does not hold yet is not even looked up (429), other addresses are not limited, and the next window starts again', async () => {
      ctx.clock.set('2026-11-20T18:00:50.000Z');
      expect([(await get(ctx, randomKey())).status, (await get(ctx, randomKey())).status]).toEqual([401, 401]);
      const other = await ctx.services.projects.create({ name: 'Not yet used' });
      const statements = await statementsDuring(ctx.testDb.db, async () =>
        expect((await get(ctx, other.api_key)).status).toBe(429),
      );
      expect(statements.map((s) => s.sql).filter((sql) => /api_keys/.test(sql))).toEqual([]);
      expect((await get(ctx, randomKey()).set('x-forwarded-for', '203.0.113.7')).status).toBe(401);
      expect((await get(ctx, other.api_key).set('x-forwarded-for', '203.0.113.7')).status).toBe(400);
      ctx.clock.advance(10_000);
      expect((await get(ctx, other.api_key)).status).toBe(400);
      expect((await get(ctx, randomKey())).status).toBe(401);
    });

    test('when requests carry a key the server holds, then the failure count is not read: one statement to the counters, as before', async () => {
      ctx.clock.set('2026-11-20T19:00:00.000Z');
      await get(ctx);
      expect(await rateLimitStatements(ctx, () => get(ctx))).toEqual([
        expect.stringMatching(/^insert into .?rate_limits.? .* returning .?hits.?$/is),
      ]);
    });
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
    const other = createApp({ config: ctx.config, services: makeServices(ctx.deps) });
    expect((await request(other).get(`/session/${randomUUID()}`).set('x-api-key', ctx.project.api_key)).status).toBe(
      400,
    );
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
    expect(
      ctx.logs.some(
        (l) => l.level === 50 && /error from store, allowing request without rate-limiting/.test(String(l.msg)),
      ),
    ).toBe(true);
  });
});
