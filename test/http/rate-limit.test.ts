/**
 * The rate limits' database store through the real app and database: fixed 60-second windows
 * by the injected clock, one statement per limiter and request for a key seen now and then,
 * leases for a busy one, past windows dropped, failed authentications per address, and what
 * RATE_LIMIT_STORE=memory and a failing store do. (Two server processes sharing the limits:
 * test/processes.test.ts.)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../../src/app';
import { makeServices } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { fixedClock } from '../../src/clock';
import {
  LEASE_SHARE,
  LEASE_SPAN_MS,
  leaseSize,
  MAX_LEASE,
  MAX_LEASED_KEYS,
  makeSharedCounters,
} from '../../src/http/rate-limit';
import { makeLogger } from '../../src/logger';
import type { RateLimitRepository } from '../../src/storage/repositories/rate-limits';
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
    const other = createApp({ config: ctx.config, services: makeServices(ctx.deps), contract: ctx.contract });
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

describe('leases: how many hits a busy key counts at once', () => {
  const lease = (size: number, last: number, takenAt: number) => ({ next: last + 1, last, size, takenAt });

  test('when a key has no lease yet in the window, or its limiter has no number for a limit, then one hit at a time', () => {
    expect(leaseSize(undefined, 1_000, 100_000)).toBe(1);
    expect(leaseSize(lease(50, 50, 999), 1_000, undefined)).toBe(1);
  });

  test(`when its last lease went fast, then as many as came in ${LEASE_SPAN_MS} ms at that pace, at most ${MAX_LEASE} and 1/${LEASE_SHARE} of what is left of the limit`, () => {
    // 10 hits in 5 ms: 200 in 100 ms.
    expect(leaseSize(lease(10, 10, 1_000), 1_005, 100_000)).toBe(200);
    expect(leaseSize(lease(400, 400, 1_000), 1_001, 10_000_000)).toBe(MAX_LEASE);
    // 3,000 - 2,840 = 160 left: 10.
    expect(leaseSize(lease(10, 2_840, 1_000), 1_005, 3_000)).toBe(10);
  });

  test('when its last lease went slowly, when the key is near its limit or past it, or the limit is small, then one hit at a time', () => {
    expect(leaseSize(lease(1, 1, 1_000), 1_500, 100_000)).toBe(1);
    expect(leaseSize(lease(10, 2_990, 1_000), 1_001, 3_000)).toBe(1);
    expect(leaseSize(lease(10, 3_100, 1_000), 1_001, 3_000)).toBe(1);
    expect(leaseSize(lease(1, 1, 1_000), 1_000, 20)).toBe(1);
  });
});

describe('the leases a process keeps (counters in memory)', () => {
  /** Counters that count in a map and record each write: key and hits. */
  function countersInMemory() {
    const counts = new Map<string, number>();
    const writes: [string, number][] = [];
    const counters = {
      async hit(key: string, _window: number, count = 1) {
        writes.push([key, count]);
        counts.set(key, (counts.get(key) ?? 0) + count);
        return counts.get(key)!;
      },
      deleteBefore: async () => 0,
    } as unknown as RateLimitRepository;
    return { counters, writes };
  }

  test(`when ${MAX_LEASED_KEYS.toLocaleString('en')} keys already hold leases in the window, then a new key is counted one write a hit while the keys held keep theirs`, async () => {
    const { counters, writes } = countersInMemory();
    const clock = fixedClock('2026-11-20T22:00:00.000Z');
    const shared = makeSharedCounters({ counters, clock, logger: makeLogger('silent'), store: 'database' });
    const limit = 1_000_000;
    for (let i = 0; i < MAX_LEASED_KEYS; i++) await shared.hit(`crowd-${i}`, limit);
    // A key held before the bound was reached: its second lease covers the next hits.
    await shared.hit('crowd-0', limit);
    writes.length = 0;
    for (let i = 0; i < 5; i++) await shared.hit('crowd-0', limit);
    expect(writes).toEqual([]);
    // A key that came after: each hit its own write, and still counted in order.
    const late = [];
    for (let i = 0; i < 5; i++) late.push((await shared.hit('late', limit)).totalHits);
    expect(late).toEqual([1, 2, 3, 4, 5]);
    expect(writes).toEqual(Array(5).fill(['late', 1]));
    // The next window starts with no key held.
    clock.advance(60_000);
    await shared.hit('late', limit);
    writes.length = 0;
    await shared.hit('late', limit);
    expect(writes).toEqual([['late', LEASE_SPAN_MS]]);
  });
  test(`when a store without a limit has counted ${MAX_LEASED_KEYS.toLocaleString('en')} keys, then it kept none of them: one write a hit each, and a limited key still takes leases`, async () => {
    const { counters, writes } = countersInMemory();
    const clock = fixedClock('2026-11-20T23:00:00.000Z');
    const shared = makeSharedCounters({ counters, clock, logger: makeLogger('silent'), store: 'database' });
    for (let i = 0; i < MAX_LEASED_KEYS; i++) await shared.hit(`failure-${i}`, undefined);
    writes.length = 0;
    for (let i = 0; i < 3; i++) await shared.hit('failure-0', undefined);
    expect(writes).toEqual(Array(3).fill(['failure-0', 1]));
    // Were those keys kept, the bound would be reached and this key counted a write a hit.
    writes.length = 0;
    await shared.hit('busy', 1_000_000);
    await shared.hit('busy', 1_000_000);
    expect(writes).toEqual([
      ['busy', 1],
      ['busy', LEASE_SPAN_MS],
    ]);
  });
});

describe('a busy key on the database', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext({ rateLimitPerMinute: 64 });
  });
  afterAll(() => ctx.close());

  const windowCount = async (at: string) =>
    Number(
      (
        await ctx.testDb
          .db('rate_limits')
          .where({ window_start: Date.parse(at) })
          .sum<{ n: number | string }[]>({ n: 'hits' })
      )[0]?.n ?? 0,
    );

  test('when 100 requests of one key come at once through two apps on one database (limit 64), then at most 64 are served and at most two leases short of it, in fewer writes than requests; past the limit a refused request writes nothing', async () => {
    ctx.clock.set('2026-11-20T20:00:05.000Z');
    const other = createApp({ config: ctx.config, services: makeServices(ctx.deps), contract: ctx.contract });
    const apps = [ctx.app, other];
    let statuses: number[] = [];
    const statements = await rateLimitStatements(ctx, async () => {
      statuses = await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          const res = await request(apps[i % 2]!)
            .get(`/session/${randomUUID()}`)
            .set('x-api-key', ctx.project.api_key);
          return res.status;
        }),
      );
    });
    // Reads are left out: until the first answer caches the key, each request also reads its
    // address's failed-authentication count (a select), as many as came before that answer.
    const writes = statements.filter((sql) => !/^select /i.test(sql));
    const served = statuses.filter((s) => s === 400).length;
    expect(statuses.filter((s) => s !== 400 && s !== 429)).toEqual([]);
    // Never more than the limit; short of it by at most what each app's last lease held (1/16 of 64 each).
    expect(served).toBeLessThanOrEqual(64);
    expect(served).toBeGreaterThanOrEqual(64 - 2 * (64 / LEASE_SHARE));
    expect(writes.length).toBeLessThan(100);
    // The window's count holds every hit a lease took: each request served, and no more than were made.
    const counted = await windowCount('2026-11-20T20:00:00.000Z');
    expect(counted).toBeGreaterThanOrEqual(served);
    expect(counted).toBeLessThanOrEqual(100);
    // Both apps now know the key is past its limit: another refused request writes nothing.
    for (const app of apps) {
      const refused = await rateLimitStatements(ctx, async () =>
        expect((await request(app).get(`/session/${randomUUID()}`).set('x-api-key', ctx.project.api_key)).status).toBe(
          429,
        ),
      );
      expect(refused).toEqual([]);
    }
    // The next window starts again at one hit.
    ctx.clock.set('2026-11-20T20:01:00.000Z');
    expect((await get(ctx)).status).toBe(400);
    expect(await windowCount('2026-11-20T20:01:00.000Z')).toBe(1);
  });

  test('when one app serves a key 60 times in a row (limit 100,000), then it writes the count twice, not 60 times, and the count covers every request', async () => {
    const busy = await makeTestContext({ rateLimitPerMinute: 100_000 });
    try {
      busy.clock.set('2026-11-20T21:00:00.000Z');
      const writes = await statementsDuring(busy.testDb.db, async () => {
        for (let i = 0; i < 60; i++) expect((await get(busy)).status).toBe(400);
      });
      const upserts = writes.filter((s) => /^insert into .?rate_limits/i.test(s.sql));
      // The first hit alone; then, the hits coming fast (the injected clock stands still), a lease
      // of what LEASE_SPAN_MS would bring at that pace, which covers the rest.
      expect(upserts.map((s) => s.bindings.at(-1))).toEqual([1, LEASE_SPAN_MS]);
      const [sum] = await busy.testDb.db('rate_limits').sum<{ n: number | string }[]>({ n: 'hits' });
      expect(Number(sum?.n)).toBeGreaterThanOrEqual(60);
    } finally {
      await busy.close();
    }
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
    const other = createApp({ config: ctx.config, services: makeServices(ctx.deps), contract: ctx.contract });
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
