/**
 * Tracing through the real app and a real database, exported over OTLP/HTTP to a collector in
 * this process (a loopback HTTP server that keeps what it receives): one authenticate with an
 * inbound W3C traceparent gives a server span in that trace, under the inbound parent, with the
 * evaluation's stages under it and the database statements under those, without bound values.
 * And the request id: an inbound well-formed `x-request-id` is kept, any other replaced, and
 * every answer carries it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { TracingConfig } from '../../src/config';
import { dialectOf } from '../../src/storage/db';
import { makeTracing, type Tracing } from '../../src/telemetry/tracing';
import { makeTestContext, type TestContext } from '../helpers/app';
import { storeSession } from '../helpers/sessions';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: Record<string, unknown> }[];
}

interface Collector {
  endpoint: string;
  /** Each export's body as received, and its headers. */
  exports: { headers: http.IncomingHttpHeaders; body: string }[];
  spans(): OtlpSpan[];
  close(): Promise<void>;
}

/** An OTLP/HTTP receiver on loopback: POST /v1/traces, JSON bodies kept. */
async function otlpCollector(): Promise<Collector> {
  const exports: Collector['exports'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        exports.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    exports,
    spans: () =>
      exports.flatMap((e) => {
        const body = JSON.parse(e.body) as {
          resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
        };
        return body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
      }),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value && Object.values(value)[0];
};

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const ACCOUNT_ID = 'traced-account-7f3a';

describe('tracing one authenticate (authenticateSession)', () => {
  let collector: Collector;
  let tracing: Tracing;
  let ctx: TestContext;

  beforeAll(async () => {
    collector = await otlpCollector();
    const config: TracingConfig = {
      exporter: 'otlp',
      endpoint: collector.endpoint,
      headers: { 'x-collector-token': 'collector-secret' },
      serviceName: 'trustgate-test',
      resourceAttributes: { 'deployment.environment': 'test' },
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
    };
    tracing = makeTracing(config);
    ctx = await makeTestContext({}, { tracing });
  });
  afterAll(async () => {
    await ctx.close();
    await collector.close();
  });

  it('when the request has a traceparent, then its spans are exported in that trace: request → stages → statements', async () => {
    const { id } = await storeSession(ctx.services, ctx.project.project_id);
    const res = await request(ctx.app)
      .post('/session/authenticate')
      .set('x-api-key', ctx.project.api_key)
      .set('traceparent', `00-${TRACE_ID}-${PARENT_ID}-01`)
      .set('x-request-id', 'trace-request-0001')
      .send({ session_id: id, account: { id: ACCOUNT_ID, email: 'ada@example.com' } });
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('trace-request-0001');
    expect(res.body.request_id).toBe('trace-request-0001');
    // Shutting down exports what is pending.
    await tracing.shutdown();

    expect(collector.exports.length).toBeGreaterThan(0);
    expect(collector.exports[0]!.headers['x-collector-token']).toBe('collector-secret');
    const resource = JSON.parse(collector.exports[0]!.body).resourceSpans[0].resource.attributes as {
      key: string;
      value: { stringValue?: string };
    }[];
    expect(resource.find((a) => a.key === 'service.name')?.value.stringValue).toBe('trustgate-test');

    const spans = collector.spans().filter((s) => s.traceId === TRACE_ID);
    const server = spans.find((s) => s.name === 'authenticateSession');
    expect(server).toBeDefined();
    expect(server!.parentSpanId).toBe(PARENT_ID);
    expect(server!.kind).toBe(2); // SERVER
    expect(attribute(server!, 'http.request.method')).toBe('POST');
    expect(attribute(server!, 'http.route')).toBe('/session/authenticate');
    expect(Number(attribute(server!, 'http.response.status_code'))).toBe(200);
    expect(attribute(server!, 'trustgate.request_id')).toBe('trace-request-0001');

    const stages = spans.filter((s) => s.parentSpanId === server!.spanId && s.name.startsWith('evaluation.'));
    expect(stages.map((s) => s.name).sort()).toEqual([
      'evaluation.evaluate',
      'evaluation.gather',
      'evaluation.persist',
    ]);
    const gather = stages.find((s) => s.name === 'evaluation.gather')!;
    const persist = stages.find((s) => s.name === 'evaluation.persist')!;
    const statementsUnder = (parent: OtlpSpan) =>
      spans.filter((s) => s.parentSpanId === parent.spanId && s.name.startsWith('db '));
    expect(statementsUnder(gather).length).toBeGreaterThan(0);
    expect(statementsUnder(persist).length).toBeGreaterThan(0);
    for (const s of [...statementsUnder(gather), ...statementsUnder(persist)]) {
      expect(typeof attribute(s, 'db.query.text')).toBe('string');
      expect(['sqlite', 'postgresql']).toContain(attribute(s, 'db.system.name'));
    }
    // On SQLite the evaluation's reads run on the SQLite thread (storage/sqlite-thread.ts): their spans come from its timed statements.
    if (dialectOf(ctx.testDb.db) === 'sqlite') {
      expect(statementsUnder(gather).some((s) => attribute(s, 'trustgate.db.thread') === 'sqlite')).toBe(true);
    }
    // Never a bound value: not the account id, the email or the session id, in any span.
    const exported = collector.exports.map((e) => e.body).join('\n');
    expect(exported).not.toContain(ACCOUNT_ID);
    expect(exported).not.toContain('ada@example.com');
    expect(exported).not.toContain(id);
  });
});

describe('x-request-id', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext();
  });
  afterAll(() => ctx.close());

  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it('when a well-formed x-request-id comes in, then every answer carries it: a success, an error, a 404', async () => {
    const ok = await request(ctx.app).get('/healthz').set('x-request-id', 'a1b2c3d4e5f60718293a4b5c6d7e8f90');
    expect(ok.status).toBe(200);
    expect(ok.headers['x-request-id']).toBe('a1b2c3d4e5f60718293a4b5c6d7e8f90');
    const unauthorized = await request(ctx.app).get('/list').set('x-request-id', 'req_01HZX3.retry-2');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['x-request-id']).toBe('req_01HZX3.retry-2');
    const missing = await request(ctx.app).get('/no/such/route').set('x-request-id', 'abcdefgh');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-request-id']).toBe('abcdefgh');
  });

  it('when the inbound x-request-id is malformed (short, long, other characters), then an id of our own replaces it', async () => {
    for (const inbound of ['short', 'x'.repeat(65), 'has space 123', '-leading-dash', 'semi;colon1', 'per%cent-123']) {
      const res = await request(ctx.app).get('/healthz').set('x-request-id', inbound);
      expect([inbound, res.headers['x-request-id']]).toEqual([inbound, expect.stringMatching(UUID)]);
    }
  });

  it('when no x-request-id comes in, then each answer has an id of its own', async () => {
    const a = await request(ctx.app).get('/healthz');
    const b = await request(ctx.app).get('/healthz');
    expect(a.headers['x-request-id']).toMatch(UUID);
    expect(b.headers['x-request-id']).toMatch(UUID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});
