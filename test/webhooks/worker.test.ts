/**
 * The server's webhook worker, woken when a webhook is queued: its poll is set to 10 minutes,
 * so a delivery within the test's time can only come from the wake. A real database, the app
 * over HTTP, a real receiver on loopback, the worker as the server builds it.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import { DAY_MS } from '../../src/domain/numbers';
import { makeLogger } from '../../src/logger';
import { startWorker } from '../../src/composition/jobs';
import { makeTestContext, type TestContext } from '../helpers/app';
import { at } from '../helpers/defined';
import { webhookReceiver, type Received } from '../helpers/receiver';
import { storeSession } from '../helpers/sessions';
import { example } from '../helpers/spec';

const TEN_MINUTES = 600_000;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext();
});
afterAll(() => ctx.close());

const until = async (ok: () => boolean | Promise<boolean>) => {
  while (!(await ok())) await new Promise((r) => setTimeout(r, 20));
};

interface RunningWorker {
  /** The worker's log lines, debug included. */
  logs: Record<string, unknown>[];
  /** Resolves once the dispatcher has gone to sleep after log line `line` with no wake pending. */
  idleAfter(line: number): Promise<void>;
  /** What the project's webhooks were posted to while the worker ran, by envelope field. */
  received(field: 'session_id' | 'request_id', value: string): Received[];
}

/**
 * The worker as main.ts starts it (no PostgreSQL listener: only this process's wake may
 * explain a delivery) with a 10-minute poll, posting to a receiver of its own, asleep.
 */
async function runWorker(test: (worker: RunningWorker) => Promise<void>): Promise<void> {
  const rx = await webhookReceiver();
  await ctx.services.projects.setWebhook(ctx.project.project_id, rx.url);
  const logs: Record<string, unknown>[] = [];
  const logger = makeLogger('debug', {
    write: (line: string) => logs.push(JSON.parse(line)),
  } as pino.DestinationStream);
  const stop = new AbortController();
  const running = startWorker(
    { ...ctx.services.jobs, clock: ctx.clock, logger },
    { allowPrivate: true, pollMs: TEN_MINUTES },
    stop.signal,
  );
  const idleAfter = (line: number) => until(() => logs.slice(line).some((l) => l.msg === 'webhook dispatcher idle'));
  const received = (field: 'session_id' | 'request_id', value: string) =>
    rx.received.filter((r) => JSON.parse(r.body)[field] === value);
  try {
    await idleAfter(0);
    expect(logs.find((l) => l.msg === 'webhook dispatcher idle')).toMatchObject({ sleepMs: TEN_MINUTES });
    await test({ logs, idleAfter, received });
  } finally {
    stop.abort();
    await running;
    await rx.close();
  }
}

test('when a session ends while the dispatcher sleeps a 10-minute poll, then its webhook is delivered at once', async () => {
  await runWorker(async ({ received }) => {
    const created = await request(ctx.app)
      .post('/liveness/session')
      .set('x-api-key', ctx.project.api_key)
      .send({ type: 'face-match' });
    expect(created.status).toBe(200);
    const token = new URL(created.body.url).searchParams.get('token')!;
    const cancelled = await request(ctx.app).post(`/liveness/${created.body.session_id}/cancel`).query({ token });
    expect(cancelled.status).toBe(200);

    await until(() => received('session_id', created.body.session_id).length > 0);
    const webhook = at(received('session_id', created.body.session_id), 0);
    expect(JSON.parse(webhook.body)).toMatchObject({ status: 'error', error: { code: 'liveness_check_failed' } });
  });
});

test('when a transaction that queued a webhook rolls back, then nothing is sent; when one commits after an early wake, then the wake after its commit delivers it', async () => {
  const { db } = ctx.testDb;
  const { outbox } = ctx.services.repos;
  const wake = ctx.services.jobs.dispatch.wake;
  const envelope = await example<Record<string, unknown>>('FaceMatchCompletedError');
  const webhook = () => {
    const requestId = randomUUID();
    const body = JSON.stringify({ ...envelope, request_id: requestId, project_id: ctx.project.project_id });
    return {
      requestId,
      projectId: ctx.project.project_id,
      sessionId: randomUUID(),
      eventType: 'verification.face-match.completed',
      body,
      now: ctx.clock.now(),
    };
  };

  await runWorker(async ({ logs, idleAfter, received }) => {
    // Queued, woken inside the transaction, rolled back: the dispatcher wakes, finds nothing, sleeps again.
    const rolledBack = webhook();
    let line = logs.length;
    await expect(
      db.transaction(async (trx) => {
        expect(await outbox.enqueue(rolledBack, trx)).toBe(true);
        wake.wake();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await idleAfter(line);
    expect(await outbox.find(rolledBack.requestId)).toBeUndefined();

    // Queued and woken inside the transaction, committed, woken after the commit (as the use case does).
    const committed = webhook();
    line = logs.length;
    const trx = await db.transaction();
    expect(await outbox.enqueue(committed, trx)).toBe(true);
    wake.wake();
    // On PostgreSQL the early wake's claim runs now and cannot see the row; on SQLite it waits
    // for the one connection, which the transaction holds, so it runs after the commit.
    if (ctx.testDb.dialect === 'postgresql') await idleAfter(line);
    await trx.commit();
    wake.wake();

    await until(async () => (await outbox.find(committed.requestId))?.status === 'delivered');
    expect(received('request_id', committed.requestId)).toHaveLength(1);
    expect(received('request_id', rolledBack.requestId)).toEqual([]);
  });
});

test('when the worker starts, then it runs a retention pass: a session past its project period is removed, and the pass is logged with its counts', async () => {
  const old = await storeSession(ctx.services, ctx.project.project_id, {
    startTime: new Date(ctx.clock.now().getTime() - 100 * DAY_MS),
  });
  const recent = await storeSession(ctx.services, ctx.project.project_id, { startTime: ctx.clock.now() });
  await ctx.services.projects.update(ctx.project.project_id, { retentionSessionsDays: 30 }, 'cli');
  // The pass logs through the services' logger (the context's), after the earlier tests' workers' passes.
  const from = ctx.logs.length;
  const pass = () => ctx.logs.slice(from).find((l) => l.msg === 'retention pass');
  try {
    await runWorker(async () => {
      await until(() => pass() !== undefined);
      expect(pass()).toMatchObject({ removed: { sessions: 1 } });
      expect(await ctx.testDb.db('sessions').where({ id: old.id }).first()).toBeUndefined();
      expect(await ctx.testDb.db('sessions').where({ id: recent.id }).first('id')).toEqual({ id: recent.id });
    });
  } finally {
    await ctx.services.projects.update(ctx.project.project_id, { retentionSessionsDays: null }, 'cli');
  }
});
