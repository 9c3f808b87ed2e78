/**
 * PostgreSQL: the hot path's statements run on a pool of their own whose prepared statements take
 * the generic plan from their first run (src/storage/db.ts pgHotPoolOf); the rest of the service
 * keeps knex's pool and PostgreSQL's own choice of plan. Through the real app and database.
 */
import { makeDb, pgHotPoolOf } from '../../src/storage/db';
import { makeTestContext, type TestContext } from '../helpers/app';
import { personSession, scenario, US_IP } from '../helpers/evaluation';

const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

let ctx: TestContext;
beforeEach(async () => {
  ctx = await makeTestContext();
});
afterEach(async () => {
  await ctx.close();
});

onPostgres('the hot path’s pool', () => {
  it('when sessions are authenticated, then their statements were prepared on the hot path’s connections, planned generically from the first run', async () => {
    const s = scenario(ctx);
    await s.signIn({ id: 'alice', email: 'alice@example.org' }, { device_id: 'dev-1' }, US_IP);
    const sessionId = await s.ingest(personSession({ device_id: 'dev-1' }), US_IP);
    expect((await s.authenticate(sessionId, { id: 'alice' }, true)).status).toBe(200);
    // A second request, whose statements ask for the pool again: it is neither made nor heard again.
    expect((await s.authenticate(sessionId, { id: 'alice' }, true)).status).toBe(200);

    const hot = pgHotPoolOf(ctx.testDb.db)!;
    expect(hot).toBeDefined();
    // One pool for the process's life, heard once (not once per statement).
    expect(pgHotPoolOf(ctx.testDb.db)).toBe(hot);
    expect(hot.listenerCount('error')).toBe(1);
    // One request at a time: the pool hands back the connection the last statement ran on.
    const connection = await hot.connect();
    try {
      const { rows } = await connection.query<{ name: string; generic_plans: number; custom_plans: number }>(
        `SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'tg\\_%'`,
      );
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.filter((r) => Number(r.custom_plans) > 0)).toEqual([]);
      expect(rows.some((r) => Number(r.generic_plans) > 0)).toBe(true);
      const { rows: mode } = await connection.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
      expect(mode[0]!.plan_cache_mode).toBe('force_generic_plan');
    } finally {
      connection.release();
    }
    // The rest of the service: knex's pool, PostgreSQL's default.
    const { rows: theirs } = await ctx.testDb.db.raw('SHOW plan_cache_mode');
    expect(theirs[0].plan_cache_mode).toBe('auto');
  });

  it('when the database is closed, then the hot path’s pool is ended with it', async () => {
    const s = scenario(ctx);
    await s.ingest(personSession(), US_IP);
    const sessionId = await s.ingest(personSession(), US_IP);
    expect((await s.authenticate(sessionId, { id: 'bob' })).status).toBe(200);
    const hot = pgHotPoolOf(ctx.testDb.db)!;
    expect(hot.totalCount).toBeGreaterThan(0);
    await ctx.close();
    expect(hot.ended).toBe(true);
    expect(pgHotPoolOf(ctx.testDb.db)).toBeUndefined();
    ctx = await makeTestContext();
  });

  it('when an idle connection of the pool is terminated, then it is reported and dropped, and the next statement runs on a new one', async () => {
    const reported: string[] = [];
    const db = makeDb({ databaseUrl: ctx.testDb.url!, onConnectionError: (message) => reported.push(message) });
    try {
      const hot = pgHotPoolOf(db)!;
      const { rows } = await hot.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const pid = rows[0]!.pid;
      expect(hot.idleCount).toBe(1);
      await ctx.testDb.db.raw('SELECT pg_terminate_backend(?)', [pid]);
      for (let i = 0; i < 100 && reported.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(reported).toEqual([expect.stringMatching(/terminat/)]);
      expect(hot.totalCount).toBe(0);
      const again = await hot.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(again.rows[0]!.pid).not.toBe(pid);
    } finally {
      await db.destroy();
    }
  });
});
