/**
 * POST /rules/test (testRules) is bounded, through the real app and database: a backtest
 * yields to the other requests between its chunks, stops when its client leaves, runs at most
 * BACKTEST_CONCURRENCY_PER_PROJECT of a project and BACKTEST_CONCURRENCY in all (one more is a
 * 429 that writes nothing), and stops at its work and time budgets, `truncated` by which
 * (docs/rules.md, "What a backtest costs"). The chunks and budgets are shrunk through the deps so
 * that a few hundred evaluations are a long backtest; progress is read from the use case's
 * running backtests, never from a duration.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../../src/app';
import { makeServices } from '../../../src/composition';
import type { BacktestSettings } from '../../../src/usecases/rules';
import { makeTestContext, type TestContext } from '../../helpers/app';
import { makeChangeProbe } from '../../helpers/db-changes';
import { AWS_IP, LONDON_IP, personSession, scenario } from '../../helpers/evaluation';

let ctx: TestContext;
/** The evaluations of the range. */
let total: number;

const range = { from: '2026-11-01T00:00:00.000Z', to: '2026-11-30T00:00:00.000Z' };
/** Twenty comparisons, as the probe's document named them: each evaluation costs 20. */
const COMPARISONS = 20;
const draft = Array.from({ length: COMPARISONS }, (_, i) => ({
  id: `linked-${i}`,
  when: { field: 'linked_accounts.match_type', op: 'contains', value: i % 2 ? 'browser' : `kind-${i}` },
  then: { tags: [`linked-${i}`] },
}));

/**
 * A few evaluations made through the API (accounts sharing a device, so their links have match
 * types), then their sessions copied in the database under new ids, a millisecond apart: a
 * history of `n` evaluations the replay reads as it would real ones.
 */
async function history(n: number): Promise<number> {
  const s = scenario(ctx);
  for (let i = 0; i < 4; i++)
    await s.signIn({ id: `user-${i}` }, { device_id: `shared-${i % 2}` }, i % 2 ? AWS_IP : LONDON_IP);
  const db = ctx.testDb.db;
  const made = await db('sessions').where({ project_id: ctx.project.project_id }).whereNotNull('evaluation_inputs');
  for (let i = made.length; i < n; i += 100) {
    const copies = Array.from({ length: Math.min(100, n - i) }, (_, k) => {
      const of = made[(i + k) % made.length] as Record<string, unknown>;
      return {
        ...of,
        id: ctx.deps.random.uuid(),
        evaluation_request_id: ctx.deps.random.uuid(),
        start_time: Number(of.start_time) + i + k,
      };
    });
    const facts = await db('session_facts').whereIn(
      'session_id',
      copies.map((_, k) => (made[(i + k) % made.length] as { id: string }).id),
    );
    const factsOf = new Map(facts.map((f: { session_id: string }) => [f.session_id, f]));
    await db('sessions').insert(copies);
    await db('session_facts').insert(
      copies.map((c, k) => ({ ...factsOf.get((made[(i + k) % made.length] as { id: string }).id), session_id: c.id })),
    );
  }
  return n;
}

beforeAll(async () => {
  // Rate limits counted in memory: a refused backtest is seen to write nothing to the database.
  ctx = await makeTestContext({ rateLimitStore: 'memory' });
  total = await history(2000);
}, 120_000);
afterAll(async () => {
  await ctx.close();
});

/** An app on the context's database whose backtests have these bounds. */
function appWith(backtest: Partial<BacktestSettings>): {
  app: Express;
  running: () => readonly { replayed: number }[];
} {
  const services = makeServices({ ...ctx.deps, backtest });
  return {
    app: createApp({ config: ctx.config, services, contract: ctx.contract }),
    running: services.rules.backtests,
  };
}

const post = (app: Express, apiKey = ctx.project.api_key) =>
  request(app)
    .post('/rules/test')
    .set('x-api-key', apiKey)
    .send({ rules: draft, ...range });

/** Turns of the event loop until `done` holds (a bound on turns, not on time, so that a broken promise fails). */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let turn = 0; !done(); turn++) {
    if (turn > 1_000_000) throw new Error(`never: ${what}`);
    await nextTurn();
  }
}

describe('POST /rules/test while other requests arrive', () => {
  it('when a long backtest is running, then another project’s authenticate and a read are answered before it finishes', async () => {
    // One evaluation per chunk: 2,000 turns of the event loop, many times what the other requests take.
    const { app, running } = appWith({ chunkWork: 1 });
    const other = await ctx.services.projects.create({ name: 'Another project' });
    const sessionId = await scenario(ctx, other.api_key, other.project_id).ingest(personSession({}), LONDON_IP);
    const backtest = post(app).then((res) => res);
    await until(() => (running()[0]?.replayed ?? 0) > 0, 'the backtest replays');
    const signIn = await request(app)
      .post('/session/authenticate')
      .set('x-api-key', other.api_key)
      .send({ session_id: sessionId, account: { id: 'someone' } });
    expect(signIn.status).toBe(200);
    const read = await request(app).get('/rules').set('x-api-key', ctx.project.api_key);
    expect(read.status).toBe(200);
    // Both answered while the backtest had not finished.
    expect(running()).toHaveLength(1);
    expect(running()[0]!.replayed).toBeLessThan(total);
    const res = await backtest;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ evaluations: total, truncated: false, truncated_by: null });
    // The draft was replayed, not skipped: its rules matched the links' match types.
    expect(res.body.rules.some((r: { matched: number }) => r.matched > 0)).toBe(true);
  });
});

describe('POST /rules/test when its client leaves', () => {
  it('when the client disconnects mid-backtest, then the replay stops there and its place is freed', async () => {
    const { app, running } = appWith({ chunkWork: 1 });
    // A server of its own: the client's connection is closed by aborting its fetch.
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const client = new AbortController();
      const { port } = server.address() as AddressInfo;
      const sent = fetch(`http://127.0.0.1:${port}/rules/test`, {
        method: 'POST',
        headers: { 'x-api-key': ctx.project.api_key, 'content-type': 'application/json' },
        body: JSON.stringify({ rules: draft, ...range }),
        signal: client.signal,
      }).catch((err: unknown) => err);
      await until(() => (running()[0]?.replayed ?? 0) > 0, 'the backtest replays');
      client.abort();
      expect(await sent).toMatchObject({ name: 'AbortError' });
      await until(() => running().length === 0, 'the backtest stops');
    } finally {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    }
    const stopped = ctx.logs.filter((l) => l.msg === 'backtest abandoned: its client left');
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.replayed as number).toBeGreaterThan(0);
    expect(stopped[0]!.replayed as number).toBeLessThan(total);
    // Its place was given back: the project's next backtest runs (one place per project).
    expect((await post(app)).status).toBe(200);
  });
});

describe('POST /rules/test beyond the backtests run at once', () => {
  it('when the project already runs its one backtest, then the next is 429 with Retry-After and writes nothing', async () => {
    const { app, running } = appWith({ chunkWork: 1, concurrencyPerProject: 1, concurrency: 2, timeBudgetMs: 20_000 });
    const first = post(app).then((res) => res);
    await until(() => (running()[0]?.replayed ?? 0) > 0, 'the first backtest replays');
    const probe = await makeChangeProbe(ctx.testDb);
    try {
      const mark = await probe.mark();
      const second = await post(app);
      expect(second.status).toBe(429);
      // The fixed clock: the running backtest's deadline is its whole time budget away.
      expect(second.headers['retry-after']).toBe('20');
      expect(second.body.message).toMatch(/BACKTEST_CONCURRENCY_PER_PROJECT/);
      expect(await probe.writesSince(mark)).toEqual([]);
    } finally {
      await probe.close();
    }
    expect((await first).status).toBe(200);
  });

  it('when the server already runs its backtests in all, then another project’s is 429 too', async () => {
    const { app, running } = appWith({ chunkWork: 1, concurrencyPerProject: 5, concurrency: 2 });
    const other = await ctx.services.projects.create({ name: 'Another project' });
    const both = [post(app).then((res) => res), post(app).then((res) => res)];
    await until(() => running().length === 2, 'both backtests run');
    const refused = await post(app, other.api_key);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/BACKTEST_CONCURRENCY\)/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    for (const res of await Promise.all(both)) expect(res.status).toBe(200);
  });
});

describe('POST /rules/test under its budgets', () => {
  it('when the draft’s work over the range exceeds the budget, then it stops there, truncated by work_budget', async () => {
    const { app } = appWith({ workBudget: COMPARISONS * 7 });
    const res = await post(app);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ evaluations: 7, truncated: true, truncated_by: 'work_budget' });
  });

  it('when the draft alone holds more comparisons than the budget, then 400 names rules and what to reduce', async () => {
    const { app } = appWith({ workBudget: COMPARISONS - 1 });
    const res = await post(app);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(
      /^request\/body\/rules holds 20 comparisons; .* at most 19 .*remove rules or conditions/,
    );
  });

  it('when the time budget runs out, then it answers what it replayed, truncated by time_budget', async () => {
    // A budget of nothing: past the deadline after the first chunk (five evaluations), by the fixed clock.
    const { app } = appWith({ timeBudgetMs: 0, chunkWork: COMPARISONS * 5 });
    const res = await post(app);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ evaluations: 5, truncated: true, truncated_by: 'time_budget' });
  });
});
