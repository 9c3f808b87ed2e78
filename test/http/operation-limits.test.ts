/**
 * Every operation of the contract under a limit, by construction (src/http/operation-limits.ts):
 * this walks openapi.yaml's operations (method and path), so an operation added to the contract
 * is checked here without anyone listing it. Past a limit of one request a minute, each answers
 * 429 in the error shape, and each that takes an API key answers 429 to an unknown key once its
 * address has failed; the ones that take no key are listed below, each with the limit it has
 * instead or the reason it has none. Limits of one: one request per operation, no flood.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { makeTestContext, type TestContext } from '../helpers/app';
import { loadSpec } from '../helpers/spec';

/** Operations without a key that have limits of their own: what their 429 says. */
const OWN_LIMITS: Record<string, { reason: string; message: RegExp }> = {
  createIngestChallenge: {
    reason: "the SDK's posts: per address and per project (INGEST_RATE_LIMIT_PER_IP, …_PER_PROJECT)",
    message: /^Too many session posts for this address; retry after 60 seconds$/,
  },
  ingestSession: {
    reason: "the SDK's posts: per address and per project (INGEST_RATE_LIMIT_PER_IP, …_PER_PROJECT)",
    message: /^Too many session posts for this address; retry after 60 seconds$/,
  },
  redirectToVerification: {
    reason: 'the public link: per address and per project (PUBLIC_REDIRECT_RATE_LIMIT_PER_IP, …_PER_PROJECT)',
    message: /^Too many verification sessions started from the public link for this address; retry after 60 seconds$/,
  },
};

/** Operations under no limit, and why. */
const EXEMPT: Record<string, string> = {
  getHealth: 'the liveness probe: it must answer however busy the service is',
  getReadiness: 'the readiness probe: likewise',
  getMetrics: 'the scrape: METRICS_TOKEN guards it, and the public proxy refuses the path',
};

interface Operation {
  operationId: string;
  method: 'get' | 'put' | 'post' | 'delete' | 'patch';
  path: string;
  takesKey: boolean;
  statuses: string[];
}

type SecurityRequirement = Record<string, string[]>;

async function contractOperations(): Promise<Operation[]> {
  const spec = (await loadSpec()) as unknown as {
    security: SecurityRequirement[];
    paths: Record<
      string,
      Record<string, { operationId?: string; security?: SecurityRequirement[]; responses: object }>
    >;
  };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const op = item[method];
      if (!op?.operationId) continue;
      const security = op.security ?? spec.security;
      operations.push({
        operationId: op.operationId,
        method,
        path,
        takesKey: security.some((requirement) => 'ApiKeyAuth' in requirement),
        statuses: Object.keys(op.responses),
      });
    }
  }
  return operations;
}

/** A request to the operation: its path parameters filled (the limits answer before they are read). */
const call = (ctx: TestContext, op: Operation) =>
  request(ctx.app)
    [op.method](op.path.replace(/\{[^}]+\}/g, randomUUID()))
    .set('x-project-id', ctx.project.project_id);

/** A key no project has, shaped like a real one. */
const randomKey = () => `tg_${randomBytes(24).toString('base64url')}`;

/** What an operation answered, when it was not the expected 429. */
const unlike = (op: Operation, res: request.Response) => `${op.operationId}: ${res.status} ${JSON.stringify(res.body)}`;

describe('every operation of the contract', () => {
  let ctx: TestContext;
  let operations: Operation[];
  const keyed = () => operations.filter((op) => !(op.operationId in OWN_LIMITS) && !(op.operationId in EXEMPT));
  beforeAll(async () => {
    ctx = await makeTestContext({
      rateLimitPerMinute: 1,
      bulkRateLimitPerMinute: 1,
      authFailureLimitPerIp: 1,
      ingestRateLimitPerIp: 1,
      publicRedirectRateLimitPerIp: 1,
    });
    operations = await contractOperations();
  });
  afterAll(() => ctx.close());

  test('when the lists of exceptions are read, then each names an operation of the contract, and every other operation takes a key or the console cookie', () => {
    const ids = operations.map((op) => op.operationId);
    expect(ids.length).toBeGreaterThan(50);
    for (const id of [...Object.keys(OWN_LIMITS), ...Object.keys(EXEMPT)]) expect(ids).toContain(id);
    // The hosted page's calls and the console's sign-in take neither: they are limited per address as the API is.
    expect(keyed().length).toBe(ids.length - 6);
  });

  test('when a key has made its one request of the minute, then every operation but the exempt and self-limited ones answers 429 in the error shape, and declares 429', async () => {
    ctx.clock.set('2026-11-20T13:00:30.000Z');
    expect((await request(ctx.app).get('/project').set('x-api-key', ctx.project.api_key)).status).toBe(200);
    const notLimited: string[] = [];
    for (const op of keyed()) {
      const res = await call(ctx, op).set('x-api-key', ctx.project.api_key);
      const expected = {
        statusCode: 429,
        message: 'Too many requests for this API key (limit 1 per minute); retry after 30 seconds',
      };
      if (
        res.status !== 429 ||
        JSON.stringify(res.body) !== JSON.stringify(expected) ||
        res.headers['retry-after'] !== '30'
      )
        notLimited.push(unlike(op, res));
      if (!op.statuses.includes('429')) notLimited.push(`${op.operationId}: 429 not declared in openapi.yaml`);
    }
    expect(notLimited).toEqual([]);
  });

  test('when an address has failed authentication once (limit 1), then every operation that takes a key answers 429 to an unknown key', async () => {
    ctx.clock.set('2026-11-20T14:00:00.000Z');
    expect((await request(ctx.app).get('/project').set('x-api-key', randomKey())).status).toBe(401);
    const notGuarded: string[] = [];
    const withKeys = operations.filter((op) => op.takesKey);
    expect(withKeys.length).toBeGreaterThan(30);
    for (const op of withKeys) {
      // A fresh key each time: its own per-key bucket is empty, so only the guard can refuse it.
      const res = await call(ctx, op).set('x-api-key', randomKey());
      const message = 'Too many failed authentications from this address (limit 1 per minute); retry after 60 seconds';
      if (res.status !== 429 || JSON.stringify(res.body) !== JSON.stringify({ statusCode: 429, message }))
        notGuarded.push(unlike(op, res));
    }
    expect(notGuarded).toEqual([]);
  });

  test("when an address has made its one SDK post and its one visit of the public link, then those answer 429 by their own limits; the probes and the scrape answer whatever the limits' counts", async () => {
    ctx.clock.set('2026-11-20T15:00:00.000Z');
    const notLimited: string[] = [];
    for (const op of operations.filter((o) => o.operationId in OWN_LIMITS)) {
      await call(ctx, op);
      const res = await call(ctx, op);
      if (res.status !== 429 || !OWN_LIMITS[op.operationId]!.message.test(String(res.body.message)))
        notLimited.push(unlike(op, res));
      if (!op.statuses.includes('429')) notLimited.push(`${op.operationId}: 429 not declared in openapi.yaml`);
    }
    expect(notLimited).toEqual([]);
    for (const op of operations.filter((o) => o.operationId in EXEMPT)) {
      for (const apiKey of [ctx.project.api_key, randomKey(), randomKey()]) {
        const res = await call(ctx, op).set('x-api-key', apiKey);
        expect([op.operationId, res.status]).not.toEqual([op.operationId, 429]);
      }
    }
  });
});

describe('exports and webhook replays (BULK_RATE_LIMIT_PER_MINUTE)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext({ bulkRateLimitPerMinute: 1 });
  });
  afterAll(() => ctx.close());

  test("when a key has made one export, then the other export and a webhook replay answer 429 naming that limit, and the key's other operations are served", async () => {
    ctx.clock.set('2026-11-20T16:00:45.000Z');
    const as = (req: request.Test) => req.set('x-api-key', ctx.project.api_key);
    expect((await as(request(ctx.app).get('/accounts/export').query({ format: 'ndjson' }))).status).toBe(200);
    const message =
      'Too many exports and webhook replays for this API key (limit 1 per minute); retry after 15 seconds';
    for (const res of [
      await as(request(ctx.app).get('/sessions/export').query({ format: 'ndjson' })),
      await as(request(ctx.app).post(`/webhooks/deliveries/${randomUUID()}/replay`)),
    ]) {
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ statusCode: 429, message });
      expect(res.headers['retry-after']).toBe('15');
    }
    expect((await as(request(ctx.app).get('/accounts'))).status).toBe(200);
    expect((await as(request(ctx.app).get('/webhooks/deliveries'))).status).toBe(200);
  });

  test('when an analyst signed in to the console has replayed one webhook, then the next replay from that address answers 429 naming that limit', async () => {
    ctx.clock.set('2026-11-20T17:00:00.000Z');
    const email = `analyst-${randomUUID()}@example.com`;
    const password = 'correct horse battery staple';
    await ctx.services.operators.add({ projectId: ctx.project.project_id, email, role: 'analyst', password });
    const login = await request(ctx.app).post('/console/login').send({ email, password });
    expect(login.status).toBe(200);
    const cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
    const replay = () =>
      request(ctx.app)
        .post(`/webhooks/deliveries/${randomUUID()}/replay`)
        .set('cookie', cookie)
        .set('x-csrf-token', (login.body as { csrf_token: string }).csrf_token);
    expect((await replay()).status).toBe(404);
    const limited = await replay();
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(
      /^Too many exports and webhook replays for this address \(limit 1 per minute\)/,
    );
  });
});
