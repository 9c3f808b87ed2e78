/**
 * GET /stats through HTTP with a real database: the evaluations of each UTC day by decision and
 * the signals they raised, from the counts each evaluation tallies in memory and the flusher
 * writes (called directly here: no timer, no sleep); two processes' flushes add up; the
 * default range (the last 14 days), every day of the range listed (zeros included), another
 * project's evaluations not counted, and refused ranges (a 400 naming the field, nothing written).
 * Response validation is on, so every answer is also checked against openapi.yaml.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AuthenticateResponse, EvaluationStats } from '../../src/api-types';
import { createApp } from '../../src/app';
import { makeServices } from '../../src/composition';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { makeChangeProbe, type ChangeProbe } from '../helpers/db-changes';
import { AWS_IP, LONDON_IP, scenario } from '../helpers/evaluation';

let ctx: TestContext;
let probe: ChangeProbe;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback', rateLimitStore: 'memory' });
  probe = await makeChangeProbe(ctx.testDb);
});
afterAll(async () => {
  await probe.close();
  await ctx.close();
});
beforeEach(() => ctx.clock.set(TEST_NOW));

const DAY = 86_400_000;
const later = (days: number) => new Date(Date.parse(TEST_NOW) + days * DAY);

async function newProject() {
  const p = await ctx.services.projects.create({ name: `Stats ${randomUUID()}` });
  return {
    apiKey: p.api_key,
    projectId: p.project_id,
    ...scenario(ctx, p.api_key, p.project_id),
    stats: (query = '') => request(ctx.app).get(`/stats${query}`).set('x-api-key', p.api_key),
    block: (id: string) => request(ctx.app).post(`/list/block/account/${id}`).set('x-api-key', p.api_key),
  };
}

/** The signals the answers reported raised, counted, as getStats orders them. */
function tally(answers: AuthenticateResponse[]) {
  const counts = new Map<string, number>();
  for (const a of answers)
    for (const [name, raised] of Object.entries(a.session.risk_signals))
      if (raised === true) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([signal, count]) => ({ signal, count }));
}

describe('GET /stats', () => {
  test('when a project has evaluations on two days, then each day counts them by decision and the signals they raised', async () => {
    const p = await newProject();
    const other = await newProject();
    // 2026-11-20: a Real sign-in from London, one from a datacenter, then that account blocked (Fake).
    const first = [await p.signIn({ id: 'ada' }, {}, LONDON_IP), await p.signIn({ id: 'bob' }, {}, AWS_IP)];
    expect((await p.block('bob')).status).toBe(200);
    first.push(await p.signIn({ id: 'bob' }, {}, LONDON_IP));
    await ctx.services.statsFlusher.flush();
    expect(first.map((r) => r.decision)).toEqual(['Real', 'Real', 'Fake']);
    await other.signIn({ id: 'elsewhere' }); // another project's: not counted here
    ctx.clock.set(later(1));
    const second = [await p.signIn({ id: 'ada' }, {}, LONDON_IP)];
    await ctx.services.statsFlusher.flush();

    const res = await p.stats('?from=2026-11-19&to=2026-11-21');
    expect(res.status).toBe(200);
    const body = res.body as EvaluationStats;
    expect(body).toMatchObject({ from: '2026-11-19', to: '2026-11-21' });
    expect(body.days).toEqual([
      { day: '2026-11-19', Real: 0, Fake: 0 },
      { day: '2026-11-20', Real: 2, Fake: 1 },
      { day: '2026-11-21', Real: 1, Fake: 0 },
    ]);
    const expected = tally([...first, ...second]);
    expect(expected).toContainEqual({ signal: 'datacenter', count: 1 });
    expect(body.signals).toEqual(expected);

    // One day alone.
    const one = (await p.stats('?from=2026-11-21&to=2026-11-21')).body as EvaluationStats;
    expect(one.days).toEqual([{ day: '2026-11-21', Real: 1, Fake: 0 }]);
    expect(one.signals).toEqual(tally(second));
  });

  test('when no range is given, then the 14 days to today (UTC), today last', async () => {
    const p = await newProject();
    await p.signIn({ id: 'today' });
    await ctx.services.statsFlusher.flush();
    const body = (await p.stats()).body as EvaluationStats;
    expect(body.from).toBe('2026-11-07');
    expect(body.to).toBe('2026-11-20');
    expect(body.days).toHaveLength(14);
    expect(body.days.at(-1)).toEqual({ day: '2026-11-20', Real: 1, Fake: 0 });
    expect(body.days.slice(0, 13).every((d) => d.Real === 0 && d.Fake === 0)).toBe(true);
  });

  test.each([
    ['?from=2026-11-21&to=2026-11-20', /from must not be after to/],
    ['?to=2026-02-30', /to must be a day/],
    ['?from=2026-13-01&to=2026-11-20', /from must be a day/],
    ['?from=2026-08-22&to=2026-11-20', /at most 90 days/],
    ['?from=20261101', /from/],
    ['?days=3', /days/],
  ])('when the range is %s, then a 400 naming the field, and nothing is written', async (query, message) => {
    const p = await newProject();
    const mark = await probe.mark();
    const res = await p.stats(query);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    await expect(probe.writesSince(mark)).resolves.toEqual([]);
  });

  test('when the range is the longest allowed (90 days), then 90 days are answered', async () => {
    const p = await newProject();
    const body = (await p.stats('?from=2026-08-23&to=2026-11-20')).body as EvaluationStats;
    expect(body.days).toHaveLength(90);
    expect(body.signals).toEqual([]);
  });

  test('when evaluations are made, then none writes a count: GET /stats shows them once flushed, and a flush with nothing tallied writes nothing', async () => {
    const p = await newProject();
    const answers = [
      await p.signIn({ id: 'n1' }, {}, LONDON_IP),
      await p.signIn({ id: 'n2' }, {}, AWS_IP),
      await p.signIn({ id: 'n3' }, {}, LONDON_IP),
      await p.signIn({ id: 'n1' }, {}, LONDON_IP),
    ];
    const today = '?from=2026-11-20&to=2026-11-20';
    expect(((await p.stats(today)).body as EvaluationStats).days).toEqual([{ day: '2026-11-20', Real: 0, Fake: 0 }]);

    await expect(ctx.services.statsFlusher.flush()).resolves.toBeGreaterThan(0);
    const body = (await p.stats(today)).body as EvaluationStats;
    expect(body.days).toEqual([{ day: '2026-11-20', Real: 4, Fake: 0 }]);
    expect(body.signals).toEqual(tally(answers));

    const again = await probe.mark();
    await expect(ctx.services.statsFlusher.flush()).resolves.toBe(0);
    await expect(probe.writesSince(again)).resolves.toEqual([]);
  });

  test('when two processes evaluate for one project on one database, then their flushes add up', async () => {
    const p = await newProject();
    // A second process: its own services (tally, flusher, caches) and app on the same database.
    const services = makeServices({ ...ctx.deps });
    const twin = { ...ctx, app: createApp({ config: ctx.config, services, contract: ctx.contract }), services };
    const q = scenario(twin, p.apiKey, p.projectId);
    await p.signIn({ id: 'a1' }, {}, LONDON_IP);
    await q.signIn({ id: 'b1' }, {}, LONDON_IP);
    await q.signIn({ id: 'b2' }, {}, LONDON_IP);
    await Promise.all([ctx.services.statsFlusher.flush(), services.statsFlusher.flush()]);
    await p.signIn({ id: 'a2' }, {}, LONDON_IP);
    await ctx.services.statsFlusher.flush();
    const body = (await p.stats('?from=2026-11-20&to=2026-11-20')).body as EvaluationStats;
    expect(body.days).toEqual([{ day: '2026-11-20', Real: 4, Fake: 0 }]);
  });

  test('when the flusher stops (a graceful shutdown), then what is left is written', async () => {
    const p = await newProject();
    const services = makeServices({ ...ctx.deps });
    const twin = { ...ctx, app: createApp({ config: ctx.config, services, contract: ctx.contract }), services };
    await scenario(twin, p.apiKey, p.projectId).signIn({ id: 'last' }, {}, LONDON_IP);
    services.statsFlusher.start(3_600_000);
    await services.statsFlusher.stop();
    const body = (await p.stats('?from=2026-11-20&to=2026-11-20')).body as EvaluationStats;
    expect(body.days).toEqual([{ day: '2026-11-20', Real: 1, Fake: 0 }]);
  });

  test('when a project is reset, then its counts are gone, flushed or not, and another project’s stay', async () => {
    const created = await ctx.services.projects.create({ name: `Reset ${randomUUID()}`, test: true });
    const p = scenario(ctx, created.api_key, created.project_id);
    const kept = await newProject();
    const stats = (key: string) => request(ctx.app).get('/stats?from=2026-11-20&to=2026-11-20').set('x-api-key', key);
    await p.signIn({ id: 'flushed' }, {}, LONDON_IP);
    await ctx.services.statsFlusher.flush();
    await p.signIn({ id: 'tallied' }, {}, LONDON_IP);
    await kept.signIn({ id: 'neighbour' }, {}, LONDON_IP);
    await ctx.services.projects.reset(created.project_id);
    await ctx.services.statsFlusher.flush();
    expect(((await stats(created.api_key)).body as EvaluationStats).days).toEqual([
      { day: '2026-11-20', Real: 0, Fake: 0 },
    ]);
    expect(((await kept.stats('?from=2026-11-20&to=2026-11-20')).body as EvaluationStats).days).toEqual([
      { day: '2026-11-20', Real: 1, Fake: 0 },
    ]);
  });
});
