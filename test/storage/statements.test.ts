/**
 * The hot path's statement runner: values written in as literals for PostgreSQL's one-round-trip
 * transactions (`inlineValues`), and the transaction itself on the real database of the run
 * (all or nothing, a guard that returns no row abandoning it, each statement announced).
 */
import { hotStatementsOf, makeDb } from '../../src/storage/db';
import { pgHotPipelineOf } from '../../src/storage/postgres/connection';
import { inlineValues, positional } from '../../src/storage/postgres/statements';
import { objectsOf, packRows } from '../../src/storage/sqlite/rows';
import type { Statement } from '../../src/storage/statements';
import { makeTestDb, statementsDuring, type TestDb } from '../helpers/db';

describe('inlineValues', () => {
  it('when values are text, numbers, booleans, null and dates, then each is written as a quoted literal or NULL', () => {
    expect(
      inlineValues('INSERT INTO t (a, b, c, d, e) VALUES (?, ?, ?, ?, ?)', [
        "O'Brien",
        42.5,
        true,
        null,
        new Date(Date.UTC(2026, 10, 24, 12, 0, 0)),
      ]),
    ).toBe(`INSERT INTO t (a, b, c, d, e) VALUES ('O''Brien', '42.5', 'true', NULL, '2026-11-24T12:00:00.000Z')`);
  });

  it('when text holds backslashes, then it is written as an escape string with them doubled', () => {
    // (escapeLiteral puts a space before the E.)
    expect(inlineValues('SELECT ?', ['a\\b'])).toBe("SELECT  E'a\\\\b'");
  });

  it('when a question mark stands inside a quoted literal or identifier, then it is not a placeholder', () => {
    expect(inlineValues(`SELECT '?', "we?ird", 'it''s ?' WHERE x = ?`, ['v'])).toBe(
      `SELECT '?', "we?ird", 'it''s ?' WHERE x = 'v'`,
    );
  });

  it('when placeholders and values do not pair up, then the statement is refused', () => {
    expect(() => inlineValues('SELECT ?, ?', ['one'])).toThrow(/placeholder 2 has no value/);
    expect(() => inlineValues('SELECT ?', ['one', 'two'])).toThrow(/2 values for 1 placeholders/);
    expect(() => inlineValues('SELECT a ?? b', [])).toThrow(/not a placeholder/);
  });

  it('when a value is an object, a buffer or not a finite number, then it is refused', () => {
    expect(() => inlineValues('SELECT ?', [{ a: 1 }])).toThrow(TypeError);
    expect(() => inlineValues('SELECT ?', [Buffer.from('x')])).toThrow(TypeError);
    expect(() => inlineValues('SELECT ?', [Number.NaN])).toThrow(TypeError);
    expect(() => inlineValues('SELECT ?', [new Date(Number.NaN)])).toThrow(TypeError);
  });
});

describe('packed rows', () => {
  it('when rows are packed and made objects again, then each row has its columns and values, in order', () => {
    const columns = ['id', 'n', 'note'];
    const packed = packRows(columns, [
      ['a', 1, null],
      ['b', 2.5, 'x'],
    ]);
    // One array of plain values, row after row.
    expect(packed.values).toEqual(['a', 1, null, 'b', 2.5, 'x']);
    expect(objectsOf(packed)).toEqual([
      { id: 'a', n: 1, note: null },
      { id: 'b', n: 2.5, note: 'x' },
    ]);
    expect(objectsOf(packRows(columns, []))).toEqual([]);
  });

  it('when a column is named __proto__, then it is an own key like any other, and the prototype stays', () => {
    const [row] = objectsOf(packRows(['__proto__', 'constructor'], [[1, 2]]));
    expect(Object.keys(row!)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  });
});

describe('positional', () => {
  it('when a statement is announced, then its placeholders are numbered as knex numbers them for PostgreSQL', () => {
    expect(positional(`SELECT ?, '?' FROM t WHERE a = ? AND "b?" = ?`, 3)).toBe(
      `SELECT $1, '?' FROM t WHERE a = $2 AND "b?" = $3`,
    );
  });
});

describe('the hot path transaction on the real database', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await makeTestDb();
    await testDb.db.schema.createTable('statement_probe', (t) => {
      t.text('id').primary();
      t.text('body');
      t.bigInteger('n');
      t.integer('version');
    });
  });
  afterAll(() => testDb.destroy());

  const insert = (id: string, body: string, n: number): Statement => ({
    sql: 'INSERT INTO statement_probe (id, body, n, version) VALUES (?, ?, ?, 0)',
    bindings: [id, body, n],
  });

  it('when text meant to break out of its literal is written, then it is stored exactly as given', async () => {
    const nasty = [
      "'); DROP TABLE statement_probe; --",
      "\\'; SELECT 1; --",
      'back\\slash and \\x00 and $$dollar$$ and "double"',
      'ünïcödé ✓ 𝄞',
    ];
    const run = hotStatementsOf(testDb.db);
    expect(await run.transaction(nasty.map((body, i) => insert(`nasty-${i}`, body, i)))).toBe(true);
    const rows = await testDb.db('statement_probe').whereLike('id', 'nasty-%').orderBy('n');
    expect(rows.map((r) => r.body)).toEqual(nasty);
    expect(rows.map((r) => Number(r.n))).toEqual([0, 1, 2, 3]);
  });

  it('when a statement fails, then none of the transaction is written', async () => {
    const run = hotStatementsOf(testDb.db);
    await expect(run.transaction([insert('fails-1', 'a', 1), insert('fails-1', 'duplicate key', 2)])).rejects.toThrow();
    expect(await testDb.db('statement_probe').where({ id: 'fails-1' })).toEqual([]);
  });

  it('when a guarded statement returns no row, then the transaction is abandoned and nothing is written', async () => {
    const run = hotStatementsOf(testDb.db);
    await run.transaction([insert('guarded', 'v0', 1)]);
    const guardedUpdate = (version: number): Statement => ({
      sql: 'UPDATE statement_probe SET version = version + 1 WHERE id = ? AND version = ? RETURNING id',
      bindings: ['guarded', version],
      guard: true,
    });
    expect(await run.transaction([guardedUpdate(7), insert('after-guard', 'no', 2)])).toBe(false);
    expect(await testDb.db('statement_probe').where({ id: 'after-guard' })).toEqual([]);
    expect((await testDb.db('statement_probe').where({ id: 'guarded' }).first()).version).toBe(0);

    expect(await run.transaction([guardedUpdate(0), insert('after-guard', 'yes', 3)])).toBe(true);
    expect((await testDb.db('statement_probe').where({ id: 'guarded' }).first()).version).toBe(1);
    expect(await testDb.db('statement_probe').where({ id: 'after-guard' })).toHaveLength(1);
  });

  const onPostgres = process.env.DATABASE_URL ? it : it.skip;

  onPostgres(
    'when a text cannot be prepared (a value whose type PostgreSQL cannot infer), then it is written in and runs',
    async () => {
      const run = hotStatementsOf(testDb.db);
      const untyped: Statement = {
        sql: "INSERT INTO statement_probe (id, body, n, version) SELECT ?, 'untyped', 1, 0 WHERE ? IS NULL",
        bindings: ['untyped', null],
      };
      const seen = await statementsDuring(testDb.db, () => run.transaction([untyped]), { preparations: true });
      expect(seen.filter((q) => q.preparation).map((q) => q.sql)).toEqual([
        expect.stringMatching(/^PREPARE tg_w_[0-9a-f]{24} AS INSERT/),
      ]);
      expect(await testDb.db('statement_probe').where({ id: 'untyped' })).toHaveLength(1);
      // Not tried again on the connection.
      const again = await statementsDuring(
        testDb.db,
        () => run.transaction([{ ...untyped, bindings: ['untyped-2', null] }]),
        { preparations: true },
      );
      expect(again.filter((q) => q.preparation)).toEqual([]);
      expect(await testDb.db('statement_probe').where({ id: 'untyped-2' })).toHaveLength(1);
    },
  );

  onPostgres(
    'when the connection lost the prepared statements, then the transaction is sent again written in and commits once, and later ones go written in',
    async () => {
      const run = hotStatementsOf(testDb.db);
      expect(await run.transaction([insert('lost-1', 'a', 1)])).toBe(true);
      const hot = pgHotPipelineOf(testDb.db)!;
      // One connection (statements one at a time): the one the next transaction gets.
      expect(hot.connections).toHaveLength(1);
      const connection = await hot.acquire();
      try {
        const { rows } = await connection.client.query<{ name: string }>(
          `SELECT name FROM pg_prepared_statements WHERE name LIKE 'tg\\_w\\_%'`,
        );
        expect(rows.length).toBeGreaterThan(0);
        for (const { name } of rows) await connection.client.query(`DEALLOCATE ${name}`);
      } finally {
        hot.done(connection);
      }
      expect(await run.transaction([insert('lost-2', 'b', 2), insert('lost-3', 'c', 3)])).toBe(true);
      expect(await testDb.db('statement_probe').whereIn('id', ['lost-2', 'lost-3']).orderBy('id').pluck('id')).toEqual([
        'lost-2',
        'lost-3',
      ]);
      // As behind a pooler that hands each transaction another server connection: one miss, then
      // written in, in one round trip (counted on the pool's one connection).
      const { client } = hot.connections[0]!;
      const query = client.query;
      let roundTrips = 0;
      (client as unknown as { query: unknown }).query = (...args: unknown[]) => (
        roundTrips++,
        (query as (...a: unknown[]) => unknown).apply(client, args)
      );
      let later: Awaited<ReturnType<typeof statementsDuring>>;
      try {
        later = await statementsDuring(testDb.db, () => run.transaction([insert('lost-4', 'd', 4)]), {
          preparations: true,
        });
      } finally {
        client.query = query;
      }
      expect(roundTrips).toBe(1);
      expect(later.map((q) => q.sql)).toEqual([expect.stringMatching(/^INSERT INTO statement_probe/)]);
      expect(await testDb.db('statement_probe').where({ id: 'lost-4' })).toHaveLength(1);
    },
  );

  onPostgres(
    'when a connection already has a write text under its digest name (as a pooler’s server connection may), then its PREPARE finds it and the statement runs by it',
    async () => {
      // The PREPARE a first process sends for the text.
      const first = makeDb({ databaseUrl: testDb.url! });
      let preparation: string | undefined;
      try {
        const seen = await statementsDuring(
          first,
          () => hotStatementsOf(first).transaction([insert('digest-1', 'a', 1)]),
          {
            preparations: true,
          },
        );
        preparation = seen.find((q) => q.preparation)?.sql;
      } finally {
        await first.destroy();
      }
      expect(preparation).toMatch(/^PREPARE tg_w_[0-9a-f]{24} AS INSERT/);
      const name = preparation!.split(' ')[1]!;
      // A second process whose server connection already has it (prepared there by the first, say).
      const second = makeDb({ databaseUrl: testDb.url! });
      try {
        const hot = pgHotPipelineOf(second)!;
        const connection = await hot.acquire();
        await connection.client.query(preparation!).finally(() => hot.done(connection));
        const seen = await statementsDuring(
          second,
          () => hotStatementsOf(second).transaction([insert('digest-2', 'b', 2)]),
          { preparations: true },
        );
        expect(seen.filter((q) => q.preparation).map((q) => q.sql)).toEqual([preparation]);
        expect(hot.connections).toHaveLength(1);
        const again = await hot.acquire();
        const { rows } = await again.client
          .query<{ runs: string }>(
            'SELECT generic_plans + custom_plans AS runs FROM pg_prepared_statements WHERE name = $1',
            [name],
          )
          .finally(() => hot.done(again));
        // Executed by its name (a text written in would leave the prepared statement unrun).
        expect(rows.map((r) => Number(r.runs))).toEqual([1]);
      } finally {
        await second.destroy();
      }
      expect(await testDb.db('statement_probe').whereIn('id', ['digest-1', 'digest-2']).pluck('id')).toHaveLength(2);
    },
  );

  it('when PostgreSQL cannot be reached, then each statement announced is announced as failed too (a trace’s span of it ends)', async () => {
    // Nothing listens on port 1: the pool's connect is refused before any statement is sent.
    const unreachable = makeDb({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none' });
    const started: string[] = [];
    const failed: string[] = [];
    unreachable.on('query', (q: { __knexQueryUid: string }) => started.push(q.__knexQueryUid));
    unreachable.on('query-error', (_err: unknown, q: { __knexQueryUid: string }) => failed.push(q.__knexQueryUid));
    try {
      const run = hotStatementsOf(unreachable);
      await expect(run.rows('SELECT 1', [])).rejects.toThrow(/ECONNREFUSED/);
      await expect(run.transaction([insert('never', 'x', 1)])).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await unreachable.destroy();
    }
    expect(started).toHaveLength(2);
    expect(failed).toEqual(started);
  });

  it('when a transaction runs, then the database announces each of its statements', async () => {
    const run = hotStatementsOf(testDb.db);
    const seen = await statementsDuring(testDb.db, () =>
      run.transaction([insert('announced-1', 'a', 1), insert('announced-2', 'b', 2)]),
    );
    const inserts = seen.filter((q) => /^INSERT INTO statement_probe/.test(q.sql));
    expect(inserts).toHaveLength(2);
  });
});
