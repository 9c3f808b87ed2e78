/**
 * The project's webhook deliveries through HTTP with a real database and a real HTTP receiver
 * on loopback: list events queued by the List API, delivered by the dispatcher, then read with
 * listWebhookDeliveries (newest first, keyset pages, filters by event, status and time),
 * getWebhookDelivery (the event, each attempt's time, HTTP status, latency and the first 512
 * bytes of the answer) and replayed with replayWebhookDelivery (the same x-event-id sent again:
 * the receiver's de-duplication key). Another project's delivery is a 404 and is not touched;
 * a viewer reads but cannot replay (403); bad filters are a 400 naming the field, nothing
 * written. Response validation is on: every answer is checked against openapi.yaml.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type {
  AuditEvents,
  ConsoleSession,
  OperatorRole,
  WebhookDeliveries,
  WebhookDeliveryDetail,
  WebhookDeliveryReplayed,
} from '../../src/api-types';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { makeChangeProbe, type ChangeProbe } from '../helpers/db-changes';
import { LONDON_IP, scenario } from '../helpers/evaluation';
import { deliverDue } from '../helpers/verification';

const PASSWORD = 'correct horse battery staple';

/** A receiver on loopback: each request of an event gets its next planned [status, answer body], else [200, 'ok']. */
async function receiver() {
  const plans = new Map<string, [number, string][]>();
  const received: { eventId: string; eventType: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        eventId: String(req.headers['x-event-id']),
        eventType: String(req.headers['x-event-type']),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const [status, answer] = plans.get(String(req.headers['x-event-id']))?.shift() ?? [200, 'ok'];
      res.writeHead(status, { 'content-type': 'text/plain' }).end(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    /** The answers to the next requests of the event `eventId`. */
    plan: (eventId: string, answers: [number, string][]) => plans.set(eventId, answers),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

let ctx: TestContext;
let rx: Awaited<ReturnType<typeof receiver>>;
let probe: ChangeProbe;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback', rateLimitStore: 'memory' });
  rx = await receiver();
  probe = await makeChangeProbe(ctx.testDb);
});
afterAll(async () => {
  await probe.close();
  await rx.close();
  await ctx.close();
});
beforeEach(() => ctx.clock.set(TEST_NOW));

/** Runs the dispatcher over what is due (`maxRetries: 0`: a failed attempt fails the webhook). */
const deliver = (options: { maxRetries?: number } = {}) => deliverDue(ctx, options);

/** A project sent list events at the receiver; `list(op, list, id)` queues one through the List API. */
async function newProject() {
  const p = await ctx.services.projects.create({ name: `Deliveries ${randomUUID()}`, webhookUrl: rx.url });
  const key = p.api_key;
  const patched = await request(ctx.app)
    .patch('/project')
    .set('x-api-key', key)
    .send({ webhook_events: ['list.account_added', 'list.account_removed'] });
  expect(patched.status).toBe(200);
  const sc = scenario(ctx, key, p.project_id);
  const accounts = new Set<string>();
  const api = {
    projectId: p.project_id,
    key,
    /** Queues a list event: the account is made (signed in) first when it is new. */
    async list(op: 'add' | 'remove', list: string, id: string) {
      if (!accounts.has(id)) {
        await sc.signIn({ id }, {}, LONDON_IP);
        accounts.add(id);
      }
      const res = await (op === 'add' ? request(ctx.app).post : request(ctx.app).delete)(
        `/list/${list}/account/${id}`,
      ).set('x-api-key', key);
      expect(res.status).toBe(200);
    },
    deliveries: (query = '') => request(ctx.app).get(`/webhooks/deliveries${query}`).set('x-api-key', key),
    delivery: (id: string) => request(ctx.app).get(`/webhooks/deliveries/${id}`).set('x-api-key', key),
    replay: (id: string) => request(ctx.app).post(`/webhooks/deliveries/${id}/replay`).set('x-api-key', key),
    async all(query = ''): Promise<WebhookDeliveries['deliveries']> {
      const res = await api.deliveries(query);
      expect(res.status).toBe(200);
      return (res.body as WebhookDeliveries).deliveries;
    },
  };
  return api;
}

async function signIn(projectId: string, role: OperatorRole) {
  const email = `${role}-${randomUUID()}@example.com`;
  await ctx.services.operators.add({ projectId, email, role, password: PASSWORD });
  const res = await request(ctx.app)
    .post('/console/login')
    .set('x-forwarded-for', '90.1.2.3')
    .send({ email, password: PASSWORD });
  expect(res.status).toBe(200);
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
  return { cookie, csrf: (res.body as ConsoleSession).csrf_token };
}

describe('listWebhookDeliveries', () => {
  test('when a project has deliveries, then they are listed newest first, a page at a time, and filtered by event, status and time', async () => {
    const p = await newProject();
    const other = await newProject();
    // Five events a minute apart: added a1, a2, a3, removed a1, added a4.
    const steps: ['add' | 'remove', string][] = [
      ['add', 'a1'],
      ['add', 'a2'],
      ['add', 'a3'],
      ['remove', 'a1'],
      ['add', 'a4'],
    ];
    for (const [i, [op, id]] of steps.entries()) {
      ctx.clock.set(new Date(Date.parse(TEST_NOW) + i * 60_000));
      await p.list(op, 'block', id);
    }
    await other.list('add', 'block', 'elsewhere');
    const all = await p.all();
    ctx.clock.set(new Date(Date.parse(TEST_NOW) + 10 * 60_000));
    rx.plan(all[2]!.request_id, [[500, 'down']]); // fails (and is retried later)
    await deliver();

    expect(all).toHaveLength(5);
    expect(all.map((d) => d.created_at)).toEqual(
      [4, 3, 2, 1, 0].map((m) => new Date(Date.parse(TEST_NOW) + m * 60_000).toISOString()),
    );
    expect(all.map((d) => d.event_type)).toEqual([
      'list.account_added',
      'list.account_removed',
      'list.account_added',
      'list.account_added',
      'list.account_added',
    ]);
    const mine = new Set(all.map((d) => d.request_id));
    const theirs = (await other.all()).map((d) => d.request_id);
    expect(theirs).toHaveLength(1);
    expect(mine.has(theirs[0]!)).toBe(false);

    // Pages of two, each from the previous page's cursor, with a filter kept across pages.
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const res = await p.deliveries(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      const page = res.body as WebhookDeliveries;
      pages.push(page.deliveries.map((d) => d.request_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(pages.map((x) => x.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all.map((d) => d.request_id));

    const added = await p.all('?event_type=list.account_added&limit=2');
    expect(added.map((d) => d.request_id)).toEqual([all[0]!.request_id, all[2]!.request_id]);
    const removed = await p.all('?event_type=list.account_removed');
    expect(removed.map((d) => d.request_id)).toEqual([all[1]!.request_id]);

    const pending = await p.all('?status=pending');
    const delivered = await p.all('?status=delivered');
    expect(pending.map((d) => d.request_id)).toEqual([all[2]!.request_id]);
    expect(pending[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: 'HTTP 500' });
    expect(pending[0]!.next_attempt_at).not.toBeNull();
    expect(delivered).toHaveLength(4);
    expect(delivered.every((d) => d.delivered_at !== null && d.next_attempt_at === null)).toBe(true);

    const at = (m: number) => encodeURIComponent(new Date(Date.parse(TEST_NOW) + m * 60_000).toISOString());
    const window = `?from=${at(1)}&to=${at(3)}`;
    expect((await p.all(window)).map((d) => d.request_id)).toEqual([all[2]!.request_id, all[3]!.request_id]);
  });

  test.each([
    ['?status=lost', /status/],
    ['?event_type=session.created', /event_type/],
    ['?from=yesterday', /from/],
    [`?from=${encodeURIComponent(TEST_NOW)}&to=${encodeURIComponent(TEST_NOW)}`, /from must be before to/],
    ['?limit=0', /limit/],
    ['?limit=201', /limit/],
    ['?cursor=abc', /cursor/],
    ['?page=2', /page/],
  ])('when the query is %s, then a 400 naming the field, and nothing is written', async (query, message) => {
    const p = await newProject();
    const mark = await probe.mark();
    const res = await p.deliveries(query);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    await expect(probe.writesSince(mark)).resolves.toEqual([]);
  });
});

describe('getWebhookDelivery', () => {
  test('when a delivery was retried, then its event and each attempt (time, status, latency, the answer’s first 512 bytes) are answered', async () => {
    const p = await newProject();
    await p.list('add', 'block', 'retried');
    const [queued] = await p.all();
    rx.plan(queued!.request_id, [
      [503, 'busy, try later'],
      [200, 'x'.repeat(2000)],
    ]);
    await deliver();
    ctx.clock.set(new Date(Date.parse(TEST_NOW) + 60_000));
    await deliver();

    const res = await p.delivery(queued!.request_id);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { delivery } = res.body as WebhookDeliveryDetail;
    expect(delivery).toMatchObject({
      request_id: queued!.request_id,
      event_type: 'list.account_added',
      status: 'delivered',
      attempts: 2,
      last_error: null,
      next_attempt_at: null,
    });
    expect(delivery.event).toMatchObject({
      request_id: queued!.request_id,
      event_type: 'list.account_added',
      data: expect.objectContaining({ account_id: 'retried' }),
    });
    const sent = rx.received.filter((r) => r.eventId === queued!.request_id);
    expect(sent).toHaveLength(2);
    expect(JSON.parse(sent[0]!.body)).toEqual(delivery.event);
    expect(delivery.attempts_made).toEqual([
      {
        attempt: 1,
        at: TEST_NOW,
        status_code: 503,
        latency_ms: expect.any(Number),
        error: 'HTTP 503',
        answer: 'busy, try later',
      },
      {
        attempt: 2,
        at: new Date(Date.parse(TEST_NOW) + 60_000).toISOString(),
        status_code: 200,
        latency_ms: expect.any(Number),
        error: null,
        answer: 'x'.repeat(512),
      },
    ]);
  });

  test('when the account an event names is erased, then its id is in no event or kept answer, delivered or pending', async () => {
    const p = await newProject();
    const id = 'hooks.erasure.person@example.com';
    /** The delivery a call queued (the clock stands still: the list's order among them is the ids'). */
    const queuedBy = async (call: () => Promise<void>) => {
      const before = new Set((await p.all()).map((d) => d.request_id));
      await call();
      return (await p.all()).find((d) => !before.has(d.request_id))!;
    };
    const delivered = await queuedBy(() => p.list('add', 'block', id));
    const kept = await queuedBy(() => p.list('add', 'vip', 'hooks-kept-account'));
    rx.plan(delivered.request_id, [[200, `received ${id}, thanks`]]);
    await deliver();
    const pending = await queuedBy(() => p.list('add', 'vip', id));
    expect((await p.delivery(pending.request_id)).body.delivery.status).toBe('pending');

    const erased = await request(ctx.app).delete(`/account/${id}`).set('x-api-key', p.key);
    expect(erased.status).toBe(200);

    for (const queued of [delivered, pending]) {
      const res = await p.delivery(queued.request_id);
      expect(res.status).toBe(200);
      const { delivery } = res.body as WebhookDeliveryDetail;
      expect(delivery.event).toMatchObject({ data: expect.objectContaining({ account_id: '[erased]' }) });
      expect(JSON.stringify(res.body)).not.toContain(id);
    }
    const answered = (await p.delivery(delivered.request_id)).body as WebhookDeliveryDetail;
    expect(answered.delivery.attempts_made).toEqual([expect.objectContaining({ status_code: 200, answer: null })]);
    // Another account's event is untouched.
    const other = (await p.delivery(kept.request_id)).body as WebhookDeliveryDetail;
    expect(other.delivery.event).toMatchObject({ data: expect.objectContaining({ account_id: 'hooks-kept-account' }) });
    expect(other.delivery.attempts_made).toEqual([expect.objectContaining({ answer: 'ok' })]);
    // The pending one is sent redacted.
    await deliver();
    const sent = rx.received.filter((r) => r.eventId === pending.request_id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).not.toContain(id);
    expect(JSON.parse(sent[0]!.body)).toMatchObject({ data: { account_id: '[erased]', list_name: 'vip' } });
  });

  test('when the delivery is another project’s or unknown, then a 404; an id no request can have is a 400', async () => {
    const p = await newProject();
    const other = await newProject();
    await other.list('add', 'block', 'theirs');
    const [theirs] = await other.all();
    expect((await other.delivery(theirs!.request_id)).status).toBe(200);
    const res = await p.delivery(theirs!.request_id);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`Webhook ${theirs!.request_id} not found`);
    expect((await p.delivery(randomUUID())).status).toBe(404);
    expect((await p.delivery('no')).status).toBe(400);
  });
});

describe('replayWebhookDelivery', () => {
  test('when a failed delivery is replayed, then the same event (same x-event-id, same body) is sent again and its attempt is listed after the first', async () => {
    const p = await newProject();
    await p.list('add', 'block', 'replayed');
    const [queued] = await p.all();
    const id = queued!.request_id;
    rx.plan(id, [[500, 'down']]);
    await deliver({ maxRetries: 0 });
    expect((await p.all('?status=failed')).map((d) => d.request_id)).toEqual([id]);

    ctx.clock.set(new Date(Date.parse(TEST_NOW) + 3_600_000));
    const res = await p.replay(id);
    expect(res.status).toBe(200);
    expect((res.body as WebhookDeliveryReplayed).delivery).toMatchObject({
      request_id: id,
      status: 'pending',
      attempts: 1,
      next_attempt_at: ctx.clock.now().toISOString(),
    });
    await deliver({ maxRetries: 0 });
    const sent = rx.received.filter((r) => r.eventId === id);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    const { delivery } = (await p.delivery(id)).body as WebhookDeliveryDetail;
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts_made.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 200],
    ]);

    // Audited with who replayed it, the request, the delivery and its status before.
    const audit = await request(ctx.app).get('/audit').set('x-api-key', p.key);
    expect(audit.status).toBe(200);
    const replays = (audit.body as AuditEvents).events.filter((e) => e.action === 'webhook.replayed');
    expect(replays).toEqual([
      expect.objectContaining({
        actor: expect.stringMatching(/^api_key:[0-9a-f]{12}$/),
        request_id: (res.body as WebhookDeliveryReplayed).request_id,
        changes: [
          { field: 'webhook_request_id', before: id, after: id },
          { field: 'webhook_status', before: 'failed', after: 'pending' },
        ],
      }),
    ]);
    expect(replays[0]!.account_id).toBeUndefined();

    // A delivered one replayed is sent once more, with the same id: the receiver de-duplicates on it.
    expect((await p.replay(id)).status).toBe(200);
    await deliver();
    expect(rx.received.filter((r) => r.eventId === id)).toHaveLength(3);
  });

  test('when another project’s delivery is replayed, then a 404 and nothing is written or sent', async () => {
    const p = await newProject();
    const other = await newProject();
    await other.list('add', 'block', 'not-yours');
    await deliver();
    const [theirs] = await other.all();
    const mark = await probe.mark();
    const res = await p.replay(theirs!.request_id);
    expect(res.status).toBe(404);
    await expect(probe.writesSince(mark)).resolves.toEqual([]);
    await deliver();
    expect(rx.received.filter((r) => r.eventId === theirs!.request_id)).toHaveLength(1);
  });

  test('when a viewer replays, then a 403 (reading is allowed); an analyst may', async () => {
    const p = await newProject();
    await p.list('add', 'block', 'by-role');
    const [queued] = await p.all();
    const viewer = await signIn(p.projectId, 'viewer');
    const list = await request(ctx.app).get('/webhooks/deliveries').set('cookie', viewer.cookie);
    expect(list.status).toBe(200);
    const read = await request(ctx.app).get(`/webhooks/deliveries/${queued!.request_id}`).set('cookie', viewer.cookie);
    expect(read.status).toBe(200);
    const refused = await request(ctx.app)
      .post(`/webhooks/deliveries/${queued!.request_id}/replay`)
      .set('cookie', viewer.cookie)
      .set('x-csrf-token', viewer.csrf);
    expect(refused.status).toBe(403);
    const analyst = await signIn(p.projectId, 'analyst');
    const replayed = await request(ctx.app)
      .post(`/webhooks/deliveries/${queued!.request_id}/replay`)
      .set('cookie', analyst.cookie)
      .set('x-csrf-token', analyst.csrf);
    expect(replayed.status).toBe(200);
  });
});
