/**
 * Labels through HTTP with a real database: POST /account/{account_id}/label (history, the
 * current label on GET /account, the audit event in the same transaction), GET
 * /account/{account_id}/labels (newest first, by cursor), refusals that write nothing, tenant
 * isolation, erasure, and GET /labels/report's numbers on a small labelled set counted by hand.
 * Response validation is on, so every answer is also checked against openapi.yaml.
 */
import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AuditEvent, LabelReport } from '../../src/api-types';
import { makeLabelUseCases } from '../../src/usecases/labels';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { makeChangeProbe, type ChangeProbe } from '../helpers/db-changes';
import { scenario } from '../helpers/evaluation';

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
const at = (ms: number) => new Date(Date.parse(TEST_NOW) + ms).toISOString();

let ips = 0;
/** A residential London address (Sky UK) in a /24 of its own. */
function freshIp(): string {
  const n = ips++;
  return `90.${200 + Math.floor(n / 250)}.${n % 250}.30`;
}

async function newProject() {
  const p = await ctx.services.projects.create({ name: `Labels ${randomUUID()}` });
  const key = p.api_key;
  const sc = scenario(ctx, key, p.project_id);
  return {
    key,
    projectId: p.project_id,
    actor: `api_key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`,
    /** An account with one evaluated session; its session id. */
    account: async (id: string) => (await sc.signIn({ id }, {}, freshIp())).session_id,
    label: (id: string, body: unknown) =>
      request(ctx.app)
        .post(`/account/${encodeURIComponent(id)}/label`)
        .set('x-api-key', key)
        .send(body as object),
    labels: (id: string, query = '') =>
      request(ctx.app)
        .get(`/account/${encodeURIComponent(id)}/labels${query}`)
        .set('x-api-key', key),
    get: (id: string) =>
      request(ctx.app)
        .get(`/account/${encodeURIComponent(id)}`)
        .set('x-api-key', key),
    audit: () => request(ctx.app).get('/audit').set('x-api-key', key),
    report: (query = '') => request(ctx.app).get(`/labels/report${query}`).set('x-api-key', key),
  };
}

async function count(table: string, where: Record<string, unknown>): Promise<number> {
  const row = await ctx.testDb.db(table).where(where).count<{ n: number | string }[]>({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

describe('POST /account/{account_id}/label', () => {
  test('when an account is labelled, then 201 with the stored label, its current label on GET /account, and an audit event', async () => {
    const p = await newProject();
    await p.account('label-1');
    ctx.clock.advance(60_000);
    const res = await p.label('label-1', { label: 'fraud', note: 'Chargeback on order 1042' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      request_id: res.headers['x-request-id'],
      account_id: 'label-1',
      id: expect.any(String),
      label: 'fraud',
      note: 'Chargeback on order 1042',
      actor: p.actor,
      created_at: at(60_000),
    });
    const { request_id: _r, account_id: _a, ...stored } = res.body;
    expect((await p.get('label-1')).body.label).toEqual(stored);
    const audit = await p.audit();
    expect(audit.body.events).toEqual([
      {
        id: expect.any(String),
        actor: p.actor,
        action: 'account.labelled',
        account_id: 'label-1',
        request_id: res.body.request_id,
        changes: [{ field: 'label', before: null, after: 'fraud' }],
        created_at: at(60_000),
      },
    ]);
    // The note is the label's, never the audit's; the key is nowhere.
    expect(JSON.stringify(audit.body)).not.toContain('Chargeback');
    expect(JSON.stringify(audit.body)).not.toContain(p.key);
  });

  test('when an account is relabelled, then both labels are kept, the newest is current, and the audit shows before → after', async () => {
    const p = await newProject();
    await p.account('relabel-1');
    expect((await p.get('relabel-1')).body).not.toHaveProperty('label');
    expect((await p.label('relabel-1', { label: 'fraud' })).status).toBe(201);
    ctx.clock.advance(1000);
    const second = await p.label('relabel-1', { label: 'legit', note: 'Customer called' });
    expect(second.status).toBe(201);
    expect((await p.get('relabel-1')).body.label).toMatchObject({ label: 'legit', note: 'Customer called' });
    const list = await p.labels('relabel-1');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      request_id: expect.any(String),
      account_id: 'relabel-1',
      labels: [
        { id: second.body.id, label: 'legit', note: 'Customer called', actor: p.actor, created_at: at(1000) },
        { id: expect.any(String), label: 'fraud', note: null, actor: p.actor, created_at: TEST_NOW },
      ],
      next_cursor: null,
    });
    expect(await count('labels', { project_id: p.projectId, account_id: 'relabel-1', current: true })).toBe(1);
    const events = (await p.audit()).body.events;
    expect(events.map((e: { changes: unknown }) => e.changes)).toEqual([
      [{ field: 'label', before: 'fraud', after: 'legit' }],
      [{ field: 'label', before: null, after: 'fraud' }],
    ]);
  });

  test('when the account is not one of the project’s, then 404 and nothing is written', async () => {
    const p = await newProject();
    const other = await newProject();
    await other.account('theirs-1');
    const mark = await probe.mark();
    for (const res of [await p.label('nobody', { label: 'fraud' }), await p.label('theirs-1', { label: 'fraud' })]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: expect.stringMatching(/^account .* not found$/) });
    }
    expect(await probe.writesSince(mark)).toEqual([]);
    expect((await p.labels('theirs-1')).status).toBe(404);
    expect((await other.get('theirs-1')).body).not.toHaveProperty('label');
  });

  test.each([
    [{}, /must have required property 'label'/],
    [{ label: 'maybe' }, /label must be equal to one of the allowed values/],
    [{ label: 'fraud', note: 'x'.repeat(1001) }, /note must NOT have more than 1000 characters/],
    [{ label: 'fraud', note: 7 }, /note must be string/],
    [{ label: 'fraud', note: 'a\u0000b' }, /note must not contain U\+0000/],
    [{ label: 'fraud', by: 'me' }, /^by is not a property of the body \(it takes label, note\)$/],
  ])('when the body is %j, then 400 naming the field and rule, and nothing is written', async (body, message) => {
    const p = await newProject();
    await p.account('bad-input');
    const mark = await probe.mark();
    const res = await p.label('bad-input', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringMatching(message) });
    expect(await probe.writesSince(mark)).toEqual([]);
  });

  test('when there is no key, then 401', async () => {
    expect((await request(ctx.app).post('/account/x/label').send({ label: 'fraud' })).status).toBe(401);
    expect((await request(ctx.app).get('/account/x/labels')).status).toBe(401);
    expect((await request(ctx.app).get('/labels/report')).status).toBe(401);
  });

  test('when the labelled account is erased, then its labels and their notes are gone, and the audit no longer names it', async () => {
    const p = await newProject();
    await p.account('erase-labelled');
    await p.label('erase-labelled', { label: 'fraud', note: 'note-with-personal-data-4711' });
    const res = await request(ctx.app).delete('/account/erase-labelled').set('x-api-key', p.key);
    expect(res.status).toBe(200);
    expect(await count('labels', { project_id: p.projectId })).toBe(0);
    const labelRows = JSON.stringify(await ctx.testDb.db('labels').select('*'));
    const auditRows = JSON.stringify(await ctx.testDb.db('audit_events').select('*'));
    expect(labelRows + auditRows).not.toContain('note-with-personal-data-4711');
    expect(auditRows).not.toContain('erase-labelled');
    const events = (await p.audit()).body.events as AuditEvent[];
    // The label's event stays (without the account), and the erasure is recorded (without it too).
    expect(events.map((e) => e.action)).toEqual(['account.erased', 'account.labelled']);
    for (const e of events) expect(e).not.toHaveProperty('account_id');
    // The id used again is a new account, with no label.
    await p.account('erase-labelled');
    expect((await p.get('erase-labelled')).body).not.toHaveProperty('label');
  });

  test('when the project is reset, then its labels are deleted and its audit names no account', async () => {
    const p = await newProject();
    await p.account('reset-labelled');
    await p.label('reset-labelled', { label: 'legit', note: 'kept until the reset' });
    const reset = await ctx.services.projects.reset(p.projectId, { allowLive: true });
    expect(reset.deleted.labels).toBe(1);
    const events = (await p.audit()).body.events;
    expect(events).toEqual([expect.objectContaining({ action: 'account.labelled' })]);
    expect(events[0]).not.toHaveProperty('account_id');
  });
});

describe('GET /account/{account_id}/labels', () => {
  test('when there are more labels than a page, then pages follow by cursor, newest first, each label once', async () => {
    const p = await newProject();
    await p.account('paged');
    const values = ['fraud', 'legit', 'fraud', 'legit', 'fraud'] as const;
    for (const [i, label] of values.entries()) {
      ctx.clock.set(at(i * 1000));
      expect((await p.label('paged', { label, note: `n${i}` })).status).toBe(201);
    }
    const notes: string[] = [];
    let query = '?limit=2';
    for (;;) {
      const res = await p.labels('paged', query);
      expect(res.status).toBe(200);
      expect(res.body.labels.length).toBeLessThanOrEqual(2);
      notes.push(...res.body.labels.map((l: { note: string }) => l.note));
      if (!res.body.next_cursor) break;
      query = `?limit=2&cursor=${res.body.next_cursor}`;
    }
    expect(notes).toEqual(['n4', 'n3', 'n2', 'n1', 'n0']);
  });

  test('when the cursor or limit is malformed, then 400 naming it', async () => {
    const p = await newProject();
    await p.account('paged-bad');
    for (const [query, field] of [
      ['?cursor=abc', 'cursor'],
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
    ]) {
      const res = await p.labels('paged-bad', query);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(field);
    }
  });
});

describe('GET /labels/report', () => {
  /**
   * Six labelled accounts with one evaluation each in range (score, decision), an unlabelled
   * one, a labelled one evaluated before the range, and a relabelled one (its latest label counts):
   *
   *   fraud  f1 0.92 Fake   f2 0.60 Real   f3 0.32 Real
   *   legit  l1 0.12 Real (labelled fraud first)   l2 0.70 Real   l3 0.85 Fake
   */
  async function seeded() {
    const p = await newProject();
    const set = async (id: string, score: number, decision: 'Real' | 'Fake', evaluatedAt = Date.parse(TEST_NOW)) => {
      const session = await p.account(id);
      await ctx.testDb
        .db('sessions')
        .where({ id: session })
        .update({ account_score: score, decision, evaluated_at: evaluatedAt });
    };
    await set('f1', 0.92, 'Fake');
    await set('f2', 0.6, 'Real');
    await set('f3', 0.32, 'Real');
    await set('l1', 0.12, 'Real');
    await set('l2', 0.7, 'Real');
    await set('l3', 0.85, 'Fake');
    await set('unlabelled', 0.99, 'Fake');
    await set('old', 0.99, 'Fake', Date.parse(TEST_NOW) - 40 * DAY);
    for (const id of ['f1', 'f2', 'f3', 'l1', 'old']) expect((await p.label(id, { label: 'fraud' })).status).toBe(201);
    for (const id of ['l1', 'l2', 'l3']) expect((await p.label(id, { label: 'legit' })).status).toBe(201);
    return p;
  }

  const row = (tp: number, fp: number, tn: number, fn: number, precision: number | null, recall: number | null) => ({
    true_positives: tp,
    false_positives: fp,
    true_negatives: tn,
    false_negatives: fn,
    precision,
    recall,
  });

  test('when accounts are labelled, then each threshold counts their evaluations as counted by hand', async () => {
    const p = await seeded();
    const range = `?from=${encodeURIComponent(at(-30 * DAY))}&to=${encodeURIComponent(at(1))}`;
    const res = await p.report(range);
    expect(res.status).toBe(200);
    const body = res.body as LabelReport;
    expect(body).toMatchObject({
      from: at(-30 * DAY),
      to: at(1),
      evaluations: 6,
      fraud: 3,
      legit: 3,
      truncated: false,
    });
    expect(body.thresholds.map((t) => t.threshold)).toEqual([
      0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95,
    ]);
    const at_ = (t: number) => body.thresholds.find((r) => r.threshold === t);
    expect(at_(0.05)).toEqual({ threshold: 0.05, ...row(3, 3, 0, 0, 0.5, 1) });
    expect(at_(0.3)).toEqual({ threshold: 0.3, ...row(3, 2, 1, 0, 0.6, 1) });
    expect(at_(0.5)).toEqual({ threshold: 0.5, ...row(2, 2, 1, 1, 0.5, 2 / 3) });
    expect(at_(0.8)).toEqual({ threshold: 0.8, ...row(1, 1, 2, 2, 0.5, 1 / 3) });
    expect(at_(0.9)).toEqual({ threshold: 0.9, ...row(1, 0, 3, 2, 1, 1 / 3) });
    expect(at_(0.95)).toEqual({ threshold: 0.95, ...row(0, 0, 3, 3, null, 0) });
    expect(body.decision).toEqual(row(1, 1, 2, 2, 0.5, 1 / 3));

    // Another project sees none of it.
    const other = await newProject();
    expect((await other.report(range)).body).toMatchObject({ evaluations: 0, fraud: 0, legit: 0 });
  });

  test('when no range is given, then it is the 30 days before now, and the old evaluation is counted only by a range that holds it', async () => {
    const p = await seeded();
    ctx.clock.advance(1000);
    const res = await p.report();
    expect(res.body).toMatchObject({ from: at(1000 - 30 * DAY), to: at(1000), evaluations: 6 });
    const old = await p.report(`?from=${encodeURIComponent(at(-41 * DAY))}&to=${encodeURIComponent(at(-39 * DAY))}`);
    expect(old.body).toMatchObject({ evaluations: 1, fraud: 1, legit: 0 });
  });

  test('when the evaluations are read in small pages or past the cap, then the counts are the same, or truncated', async () => {
    const p = await seeded();
    const deps = { ...ctx.deps, ...ctx.services.repos };
    const range = { from: at(-30 * DAY), to: at(1) };
    const paged = await makeLabelUseCases({ ...deps, reportPage: 2 }).report(p.projectId, range, 'r');
    const whole = await makeLabelUseCases(deps).report(p.projectId, range, 'r');
    expect(paged).toEqual(whole);
    const capped = await makeLabelUseCases({ ...deps, reportPage: 2, maxReportEvaluations: 5 }).report(
      p.projectId,
      range,
      'r',
    );
    expect(capped).toMatchObject({ truncated: true, evaluations: 5 });
    const exact = await makeLabelUseCases({ ...deps, reportPage: 3, maxReportEvaluations: 6 }).report(
      p.projectId,
      range,
      'r',
    );
    expect(exact).toEqual(whole);
  });

  test.each([
    [`?from=${encodeURIComponent(at(0))}&to=${encodeURIComponent(at(0))}`, /from must be before to/],
    [`?from=${encodeURIComponent(at(-93 * DAY))}&to=${encodeURIComponent(at(0))}`, /to must be at most 92 days/],
    ['?from=yesterday', /from must match format "date-time"/],
    ['?since=2026-01-01T00:00:00Z', /since/],
  ])('when the query is %s, then 400 naming the field', async (query, message) => {
    const p = await newProject();
    const res = await p.report(query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringMatching(message) });
  });
});
