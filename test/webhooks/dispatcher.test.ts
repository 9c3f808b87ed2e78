/**
 * The webhook dispatcher against a real HTTP receiver on loopback and a real database: retries
 * on the schedule with the same request_id and a fresh signature each time, leases, refusals.
 */
import { randomUUID } from 'node:crypto';
import { verifyWebhook } from '../../packages/client/src';
import { fixedClock } from '../../src/clock';
import { makeLogger } from '../../src/logger';
import type { RetryPolicy } from '../../src/webhooks/backoff';
import { makeDispatcher, type DispatcherDeps } from '../../src/webhooks/dispatcher';
import { makeOutbox } from '../../src/webhooks/outbox';
import { makeWebhookTransport } from '../../src/webhooks/transport';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { defined } from '../helpers/defined';
import { webhookReceiver } from '../helpers/receiver';
import { example } from '../helpers/spec';

const SECRET = 'whsec_test_secret';
const POLICY: RetryPolicy = {
  delaysMs: [2000, 2000, 2000],
  repeatMs: 2000,
  maxRetries: 5,
  maxAgeMs: 60_000,
  jitter: 0,
  retryAfterCapMs: 10_000,
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext();
});
afterAll(() => ctx.close());

async function queued(clock: ReturnType<typeof fixedClock>) {
  const outbox = makeOutbox(ctx.testDb.db, ctx.deps.secretBox);
  const envelope = await example<Record<string, unknown>>('FaceMatchCompletedError');
  const requestId = randomUUID();
  const body = JSON.stringify({ ...envelope, request_id: requestId, project_id: ctx.project.project_id });
  const sessionId = randomUUID();
  expect(
    await outbox.enqueue({
      requestId,
      projectId: ctx.project.project_id,
      sessionId,
      eventType: 'verification.face-match.completed',
      body,
      now: clock.now(),
    }),
  ).toBe(true);
  return { outbox, requestId, sessionId, body };
}

const loopback = makeWebhookTransport({ allowPrivate: true });
afterAll(() => loopback.close());

function dispatcher(clock: ReturnType<typeof fixedClock>, url: string, overrides: Partial<DispatcherDeps> = {}) {
  return makeDispatcher({
    outbox: makeOutbox(ctx.testDb.db, ctx.deps.secretBox),
    clock,
    random: () => 0.5,
    logger: makeLogger('silent'),
    post: loopback.post,
    target: async () => ({ url, secret: SECRET }),
    policy: POLICY,
    // Long enough for a loopback answer on a machine busy with other test files (400 ms was not,
    // at a load average of 7); only the one receiver that never answers waits it out.
    timeoutMs: 1500,
    ...overrides,
  });
}

describe('delivering a webhook', () => {
  test('when the receiver answers 500 twice, then times out, then 200, then it is delivered on the 4th attempt with the same request_id, each signed at its own time', async () => {
    const clock = fixedClock(TEST_NOW);
    const rx = await webhookReceiver([500, 500, 'hang', 200]);
    const { outbox, requestId, body } = await queued(clock);
    const d = dispatcher(clock, rx.url);
    try {
      for (let i = 0; i < 4; i++) {
        expect(await d.runOnce()).toBe(1);
        expect(await d.runOnce()).toBe(0); // the retry is not due yet
        clock.advance(2000);
      }
    } finally {
      await rx.close();
    }
    const row = (await outbox.find(requestId))!;
    expect(row.status).toBe('delivered');
    expect(row.attempts).toBe(4);
    const attempts = await outbox.attempts(requestId);
    expect(attempts.map((a) => a.statusCode)).toEqual([500, 500, undefined, 200]);
    expect(attempts[2]!.error).toMatch(/timed out/); // four, as the statuses say
    expect(rx.received).toHaveLength(4);
    const signatures = rx.received.map((r) => r.headers['x-signature']);
    expect(new Set(signatures).size).toBe(4);
    rx.received.forEach((r, i) => {
      expect(r.headers['x-event-id']).toBe(requestId);
      expect(r.headers['x-event-type']).toBe('verification.face-match.completed');
      expect(r.body).toBe(body);
      const at = new Date(new Date(TEST_NOW).getTime() + i * 2000);
      expect(verifyWebhook(r.body, r.headers, SECRET, { now: at, toleranceSeconds: 0 }).request_id).toBe(requestId);
    });
  });

  test('when the receiver answers 429 with Retry-After, then the next attempt waits that long', async () => {
    const clock = fixedClock(TEST_NOW);
    const rx = await webhookReceiver([429, 200]);
    const { outbox, requestId } = await queued(clock);
    const d = dispatcher(clock, rx.url);
    try {
      await d.runOnce();
      expect((await outbox.find(requestId))!.runAt.getTime()).toBe(new Date(TEST_NOW).getTime() + 7000);
      clock.advance(6999);
      expect(await d.runOnce()).toBe(0);
      clock.advance(1);
      expect(await d.runOnce()).toBe(1);
    } finally {
      await rx.close();
    }
    expect((await outbox.find(requestId))!.status).toBe('delivered');
  });

  test('when the schedule runs out, then the webhook is failed and kept with its attempts', async () => {
    const clock = fixedClock(TEST_NOW);
    const rx = await webhookReceiver(Array(10).fill(503));
    const { outbox, requestId } = await queued(clock);
    const d = dispatcher(clock, rx.url, { policy: { ...POLICY, maxRetries: 2 } });
    try {
      for (let i = 0; i < 5; i++) {
        await d.runOnce();
        clock.advance(2000);
      }
    } finally {
      await rx.close();
    }
    const row = (await outbox.find(requestId))!;
    expect(row.status).toBe('failed');
    expect(row.lastError).toMatch(/HTTP 503; no retries left/);
    expect(await outbox.attempts(requestId)).toHaveLength(3);
  });

  test('when the target resolves to a private address and that is not allowed, then it is refused without a request', async () => {
    const clock = fixedClock(TEST_NOW);
    const rx = await webhookReceiver([200]);
    const { outbox, requestId } = await queued(clock);
    const strict = makeWebhookTransport({
      allowPrivate: false,
      resolve: async () => [{ address: '10.0.0.8', family: 4 }],
    });
    const d = dispatcher(clock, rx.url.replace('127.0.0.1', 'hooks.example.com'), { post: strict.post });
    try {
      await d.runOnce();
    } finally {
      strict.close();
      await rx.close();
    }
    expect(rx.received).toHaveLength(0);
    const row = (await outbox.find(requestId))!;
    expect(row.status).toBe('failed');
    expect(row.lastError).toMatch(/resolves to 10\.0\.0\.8/);
  });

  test('when a dispatcher crashes holding a webhook, then another takes it over once the lease expires, with the same request_id', async () => {
    const clock = fixedClock(TEST_NOW);
    const rx = await webhookReceiver([200]);
    const { outbox, requestId } = await queued(clock);
    // The crashed one: claimed, never settled.
    expect(await outbox.claim('crashed-dispatcher', clock.now(), 60_000, 10)).toHaveLength(1);
    const d = dispatcher(clock, rx.url, { leaseMs: 60_000 });
    try {
      expect(await d.runOnce()).toBe(0);
      clock.advance(60_001);
      expect(await d.runOnce()).toBe(1);
    } finally {
      await rx.close();
    }
    expect(defined(rx.received[0]).headers['x-event-id']).toBe(requestId);
    const row = (await outbox.find(requestId))!;
    expect(row.status).toBe('delivered');
    expect(row.attempts).toBe(2);
    // The crashed holder cannot settle any more.
    expect(
      await outbox.settle('crashed-dispatcher', clock.now(), [{ requestId, outcome: { status: 'failed' } }]),
    ).toEqual(new Set());
  });

  test('when a session already has its webhook, then a second one is refused by the database', async () => {
    const clock = fixedClock(TEST_NOW);
    const { outbox, sessionId } = await queued(clock);
    const again = await outbox.enqueue({
      requestId: randomUUID(),
      projectId: ctx.project.project_id,
      sessionId,
      eventType: 'verification.face-match.completed',
      body: '{}',
      now: clock.now(),
    });
    expect(again).toBe(false);
    expect(
      Number(
        (await ctx.testDb.db('webhooks').where({ session_id: sessionId }).count<{ n: string }[]>({ n: '*' }).first())!
          .n,
      ),
    ).toBe(1);
  });
});
