/**
 * The PostgreSQL listener against a real server: a committed notification on one of its
 * channels reaches that channel's handler with its payload (a rolled-back one never does);
 * when its connection is killed, it logs the loss, connects again and calls onConnect once
 * more (for what was announced meanwhile). PostgreSQL only: SQLite has no NOTIFY.
 */
import type { Knex } from 'knex';
import pino from 'pino';
import { makeLogger } from '../../../src/logger';
import { LISTENER_NAME, listen } from '../../../src/storage/postgres/listener';
import { makeTestDb, type TestDb } from '../../helpers/db';

const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 20));
};

(process.env.DATABASE_URL ? describe : describe.skip)('the PostgreSQL listener', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await makeTestDb({ migrate: false });
  });
  afterAll(() => testDb.destroy());

  test('when notifications come on its channels, then each reaches its handler; when its connection is killed, then it reconnects, logged, and calls onConnect again', async () => {
    const logs: Record<string, unknown>[] = [];
    const logger = makeLogger('info', {
      write: (line: string) => logs.push(JSON.parse(line)),
    } as pino.DestinationStream);
    const listening = () => logs.filter((l) => l.msg === 'listening for notifications').length;
    const heard: string[] = [];
    let connects = 0;
    const { db, url } = testDb;
    const notify = (channel: string, payload: string, on: Knex = db) =>
      on.raw('SELECT pg_notify(?, ?)', [channel, payload]);
    const stop = new AbortController();
    const running = listen(
      {
        connectionString: url!,
        logger,
        channels: { tg_one: (p) => heard.push(`one:${p}`), 'tg-Two': (p) => heard.push(`two:${p}`) },
        onConnect: () => connects++,
        firstRetryMs: 10,
      },
      stop.signal,
    );
    try {
      await until(() => listening() === 1);
      expect(connects).toBe(1);
      expect(logs.find((l) => l.msg === 'listening for notifications')).toMatchObject({
        channels: ['tg_one', 'tg-Two'],
      });

      // A rolled-back transaction's notification is never delivered; the channels' order is the commits'.
      await expect(
        db.transaction(async (trx) => {
          await notify('tg_one', 'rolled back', trx);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await notify('tg_other', 'not listened to');
      await notify('tg-Two', 'b');
      await notify('tg_one', 'a');
      await until(() => heard.length === 2);
      expect(heard).toEqual(['two:b', 'one:a']);

      const killed = await db.raw(
        'SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = ? AND datname = current_database()',
        [LISTENER_NAME],
      );
      expect(killed.rows).toEqual([{ killed: true }]);
      await until(() => listening() === 2);
      expect(logs.find((l) => l.msg === 'the listener lost its connection; reconnecting')).toMatchObject({ level: 40 });
      expect(connects).toBe(2);

      await notify('tg_one', 'c');
      await until(() => heard.length === 3);
      expect(heard[2]).toBe('one:c');
    } finally {
      stop.abort();
      await running;
    }
  });
});
