/**
 * The SQLite thread (src/storage/sqlite/thread.ts): the evaluation's reads and writes and the rate
 * limit's upsert run on a thread of their own with a connection of its own, answer exactly what the
 * same reads answer on the request thread, and announce their statements on the database as knex
 * does.
 */
import { hotStatementsOf } from '../../src/storage/db';
import { makeEvaluationReads } from '../../src/storage/evaluation/reads';
import { sqliteThreadOf } from '../../src/storage/sqlite/connection';
import { startSqliteThread } from '../../src/storage/sqlite/thread';
import { knexRows } from '../../src/storage/statements';
import { makeTestContext, type TestContext } from '../helpers/app';
import { personSession, scenario, US_IP } from '../helpers/evaluation';

const sqlite = !process.env.DATABASE_URL;
/** A structured clone is made in Node's own realm, not in the test's: its classes by their tag. */
const tag = (v: unknown) => Object.prototype.toString.call(v);
const onSqlite = sqlite ? describe : describe.skip;

let ctx: TestContext;
beforeEach(async () => {
  ctx = await makeTestContext();
});
afterEach(async () => {
  await ctx.close();
});

onSqlite('the SQLite thread', () => {
  it('when an evaluation runs, then its statements run on the thread and the database announces each of them', async () => {
    const s = scenario(ctx);
    await s.signIn({ id: 'alice', email: 'alice@example.org' }, { device_id: 'dev-1' }, US_IP);
    const sessionId = await s.ingest(personSession({ device_id: 'dev-1' }), US_IP);
    const sent: { sql: string; thread?: string }[] = [];
    const listener = (q: { sql: string; thread?: string }) => sent.push(q);
    ctx.testDb.db.on('query', listener);
    try {
      expect((await s.authenticate(sessionId, { id: 'alice' }, true)).status).toBe(200);
    } finally {
      ctx.testDb.db.off('query', listener);
    }
    expect(sqliteThreadOf(ctx.testDb.db)).toBeDefined();
    const onThread = sent.filter((q) => q.thread === 'sqlite');
    // The rate limit, the session with the account's history, the account, the counts, the links, and the transaction.
    expect(onThread.some((q) => /^\s*insert into `?rate_limits/i.test(q.sql))).toBe(true);
    expect(onThread.filter((q) => /^\s*(WITH|SELECT)\b/i.test(q.sql)).length).toBeGreaterThanOrEqual(4);
    expect(onThread.map((q) => q.sql.split(' ')[0]!.toUpperCase())).toEqual(
      expect.arrayContaining(['BEGIN;', 'UPDATE', 'COMMIT;']),
    );
    // Nothing of it on the request thread's connection (the API key's project comes from the cache).
    expect(sent.filter((q) => !q.thread)).toEqual([]);
  });

  it('when the same reads run on the thread and on the request thread, then they answer the same values (dates, maps and all)', async () => {
    const s = scenario(ctx);
    for (let i = 0; i < 3; i++)
      await s.signIn(
        { id: `acct-${i}`, email: `a${i}@example.org`, phone: '+14155550123' },
        { device_id: 'shared' },
        US_IP,
      );
    await s.signIn({ id: 'acct-0' }, { device_id: 'own' }, US_IP);
    const sessionId = await s.ingest(personSession({ device_id: 'shared' }), US_IP);
    await s.authenticate(sessionId, { id: 'acct-0' }, true);

    const db = ctx.testDb.db;
    const threaded = makeEvaluationReads(hotStatementsOf(db).rows, 'sqlite');
    const local = makeEvaluationReads(knexRows(db), 'sqlite');
    const p = ctx.project.project_id;
    const both = async <T>(read: (r: typeof local) => Promise<T>): Promise<[T, T]> => [
      await read(threaded),
      await read(local),
    ];

    const [onThread, here] = await both((r) => r.session(p, sessionId, { accountId: 'acct-0', limit: 50 }));
    expect(onThread).toBeDefined();
    expect(tag(onThread!.session.startTime)).toBe('[object Date]');
    expect(onThread!.history.length).toBeGreaterThan(0);
    expect(onThread).toEqual(here);

    const [accounts, accountsHere] = await both((r) => r.accounts(p, ['acct-0', 'acct-1', 'nobody']));
    expect(tag(accounts)).toBe('[object Map]');
    expect(accounts.size).toBe(2);
    expect(accounts).toEqual(accountsHere);

    const session = onThread!.session;
    const query = {
      sessionId,
      ip: session.ipAddress,
      block: session.ipBlock,
      now: new Date(),
      accountId: 'acct-0',
      email: { domain: 'example.org', key: 'a0@example.org', excludeAccount: 'acct-0', domainFraud: true },
    };
    const [counts, countsHere] = await both((r) => r.counts(p, query));
    expect(counts.network.ipDistinctAccounts).toBeGreaterThan(0);
    expect(counts).toEqual(countsHere);

    const search = {
      excludeAccount: 'acct-0',
      identifiers: [
        { type: 'device' as const, value: 'shared', of: 'session' as const },
        { type: 'phone' as const, value: '+14155550123', of: 'account' as const },
      ],
      networks: [],
    };
    const [links, linksHere] = await both((r) => r.links(p, search));
    expect(links.identifiers.flatMap((i) => i.accountIds).length).toBeGreaterThan(0);
    expect(links).toEqual(linksHere);

    const [previous, previousHere] = await both((r) =>
      r.previousOfDevice(p, 'shared', new Date(Date.now() + 60_000), sessionId),
    );
    expect(tag(previous?.startTime)).toBe('[object Date]');
    expect(previous).toEqual(previousHere);
  });

  it('when the request thread and the SQLite thread write at once, then every request succeeds (transactions wait for the write lock)', async () => {
    const s = scenario(ctx);
    // Ingestion writes sessions on the request thread's connection; its rate limits and the
    // evaluations write on the SQLite thread's. Interleaved, a deferred transaction that read
    // before writing failed with SQLITE_BUSY_SNAPSHOT (a 500) instead of waiting.
    for (let round = 0; round < 3; round++) {
      const ids = await Promise.all(Array.from({ length: 20 }, () => s.ingest(personSession())));
      const results = await Promise.all([
        ...ids.map((id, i) => s.authenticate(id, { id: `busy-${round}-${i}` })),
        ...Array.from({ length: 20 }, () => s.ingest(personSession()).then(() => ({ status: 200 }))),
      ]);
      expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    }
  });

  it('when a statement fails, then the call fails with its message instead of hanging, and the thread still answers', async () => {
    const thread = startSqliteThread({ filename: ctx.testDb.sqliteFile!, cacheMb: 2, mmapMb: 0 });
    try {
      await expect(thread.rows('SELECT * FROM no_such_table', [], false)).rejects.toThrow(
        'no such table: no_such_table',
      );
      const { rows } = await thread.rows(
        'SELECT id FROM accounts WHERE project_id = ? AND id = ?',
        [ctx.project.project_id, 'nobody'],
        false,
      );
      expect(rows).toEqual([]);
    } finally {
      await thread.stop();
    }
  });

  it('when nothing listens for the statements, then the thread does not send them back', async () => {
    const thread = startSqliteThread({ filename: ctx.testDb.sqliteFile!, cacheMb: 2, mmapMb: 0 });
    const sql = 'SELECT id, email FROM accounts a WHERE a.project_id = ?';
    try {
      const asked = await thread.rows(sql, [ctx.project.project_id], true);
      expect(asked.statements.map((s) => s.sql)).toEqual([sql]);
      const quiet = await thread.rows(sql, [ctx.project.project_id], false);
      expect(quiet).toEqual({ rows: asked.rows, statements: [] });
    } finally {
      await thread.stop();
    }
    // Through the database: announced while something listens, not asked for once nothing does.
    const db = ctx.testDb.db;
    const running = sqliteThreadOf(db)!;
    const rows = running.rows.bind(running);
    const announced: boolean[] = [];
    running.rows = (sql, bindings, announce) => (announced.push(announce), rows(sql, bindings, announce));
    const reads = makeEvaluationReads(hotStatementsOf(db).rows, 'sqlite');
    // (The test context's own listeners, if any, set aside meanwhile.)
    const others = db.listeners('query') as ((...a: unknown[]) => void)[];
    db.removeAllListeners('query');
    try {
      await reads.accounts(ctx.project.project_id, ['nobody']);
      const listener = () => {};
      db.on('query', listener);
      await reads.accounts(ctx.project.project_id, ['nobody']);
      db.off('query', listener);
    } finally {
      running.rows = rows;
      for (const l of others) db.on('query', l);
    }
    expect(announced).toEqual([false, true]);
  });

  it('when a statement names a column twice, or __proto__, or reads many rows, then the thread answers what the driver does', async () => {
    const thread = startSqliteThread({ filename: ctx.testDb.sqliteFile!, cacheMb: 2, mmapMb: 0 });
    const local = knexRows(ctx.testDb.db);
    try {
      for (const [sql, bindings] of [
        ['SELECT 1 AS a, 2 AS a, ? AS "b c", NULL AS d', ['x']],
        ['SELECT 1 AS "__proto__", 2 AS "constructor"', []],
        ['SELECT \'{"x":1}\' AS "a""quote", 3.5 AS "n"', []],
        [
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) SELECT i, 'r' || i AS s FROM n`,
          [],
        ],
        ['SELECT id, name FROM projects WHERE id = ?', [ctx.project.project_id]],
      ] as const) {
        const { rows } = await thread.rows(sql, bindings, false);
        const here = await local(sql, bindings);
        expect(rows).toEqual(here);
        // And again: the second run of a statement keeps the shape found at its first.
        expect((await thread.rows(sql, bindings, false)).rows).toEqual(here);
      }
    } finally {
      await thread.stop();
    }
  });

  it('when the thread is stopped, then a call fails at once', async () => {
    const thread = startSqliteThread({ filename: ctx.testDb.sqliteFile!, cacheMb: 2, mmapMb: 0 });
    await thread.stop();
    await expect(thread.rows('SELECT 1', [], false)).rejects.toThrow('the SQLite thread stopped');
  });
});
