/**
 * GET /metrics through the real app and a real database, read with a Prometheus text-format
 * parser: every family is there, and each moves as requests are made (evaluations, a
 * verification with its analysis and webhook); METRICS_TOKEN guards it; METRICS off, it is a 404.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { Health } from '../../src/api-types';
import { operationIds } from '../../src/spec';
import { makeMetrics, MAX_CONDITIONS } from '../../src/telemetry/metrics';
import { makeTestContext, type TestContext } from '../helpers/app';
import { fakeAnalysisEngine, fakeImage } from '../helpers/fake-analysis';
import { hasSample, parseMetrics, seriesValue, valueOf, type Scrape } from '../helpers/prometheus';
import { storeSession } from '../helpers/sessions';
import { verificationContext } from '../helpers/verification';

/** Every family GET /metrics has, Trustgate's and Node's event-loop delay. */
const FAMILIES = [
  'trustgate_http_request_duration_seconds',
  'trustgate_evaluations_total',
  'trustgate_signals_raised_total',
  'trustgate_conditions_raised_total',
  'trustgate_score',
  'trustgate_webhook_outbox_depth',
  'trustgate_webhook_deliveries_total',
  'trustgate_webhook_delivery_attempts',
  'trustgate_webhook_delivery_seconds',
  'trustgate_analysis_duration_seconds',
  'trustgate_ip_data_age_seconds',
  'trustgate_ip_list_age_seconds',
  'trustgate_ip_list_entries',
  'trustgate_data_file_info',
  'trustgate_data_file_differing_nodes',
  'trustgate_db_pool_connections',
  'nodejs_eventloop_lag_seconds',
  'nodejs_eventloop_lag_p99_seconds',
];

let setup: Awaited<ReturnType<typeof verificationContext>>;
let ctx: TestContext;
const key = () => ctx.project.api_key;

beforeAll(async () => {
  setup = await verificationContext(
    { trustProxy: true, demo: false },
    { analysis: fakeAnalysisEngine, media: true, metrics: makeMetrics({ operations: operationIds() }) },
  );
  ctx = setup.ctx;
});
afterAll(() => setup.close());

async function scrape(): Promise<Scrape> {
  const res = await request(ctx.app).get('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(res.text);
}

describe('GET /metrics (getMetrics)', () => {
  it('when scraped, then every family is there in the Prometheus text format', async () => {
    const families = await scrape();
    for (const name of FAMILIES) expect([name, families.families.has(name)]).toEqual([name, true]);
    expect(families.families.get('trustgate_http_request_duration_seconds')!.type).toBe('HISTOGRAM');
    expect(families.families.get('trustgate_evaluations_total')!.type).toBe('COUNTER');
    expect(families.families.get('trustgate_webhook_outbox_depth')!.type).toBe('GAUGE');
    // The shipped IP databases have build dates; the pool has its one SQLite connection or PostgreSQL's.
    expect(valueOf(families, 'trustgate_ip_data_age_seconds', { database: 'city' })).toBeGreaterThan(0);
    // Each IP data file's digest, as /healthz gives it; one node: none differs.
    const city = ((await request(ctx.app).get('/healthz')).body as Health).data!.files[0]!;
    expect(valueOf(families, 'trustgate_data_file_info', { file: 'city', sha256: city.sha256 })).toBe(1);
    expect(valueOf(families, 'trustgate_data_file_differing_nodes', { file: 'city' })).toBe(0);
    expect(hasSample(families, 'trustgate_db_pool_connections', { state: 'used' })).toBe(true);
    // The contract's operations are there before any request (their children are made ahead).
    expect(hasSample(families, 'trustgate_http_request_duration_seconds', { operation: 'authenticateSession' })).toBe(
      true,
    );
  });

  it('when sessions are evaluated, then the requests, evaluations, scores, signals and conditions move', async () => {
    const before = await scrape();
    const { id, facts } = await storeSession(ctx.services, ctx.project.project_id);
    // The session's address on the operator's Tor list: the tor signal and its condition are raised.
    fs.writeFileSync(path.join(ctx.ipListsDir, 'tor.txt'), `${facts.network.ip_address}\n`);
    for (let i = 0; i < 200 && ctx.ipLists.lookup(facts.network.ip_address).length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const auth = await request(ctx.app)
      .post('/session/authenticate')
      .set('x-api-key', key())
      .send({ session_id: id, account: { id: 'metrics-1' } });
    expect(auth.status).toBe(200);
    expect(auth.body.session.risk_signals.tor).toBe(true);
    const unauth = await request(ctx.app)
      .post('/session/unauthenticated')
      .set('x-api-key', key())
      .send({ session_id: id });
    expect(unauth.status).toBe(200);
    expect((await request(ctx.app).get(`/session/${id}`).set('x-api-key', key())).status).toBe(200);
    expect((await request(ctx.app).get('/no/such/route')).status).toBe(404);

    const after = await scrape();
    const moved = (family: string, labels: Record<string, string>) =>
      valueOf(after, family, labels) - valueOf(before, family, labels);
    const http = 'trustgate_http_request_duration_seconds';
    expect(moved(http, { operation: 'authenticateSession', status: '200' })).toBe(1);
    expect(moved(http, { operation: 'evaluateUnauthenticatedSession', status: '200' })).toBe(1);
    expect(moved(http, { operation: 'getSession', status: '200' })).toBe(1);
    expect(moved(http, { operation: 'unknown', status: '404' })).toBe(1);
    const decision = auth.body.decision as string;
    expect(moved('trustgate_evaluations_total', { kind: 'authenticate', decision })).toBe(1);
    expect(moved('trustgate_evaluations_total', { kind: 'unauthenticated', decision: unauth.body.decision })).toBe(1);
    expect(moved('trustgate_evaluations_total', { kind: 'get', decision: 'none' })).toBe(1);
    expect(moved('trustgate_signals_raised_total', { kind: 'authenticate', signal: 'tor' })).toBe(1);
    expect(moved('trustgate_conditions_raised_total', { kind: 'authenticate', source: 'network' })).toBeGreaterThan(0);
    for (const score of ['account_score', 'bot', 'multiple_accounts', 'risk_signals']) {
      expect(moved('trustgate_score', { kind: 'authenticate', score })).toBe(1);
    }
    // The score histogram's sum is the score answered.
    const sum = (families: Scrape) =>
      seriesValue(families, 'trustgate_score_sum', { kind: 'authenticate', score: 'account_score' });
    expect(sum(after) - sum(before)).toBeCloseTo(auth.body.account_score, 2);
    expect(valueOf(after, 'trustgate_ip_list_entries', { list: 'tor' })).toBe(1);
  });

  it('when a verification completes and its webhook is delivered, then the analysis, the outbox and the deliveries move', async () => {
    const before = await scrape();
    const s = await setup.flow.create('face-match');
    const res = await setup.flow.complete(s, { selfie: fakeImage({ faces: [{ person: 'ada' }] }) });
    expect(res.body.status).toBe('success');
    const queued = await scrape();
    expect(valueOf(queued, 'trustgate_webhook_outbox_depth')).toBe(1);
    expect(
      valueOf(queued, 'trustgate_analysis_duration_seconds', { type: 'face-match', result: 'ok' }) -
        valueOf(before, 'trustgate_analysis_duration_seconds', { type: 'face-match', result: 'ok' }),
    ).toBe(1);

    expect(await setup.flow.delivered(s.id)).toHaveLength(1);
    const after = await scrape();
    expect(valueOf(after, 'trustgate_webhook_outbox_depth')).toBe(0);
    const moved = (family: string, labels: Record<string, string>) =>
      valueOf(after, family, labels) - valueOf(before, family, labels);
    expect(moved('trustgate_webhook_deliveries_total', { outcome: 'delivered' })).toBe(1);
    expect(moved('trustgate_webhook_delivery_seconds', { outcome: 'delivered' })).toBe(1);
    expect(moved('trustgate_webhook_delivery_attempts', { outcome: 'delivered' })).toBe(1);
    // Delivered at its first attempt: in the bucket le=1.
    const bucket = (le: string) =>
      seriesValue(after, 'trustgate_webhook_delivery_attempts_bucket', { outcome: 'delivered', le }) -
      seriesValue(before, 'trustgate_webhook_delivery_attempts_bucket', { outcome: 'delivered', le });
    expect(bucket('1')).toBe(1);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let guarded: TestContext;
  beforeAll(async () => {
    guarded = await makeTestContext({ metricsToken: 'scrape-token-0123456789' }, { metrics: makeMetrics() });
  });
  afterAll(() => guarded.close());

  it('when no Authorization header is sent, then 401 in the error shape', async () => {
    const res = await request(guarded.app).get('/metrics');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>' });
    expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
  });

  it('when the token is wrong, then 401', async () => {
    for (const header of ['Bearer scrape-token-012345678', 'Bearer scrape-token-0123456789x', 'Basic c2NyYXBl']) {
      const res = await request(guarded.app).get('/metrics').set('authorization', header);
      expect([header, res.status]).toEqual([header, 401]);
    }
  });

  it('when the token is right, then 200 with the metrics', async () => {
    const res = await request(guarded.app).get('/metrics').set('authorization', 'Bearer scrape-token-0123456789');
    expect(res.status).toBe(200);
    expect(parseMetrics(res.text).families.has('trustgate_evaluations_total')).toBe(true);
  });
});

describe('GET /metrics with METRICS off', () => {
  let off: TestContext;
  beforeAll(async () => {
    off = await makeTestContext();
  });
  afterAll(() => off.close());

  it('when metrics are off, then 404', async () => {
    const res = await request(off.app).get('/metrics');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: 'Route GET /metrics not found' });
  });
});

describe('conditions a client names', () => {
  it('when evaluations report more distinct conditions than MAX_CONDITIONS, then the rest are counted as other (the registry stays bounded)', async () => {
    const metrics = makeMetrics({ defaults: false });
    const signals = {
      device_risk: true,
      proxy: false,
      vpn: false,
      tor: false,
      spoofed_ip: false,
      datacenter: false,
      recent_fraud_ip: false,
      impossible_travel: false,
      device_network_mismatch: false,
      location_spoofing: false,
    };
    const names = Array.from({ length: MAX_CONDITIONS + 50 }, (_, i) => `made_up_${i}`);
    metrics.evaluations.evaluated('get', {
      risk_signals: signals,
      risk_signal_details: { network: [], device: [...names, 'Not A Code!'] },
    });
    const scraped = parseMetrics((await metrics.scrape()).body);
    const samples = scraped.series.get('trustgate_conditions_raised_total') ?? [];
    expect(samples.length).toBeLessThanOrEqual(MAX_CONDITIONS + 1);
    expect(valueOf(scraped, 'trustgate_conditions_raised_total', { kind: 'get', condition: 'made_up_0' })).toBe(1);
    expect(
      valueOf(scraped, 'trustgate_conditions_raised_total', { kind: 'get', source: 'device', condition: 'other' }),
    ).toBe(51);
  });
});
