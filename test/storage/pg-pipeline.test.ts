/**
 * PostgreSQL: the hot path's statements run on connections of their own, a few shared by every
 * request and pipelined (src/storage/postgres/pipeline.ts), whose prepared statements take the generic
 * plan from their first run (src/storage/postgres/connection.ts pgHotPipelineOf); the rest of the service keeps
 * knex's pool and PostgreSQL's own choice of plan. Through the real app and database.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import pg, { escapeLiteral } from 'pg';
import { dialectOf, hotStatementsOf, makeDb } from '../../src/storage/db';
import { makeEvaluationReads } from '../../src/storage/evaluation/reads';
import { pgHotPipelineOf } from '../../src/storage/postgres/connection';
import { makePgPipeline } from '../../src/storage/postgres/pipeline';
import { makeAccountRepository } from '../../src/storage/repositories/accounts';
import { accountRecord } from '../helpers/accounts';
import { makeTestContext, type TestContext } from '../helpers/app';
import { statementsDuring } from '../helpers/db';
import { compileSources } from '../helpers/processes';
import { personSession, scenario, US_IP } from '../helpers/evaluation';

const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

let ctx: TestContext;
beforeEach(async () => {
  ctx = await makeTestContext();
});
afterEach(async () => {
  await ctx.close();
});

onPostgres('the hot path’s connections', () => {
  it('when sessions are authenticated, then their statements were prepared on the hot path’s connections, planned generically from the first run', async () => {
    const s = scenario(ctx);
    await s.signIn({ id: 'alice', email: 'alice@example.org' }, { device_id: 'dev-1' }, US_IP);
    const sessionId = await s.ingest(personSession({ device_id: 'dev-1' }), US_IP);
    expect((await s.authenticate(sessionId, { id: 'alice' }, true)).status).toBe(200);
    // A second request, whose statements ask for the pool again: it is neither made nor heard again.
    expect((await s.authenticate(sessionId, { id: 'alice' }, true)).status).toBe(200);

    const hot = pgHotPipelineOf(ctx.testDb.db)!;
    expect(hot).toBeDefined();
    // One set of connections for the process's life, each heard once (not once per statement).
    expect(pgHotPipelineOf(ctx.testDb.db)).toBe(hot);
    expect(hot.connections.length).toBeGreaterThan(0);
    const prepared: { name: string; generic_plans: number; custom_plans: number }[] = [];
    for (const { client } of hot.connections) {
      expect(client.listenerCount('error')).toBe(1);
      const { rows } = await client.query<{ name: string; generic_plans: number; custom_plans: number }>(
        `SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'tg\\_%'`,
      );
      prepared.push(...rows);
      const { rows: mode } = await client.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
      expect(mode[0]!.plan_cache_mode).toBe('force_generic_plan');
    }
    expect(prepared.length).toBeGreaterThan(0);
    expect(prepared.filter((r) => Number(r.custom_plans) > 0)).toEqual([]);
    expect(prepared.some((r) => Number(r.generic_plans) > 0)).toBe(true);
    // The rest of the service: knex's pool, PostgreSQL's default.
    const { rows: theirs } = await ctx.testDb.db.raw('SHOW plan_cache_mode');
    expect(theirs[0].plan_cache_mode).toBe('auto');
  });

  it('when sessions are authenticated again and again, then each write text was PREPAREd once on each connection, and every preparation announced is one that exists', async () => {
    const s = scenario(ctx);
    let announced = 0;
    for (let i = 0; i < 6; i++) {
      const sessionId = await s.ingest(personSession({ device_id: `dev-${i % 2}` }), US_IP);
      const seen = await statementsDuring(
        ctx.testDb.db,
        async () =>
          expect(
            (await s.authenticate(sessionId, { id: `acct-${i % 3}`, email: `a${i % 3}@example.org` }, true)).status,
          ).toBe(200),
        { preparations: true },
      );
      announced += seen.filter((q) => q.preparation).length;
      // What runs is the prepared statement, by name (written in only past the cap or when it could not be prepared).
      for (const q of seen.filter((q) => q.preparation))
        expect(q.sql).toMatch(/^PREPARE tg_w_[0-9a-f]{24} AS (UPDATE|INSERT|WITH)/);
    }
    expect(announced).toBeGreaterThan(0);
    const hot = pgHotPipelineOf(ctx.testDb.db)!;
    let existing = 0;
    for (const { client } of hot.connections) {
      const { rows } = await client.query<{ statement: string; n: string }>(
        `SELECT statement, count(*) AS n FROM pg_prepared_statements WHERE name LIKE 'tg\\_w\\_%' GROUP BY statement`,
      );
      expect(rows.filter((r) => Number(r.n) > 1)).toEqual([]);
      existing += rows.length;
    }
    expect(existing).toBe(announced);
  });

  it('when the database is closed, then the hot path’s connections are closed with it', async () => {
    const s = scenario(ctx);
    await s.ingest(personSession(), US_IP);
    const sessionId = await s.ingest(personSession(), US_IP);
    expect((await s.authenticate(sessionId, { id: 'bob' })).status).toBe(200);
    const hot = pgHotPipelineOf(ctx.testDb.db)!;
    const clients = hot.connections.map((c) => c.client);
    expect(clients.length).toBeGreaterThan(0);
    const ended = clients.map((c) => new Promise((resolve) => c.once('end', resolve)));
    await ctx.close();
    await Promise.all(ended);
    expect(hot.ended).toBe(true);
    expect(hot.connections).toEqual([]);
    expect(pgHotPipelineOf(ctx.testDb.db)).toBeUndefined();
    await expect(hot.acquire()).rejects.toThrow(/closed/);
    ctx = await makeTestContext();
  });

  it('when an idle connection is terminated, then it is reported and dropped, and the next statement runs on a new one', async () => {
    const reported: string[] = [];
    const db = makeDb({ databaseUrl: ctx.testDb.url!, onConnectionError: (message) => reported.push(message) });
    try {
      const hot = pgHotPipelineOf(db)!;
      const pidOf = async () => {
        const c = await hot.acquire();
        try {
          return (await c.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        } finally {
          hot.done(c);
        }
      };
      const pid = await pidOf();
      expect(hot.connections.map((c) => c.inFlight)).toEqual([0]);
      await ctx.testDb.db.raw('SELECT pg_terminate_backend(?)', [pid]);
      for (let i = 0; i < 100 && reported.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      // PostgreSQL's own notice when it arrives before the socket closes, else the reset socket.
      expect(reported).toEqual([expect.stringMatching(/terminat|ECONNRESET/)]);
      expect(hot.connections).toEqual([]);
      expect(await pidOf()).not.toBe(pid);
    } finally {
      await db.destroy();
    }
  });

  it('when many statements run at once, then they share at most `size` connections, several on one at a time, and each gets its own rows', async () => {
    const db = makeDb({ databaseUrl: ctx.testDb.url!, hotConnections: 3 });
    try {
      const hot = pgHotPipelineOf(db)!;
      const run = hotStatementsOf(db);
      let most = 0;
      const answers = await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          const rows = run.rows('SELECT CAST(? AS integer) AS n, pg_backend_pid() AS pid', [i]);
          most = Math.max(most, ...hot.connections.map((c) => c.inFlight));
          return rows;
        }),
      );
      expect(answers.map((rows) => rows.map((r) => r.n))).toEqual(Array.from({ length: 60 }, (_, i) => [i]));
      expect(hot.connections).toHaveLength(3);
      expect(new Set(answers.map((rows) => rows[0]!.pid)).size).toBe(3);
      expect(most).toBeGreaterThan(1);
    } finally {
      await db.destroy();
    }
  });

  it('when requests send statements in the same turn, then they leave on a connection in one socket write, and a later turn’s in another', async () => {
    const db = makeDb({ databaseUrl: ctx.testDb.url!, hotConnections: 1 });
    try {
      const run = hotStatementsOf(db);
      await run.rows('SELECT 1 AS n', []);
      const { client } = pgHotPipelineOf(db)!.connections[0]!;
      const socket = client.connection.stream as unknown as {
        _write: (...a: unknown[]) => unknown;
        _writev: (...a: unknown[]) => unknown;
      };
      const writes: number[] = [];
      for (const method of ['_write', '_writev'] as const) {
        const original = socket[method];
        socket[method] = function (this: unknown, ...a: unknown[]) {
          writes.push(Array.isArray(a[0]) ? a[0].length : 1);
          return original.apply(this, a);
        };
      }
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => run.rows('SELECT CAST(? AS integer) AS n', [i])),
      );
      expect(answers.map((rows) => rows[0]!.n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      // Twenty statements (node-postgres writes each as its own few messages), one write.
      expect(writes).toHaveLength(1);
      expect(writes[0]).toBeGreaterThanOrEqual(20);
      await run.rows('SELECT 1 AS n', []);
      expect(writes).toHaveLength(2);
    } finally {
      await db.destroy();
    }
  });

  it('when a statement fails beside others on one connection, then only it fails, and a failed transaction leaves nothing beside the others’ writes', async () => {
    const db = makeDb({ databaseUrl: ctx.testDb.url!, hotConnections: 1 });
    await ctx.testDb.db.schema.createTable('pipeline_probe', (t) => {
      t.string('id').primary();
    });
    try {
      const run = hotStatementsOf(db);
      const results = await Promise.allSettled([
        run.rows('SELECT 1 AS n', []),
        run.rows('SELECT 1 / (CAST(? AS integer) - 1) AS n', [1]),
        run.transaction([
          { sql: 'INSERT INTO pipeline_probe (id) VALUES (?)', bindings: ['a'] },
          { sql: 'INSERT INTO pipeline_probe (id) VALUES (?)', bindings: ['a'] },
        ]),
        run.transaction([{ sql: 'INSERT INTO pipeline_probe (id) VALUES (?)', bindings: ['b'] }]),
        run.rows('SELECT 2 AS n', []),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(pg.DatabaseError);
      expect((results[4] as PromiseFulfilledResult<{ n: number }[]>).value).toEqual([{ n: 2 }]);
      // The duplicate key rolled its transaction back whole; the next one on the connection committed.
      expect(await ctx.testDb.db('pipeline_probe').pluck('id')).toEqual(['b']);
      expect(pgHotPipelineOf(db)!.connections).toHaveLength(1);
    } finally {
      await db.destroy();
      await ctx.testDb.db.schema.dropTable('pipeline_probe');
    }
  });

  it('when a connection is lost with statements on it, then they fail, it is dropped, and the next statement opens another', async () => {
    const reported: string[] = [];
    const hot = makePgPipeline({ connectionString: ctx.testDb.url!, size: 1, onError: (m) => reported.push(m) });
    try {
      const c = await hot.acquire();
      const { pid } = (await c.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!;
      const sleeping = c.client.query('SELECT pg_sleep(5)');
      const behind = c.client.query('SELECT 1 AS n');
      await ctx.testDb.db.raw('SELECT pg_terminate_backend(?)', [pid]);
      await expect(sleeping).rejects.toThrow();
      await expect(behind).rejects.toThrow();
      // Dropped by the pipeline when the client reported the lost socket, not by the caller.
      expect(hot.connections).toEqual([]);
      // PostgreSQL's own notice when it arrives before the socket closes, else the reset socket.
      expect(reported).toEqual([expect.stringMatching(/terminat|ECONNRESET/)]);
      hot.done(c);
      const again = await hot.acquire();
      try {
        expect((await again.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid).not.toBe(
          pid,
        );
      } finally {
        hot.done(again);
      }
    } finally {
      await hot.end();
    }
  });

  it('when accounts are read with their lists beside a few hundred memberships, then each account’s are looked up by its key in the generic plan (not the membership table read whole)', async () => {
    const db = ctx.testDb.db;
    const projectId = ctx.project.project_id;
    const at = new Date('2026-11-26T12:00:00.000Z');
    const ids = Array.from({ length: 10 }, (_, i) => `acct-${i}`);
    await db.transaction(async (trx) => {
      for (const id of ids) await makeAccountRepository(db).upsert(accountRecord(projectId, id, at), trx);
    });
    // A list of the size of the bench's (620 members), the statistics up to date: small enough
    // that reading it whole looks cheap to the planner.
    const members = Array.from({ length: 600 }, (_, i) => ({
      project_id: projectId,
      list_name: 'vip',
      account_id: i < 2 ? ids[i]! : `other-${i}`,
      added_at: at.getTime(),
    }));
    await db.batchInsert('list_members', members, 200);
    await db.raw('ANALYZE list_members');

    const sent: { sql: string; bindings: readonly unknown[] }[] = [];
    const hear = (q: { sql: string; bindings: readonly unknown[] }) => sent.push(q);
    db.on('query', hear);
    let found: Awaited<ReturnType<ReturnType<typeof makeEvaluationReads>['accounts']>>;
    try {
      found = await makeEvaluationReads(hotStatementsOf(db).rows, dialectOf(db)).accounts(projectId, ids);
    } finally {
      db.off('query', hear);
    }
    expect([...found.values()].map((a) => a.lists)).toEqual([['vip'], ['vip'], [], [], [], [], [], [], [], []]);
    const read = sent.find((q) => q.sql.includes('FROM accounts a'))!;
    expect(read).toBeDefined();

    // The hot path's setting (force_generic_plan), the planner's own choice of scans.
    const hot = pgHotPipelineOf(db)!;
    const lease = await hot.acquire();
    const connection = lease.client;
    try {
      await connection.query(`PREPARE accounts_read AS ${read.sql}`);
      const values = read.bindings.map((v) => escapeLiteral(String(v))).join(', ');
      const { rows } = await connection.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (FORMAT JSON) EXECUTE accounts_read(${values})`,
      );
      await connection.query('DEALLOCATE accounts_read');
      const scans: { type: string; index?: string }[] = [];
      const walk = (node: Record<string, unknown>) => {
        if (node['Relation Name'] === 'list_members')
          scans.push({ type: String(node['Node Type']), index: node['Index Name'] as string | undefined });
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
      };
      walk((rows[0]!['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan);
      expect(scans).toEqual([{ type: expect.stringMatching(/^Index (Only )?Scan$/), index: 'list_members_pkey' }]);
    } finally {
      hot.done(lease);
    }
  });
});

onPostgres('the hot path’s connections in a process of their own', () => {
  beforeAll(() => {
    compileSources();
  }, 120_000);

  it('when a process has run a statement on them and has nothing left to do, then it exits (an idle connection does not keep it alive)', async () => {
    const dir = path.join(compileSources(), 'src', 'storage');
    const script = `
      const { hotStatementsOf, makeDb } = require(${JSON.stringify(path.join(dir, 'db.js'))});
      const db = makeDb({ databaseUrl: process.env.DATABASE_URL });
      hotStatementsOf(db).rows('SELECT 1 AS n', []).then((rows) => console.log(JSON.stringify(rows)));
    `;
    const child = spawn(process.execPath, ['-e', script], {
      env: { PATH: process.env.PATH, DATABASE_URL: ctx.testDb.url! },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = await new Promise<number | null | 'hung'>((resolve) => {
      const timer = setTimeout(() => (child.kill(), resolve('hung')), 15_000);
      child.once('exit', (code) => (clearTimeout(timer), resolve(code)));
    });
    expect({ exited, out: out.trim() }).toEqual({ exited: 0, out: '[{"n":1}]' });
  }, 30_000);
});
