/**
 * The PostgreSQL listener against a real server: a webhook queued (or replayed) through the
 * outbox wakes it; when its connection is killed, it logs the loss, connects again and wakes
 * once (for what was queued meanwhile). PostgreSQL only: SQLite has no NOTIFY, separate
 * workers there poll.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { makeLogger } from '../../src/logger';
import { listenForWebhooks, LISTENER_NAME } from '../../src/webhooks/listener';
import { makeTestContext, type TestContext } from '../helpers/app';

const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 20));
};

(process.env.DATABASE_URL ? describe : describe.skip)('the PostgreSQL listener', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext();
  });
  afterAll(() => ctx.close());

  test('when a webhook is queued, then the listener wakes; when its connection is killed, then it reconnects, logged, and wakes on a replay', async () => {
    const logs: Record<string, unknown>[] = [];
    const logger = makeLogger('info', {
      write: (line: string) => logs.push(JSON.parse(line)),
    } as pino.DestinationStream);
    const listening = () => logs.filter((l) => l.msg === 'listening for queued webhooks').length;
    let wakes = 0;
    const { db, url } = ctx.testDb;
    const { outbox } = ctx.services.repos;
    const stop = new AbortController();
    const running = listenForWebhooks(
      { connectionString: url!, logger, onNotify: () => wakes++, firstRetryMs: 10 },
      stop.signal,
    );
    try {
      await until(() => listening() === 1);
      expect(wakes).toBe(1); // on connecting

      const requestId = randomUUID();
      const webhook = {
        requestId,
        projectId: ctx.project.project_id,
        sessionId: randomUUID(),
        eventType: 'verification.face-match.completed',
        body: '{}',
        now: ctx.clock.now(),
      };
      await db.transaction((trx) => outbox.enqueue(webhook, trx));
      await until(() => wakes === 2);

      const killed = await db.raw(
        'SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = ? AND datname = current_database()',
        [LISTENER_NAME],
      );
      expect(killed.rows).toEqual([{ killed: true }]);
      await until(() => listening() === 2);
      expect(logs.find((l) => l.msg === 'the webhook listener lost its connection; reconnecting')).toMatchObject({
        level: 40,
      });
      expect(wakes).toBe(3); // on connecting again

      expect(await outbox.replay(requestId, ctx.clock.now())).toBeDefined();
      await until(() => wakes === 4);
    } finally {
      stop.abort();
      await running;
    }
  });
});
