/**
 * The evaluation pipeline through the real app and database: how many SQL statements one
 * request runs (every statement the database sees, transaction control included), and that
 * a failure at any write step leaves nothing half-written.
 */
import type { Knex } from 'knex';
import request from 'supertest';
import { makeTestContext, type TestContext } from '../../helpers/app';
import { statementsDuring } from '../../helpers/db';
import { personSession, scenario, US_IP } from '../../helpers/evaluation';

/** The budget for authenticate?accounts_linked=true, writes included. */
const STATEMENT_BUDGET = 12;

let ctx: TestContext;
beforeEach(async () => {
  ctx = await makeTestContext();
});
afterEach(async () => {
  await ctx.close();
});

/**
 * The SQL statements the database is sent while `run` runs. (On PostgreSQL a write text new to
 * its connection is PREPAREd first, once per connection and text, as node-postgres parses a read
 * once per connection: neither is one of the request's statements, and `statementsDuring` leaves
 * them out; test/storage/pg-pipeline.test.ts finds each made once per connection and text.)
 */
async function statementsOf(db: Knex, run: () => Promise<unknown>): Promise<string[]> {
  return (await statementsDuring(db, run)).map((q) => q.sql);
}

/** How many statements one authenticate?accounts_linked=true of the account with the session sends. */
async function authenticateStatements(sessionId: string, accountId: string): Promise<number> {
  const statements = await statementsOf(ctx.testDb.db, async () =>
    expect((await scenario(ctx).authenticate(sessionId, { id: accountId }, true)).status).toBe(200),
  );
  return statements.length;
}

/** A history for the account: sessions on other devices and addresses, other accounts sharing them. */
async function withHistory(): Promise<{ accountId: string; sessionId: string }> {
  const s = scenario(ctx);
  const device = 'shared-device';
  for (let i = 0; i < 6; i++) {
    await s.signIn(
      { id: `crowd-${i}`, email: `crowd${i}@example.org`, phone: '+14155550123' },
      { device_id: `${device}-${i % 2}` },
      US_IP,
    );
  }
  for (let i = 0; i < 4; i++)
    await s.signIn(
      { id: 'member', email: 'member@example.org', first_name: 'Ada', last_name: 'Lovelace' },
      { device_id: `${device}-${i % 2}` },
    );
  const sessionId = await s.ingest(personSession({ device_id: `${device}-0` }), US_IP);
  return { accountId: 'member', sessionId };
}

describe('POST /session/authenticate', () => {
  it(`when an account with history and links is authenticated with accounts_linked, then at most ${STATEMENT_BUDGET} statements run`, async () => {
    const { accountId, sessionId } = await withHistory();
    // Counted as a client's second request: whatever the process caches after a first one is warm.
    await request(ctx.app).get(`/session/${sessionId}`).set('x-api-key', ctx.project.api_key).expect(200);
    let body: { accounts_linked?: number } = {};
    const statements = await statementsOf(ctx.testDb.db, async () => {
      const res = await scenario(ctx).authenticate(
        sessionId,
        { id: accountId, email: 'member@example.org', phone: '+14155550123' },
        true,
      );
      expect(res.status).toBe(200);
      body = res.body;
    });
    expect(body.accounts_linked).toBeGreaterThan(2);
    if (statements.length > STATEMENT_BUDGET)
      throw new Error(`${statements.length} statements:\n${statements.join('\n')}`);
  });

  it('when the project has a document of 50 rules, then authenticate sends exactly the statements it sends without one', async () => {
    const { accountId, sessionId } = await withHistory();
    const s = scenario(ctx);
    const count = (session: string) => authenticateStatements(session, accountId);
    // Warm: the key's project is cached after a first request.
    await request(ctx.app).get(`/session/${sessionId}`).set('x-api-key', ctx.project.api_key).expect(200);
    const without = await count(sessionId);
    const rules = Array.from({ length: 50 }, (_, i) => ({
      id: `rule-${i}`,
      when: {
        all: [
          { field: 'account_score', op: 'lt', value: 1 - i / 100 },
          {
            any: [
              { field: 'linked_accounts.match_type', op: 'contains', value: 'browser' },
              { field: 'linked_accounts.match_type', op: 'contains', value: 'device' },
            ],
          },
        ],
      },
      then: { tags: [`tag-${i}`] },
    }));
    const put = await request(ctx.app).put('/rules').set('x-api-key', ctx.project.api_key).send({ rules });
    expect(put.status).toBe(200);
    // The first request after the PUT reads the project (and its rules) again; the second is counted.
    const warm = await s.ingest(personSession({ device_id: 'shared-device-0' }), US_IP);
    const first = await s.authenticated(warm, { id: accountId }, true);
    expect(first.rules?.version).toBe(1);
    expect(first.rules?.matched.length).toBeGreaterThan(0);
    const next = await s.ingest(personSession({ device_id: 'shared-device-0' }), US_IP);
    const withRules = await count(next);
    expect(withRules).toBe(without);
    expect(withRules).toBeLessThanOrEqual(STATEMENT_BUDGET);
  });

  it('when a session is evaluated, then what its receipt needs rides on the statement that records the evaluation: no statement more, no other table', async () => {
    const s = scenario(ctx);
    await s.signIn({ id: 'first' });
    const sessionId = await s.ingest(personSession());
    for (const run of [
      () => s.unauthenticated(sessionId, true),
      () => s.authenticated(sessionId, { id: 'first' }, true),
    ]) {
      const statements = await statementsOf(ctx.testDb.db, run);
      const updates = statements.filter((q) => /^\s*UPDATE "?sessions"? SET decision/i.test(q));
      expect(updates).toHaveLength(1);
      expect(updates[0]).toMatch(/evaluation_request_id = .*evaluation_inputs = /);
      expect(statements.filter((q) => /receipt/i.test(q))).toEqual([]);
      expect(statements.length).toBeLessThanOrEqual(STATEMENT_BUDGET);
    }
  });

  it('when an account is authenticated again, then its update assigns only the columns that changed (its indexes rewritten only for a change)', async () => {
    const s = scenario(ctx);
    const account = { id: 'steady', email: 'steady@example.org', phone: '+14155550123', first_name: 'Ada' };
    await s.signIn(account);
    /** The columns the account's update assigns while `run` runs. */
    const assigned = async (run: () => Promise<unknown>) => {
      const updates = (await statementsOf(ctx.testDb.db, run)).filter((q) => /^\s*UPDATE "?accounts"? SET/i.test(q));
      expect(updates).toHaveLength(1);
      const set = updates[0]!.split(/\sWHERE\s/i)[0]!;
      return [...set.matchAll(/(\w+) = (?:\?|\$\d+)/g)].map((m) => m[1]);
    };
    const again = await s.ingest(personSession());
    const columns = await assigned(async () => expect((await s.authenticate(again, account)).status).toBe(200));
    expect(columns).toEqual(expect.arrayContaining(['version', 'num_sessions']));
    for (const identifier of ['email', 'email_key', 'email_domain', 'phone_key', 'name_key', 'username_key'])
      expect(columns).not.toContain(identifier);

    // A changed email is written, with its key and domain, and the account is found by it.
    const moved = await s.ingest(personSession());
    const changed = await assigned(async () =>
      expect((await s.authenticate(moved, { ...account, email: 'steady@example.net' })).status).toBe(200),
    );
    expect(changed).toEqual(expect.arrayContaining(['email', 'email_key', 'email_domain']));
    expect(changed).not.toContain('phone_key');
    const row = await ctx.testDb
      .db('accounts')
      .where({ project_id: ctx.project.project_id, email_key: 'steady@example.net' })
      .first();
    expect(row).toMatchObject({
      id: 'steady',
      email: 'steady@example.net',
      email_domain: 'example.net',
      phone_key: expect.any(String),
    });
  });

  it('when the history grows, then the number of statements does not', async () => {
    const { accountId, sessionId } = await withHistory();
    const s = scenario(ctx);
    const count = (session: string) => authenticateStatements(session, accountId);
    const before = await count(sessionId);
    for (let i = 0; i < 15; i++) await s.signIn({ id: accountId }, { device_id: `more-${i}` }, US_IP);
    for (let i = 0; i < 15; i++) await s.signIn({ id: `other-${i}` }, { device_id: 'shared-device-0' }, US_IP);
    const after = await count(await s.ingest(personSession({ device_id: 'shared-device-1' }), US_IP));
    expect(after).toBe(before);
  });
});

/** A trigger that fails the given write, on either engine. */
async function failOn(db: Knex, table: string, op: 'INSERT' | 'UPDATE'): Promise<() => Promise<void>> {
  const name = `fail_${table}_${op.toLowerCase()}`;
  if (db.client.config.client === 'pg') {
    await db.raw(
      `CREATE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$ LANGUAGE plpgsql`,
    );
    await db.raw(`CREATE TRIGGER ${name} BEFORE ${op} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`);
    return async () => {
      await db.raw(`DROP TRIGGER ${name} ON ${table}`);
      await db.raw(`DROP FUNCTION ${name}()`);
    };
  }
  await db.raw(`CREATE TRIGGER ${name} BEFORE ${op} ON ${table} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
  return async () => {
    await db.raw(`DROP TRIGGER ${name}`);
  };
}

/** Everything an authenticate writes, as the database holds it. */
async function written(db: Knex, projectId: string, sessionId: string) {
  return {
    accounts: await db('accounts').where({ project_id: projectId }).orderBy('id'),
    links: await db('session_accounts').where({ project_id: projectId }).orderBy(['session_id', 'account_id']),
    identifiers: await db('identifier_accounts')
      .where({ project_id: projectId })
      .orderBy(['kind', 'value', 'account_id']),
    members: await db('list_members').where({ project_id: projectId }).orderBy(['list_name', 'account_id']),
    lists: await db('lists').where({ project_id: projectId }).orderBy('name'),
    domains: await db('email_domains').where({ project_id: projectId }).orderBy('domain'),
    session: await db('sessions')
      .where({ id: sessionId })
      .first('decision', 'account_score', 'evaluated_at', 'risk_scores', 'rules_outcome'),
  };
}

describe('the evaluation write', () => {
  const steps: [string, 'INSERT' | 'UPDATE'][] = [
    ['accounts', 'UPDATE'],
    ['email_domains', 'INSERT'],
    ['email_domains', 'UPDATE'],
    ['session_accounts', 'INSERT'],
    ['identifier_accounts', 'INSERT'],
    ['lists', 'INSERT'],
    ['list_members', 'INSERT'],
    ['sessions', 'UPDATE'],
  ];
  it.each(steps)('when the write to %s (%s) fails, then nothing of the evaluation is written', async (table, op) => {
    const s = scenario(ctx);
    // An existing account moving to another domain and onto lists, with a session not yet linked.
    await s.signIn({ id: 'acct', email: 'acct@example.org' });
    const sessionId = await s.ingest(personSession());
    const before = await written(ctx.testDb.db, ctx.project.project_id, sessionId);
    const restore = await failOn(ctx.testDb.db, table, op);
    try {
      const res = await s.authenticate(sessionId, { id: 'acct', email: 'acct@example.net', lists: ['vip', 'block'] });
      expect(res.status).toBe(500);
    } finally {
      await restore();
    }
    expect(await written(ctx.testDb.db, ctx.project.project_id, sessionId)).toEqual(before);
    // And the same request succeeds once the database does, with everything written.
    const ok = await s.authenticated(sessionId, { id: 'acct', email: 'acct@example.net', lists: ['vip', 'block'] });
    expect(ok.decision).toBe('Fake');
    const after = await written(ctx.testDb.db, ctx.project.project_id, sessionId);
    expect(after.links.map((l: { session_id: string }) => l.session_id)).toContain(sessionId);
    expect(after.identifiers.length).toBeGreaterThan(before.identifiers.length);
    expect(after.members.map((m: { list_name: string }) => m.list_name)).toEqual(['block', 'vip']);
    expect(after.session?.decision).toBe('Fake');
  });

  it("when a rule's list write fails, then nothing of the evaluation is written", async () => {
    const s = scenario(ctx);
    await s.signIn({ id: 'ruled' });
    const rules = [
      { id: 'review-all', when: { field: 'bot', op: 'gte', value: 0 }, then: { add_to_lists: ['review'] } },
    ];
    expect((await request(ctx.app).put('/rules').set('x-api-key', ctx.project.api_key).send({ rules })).status).toBe(
      200,
    );
    const sessionId = await s.ingest(personSession());
    const before = await written(ctx.testDb.db, ctx.project.project_id, sessionId);
    const restore = await failOn(ctx.testDb.db, 'list_members', 'INSERT');
    try {
      expect((await s.authenticate(sessionId, { id: 'ruled' })).status).toBe(500);
    } finally {
      await restore();
    }
    expect(await written(ctx.testDb.db, ctx.project.project_id, sessionId)).toEqual(before);
    const ok = await s.authenticated(sessionId, { id: 'ruled' });
    expect(ok.lists).toEqual(['review']);
    const after = await written(ctx.testDb.db, ctx.project.project_id, sessionId);
    expect(after.members.map((m: { list_name: string }) => m.list_name)).toEqual(['review']);
  });

  it.each([6, 24])(
    'when %i authenticates of one account arrive at once, then every one is evaluated and counted in its aggregates (no conflict reaches the caller)',
    async (crowd) => {
      const s = scenario(ctx);
      const id = `crowd-${crowd}`;
      await s.signIn({ id });
      const sessions = await Promise.all(Array.from({ length: crowd }, () => s.ingest(personSession())));
      const results = await Promise.all(sessions.map((session) => s.authenticate(session, { id })));
      expect(results.map((r) => r.status)).toEqual(sessions.map(() => 200));
      const account = await request(ctx.app).get(`/account/${id}`).set('x-api-key', ctx.project.api_key).expect(200);
      expect(account.body.num_sessions).toBe(crowd + 1);
    },
  );

  it('when the aggregates are recomputed from the sessions in SQL, then they are what the evaluations kept', async () => {
    const s = scenario(ctx);
    const places = [US_IP, '81.2.69.142', US_IP, '2.120.1.1'];
    for (const [i, ip] of places.entries()) await s.signIn({ id: 'traveller' }, { device_id: `d-${i}` }, ip);
    // Authenticated again: the session is already linked, nothing is counted twice.
    const again = await s.ingest(personSession(), US_IP);
    await s.authenticated(again, { id: 'traveller' });
    await s.authenticated(again, { id: 'traveller' });
    const columns = ['num_sessions', 'first_seen', 'last_seen', 'last_session_id', 'last_country', 'countries'];
    const read = () =>
      ctx.testDb.db('accounts').where({ project_id: ctx.project.project_id, id: 'traveller' }).first(columns);
    const kept = await read();
    expect(kept.num_sessions).toBe(5);
    await ctx.services.repos.accounts.refreshAggregates(ctx.project.project_id, ['traveller']);
    expect(await read()).toEqual(kept);
  });

  it('when more accounts are looked up than one statement can bind, then all are read', async () => {
    const s = scenario(ctx);
    await s.signIn({ id: 'needle-1' });
    await s.signIn({ id: 'needle-2' });
    const ids = Array.from({ length: 12_000 }, (_, i) => `absent-${i}`);
    ids.splice(3, 0, 'needle-1');
    ids.push('needle-2');
    const found = await ctx.services.repos.store.accounts(ctx.project.project_id, ids);
    expect([...found.keys()].sort()).toEqual(['needle-1', 'needle-2']);
  });
});
