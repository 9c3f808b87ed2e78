/**
 * GET /evaluation/{request_id} (getEvaluation): every authenticate and unauthenticated answer
 * has a receipt (while it is its session's latest evaluation) whose terms recompute, by the
 * documented formula computed here independently, to the answer's four scores exactly; whose
 * decision follows from its threshold, list, rule or test mode; that another project cannot
 * read; that the account's erasure forgets. POST /rules/test (testRules) replays drafts over them.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { parse } from 'yaml';
import type {
  AuthenticateResponse,
  ConfusionCounts,
  RulesTestResult,
  EvaluationReceipt,
  ScoreBreakdown,
  UnauthenticatedResponse,
} from '../../../src/api-types';
import { makeTestContext, type TestContext } from '../../helpers/app';
import { AWS_IP, LONDON_IP, personSession, scenario, US_IP } from '../../helpers/evaluation';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await makeTestContext();
});
afterEach(async () => {
  await ctx.close();
});

const held = (x: number) => Math.min(1, Math.max(0, x));
const to3 = (x: number) => Math.round(x * 1000) / 1000;

/** docs/scoring.md: value = (1 − Π (1 − pᵢ)^countᵢ) · (1 − discount.p), pᵢ = weightᵢ · strengthᵢ. */
function recompute(b: ScoreBreakdown): number {
  let none = 1;
  for (const t of b.terms) {
    expect(t.p).toBe(held(t.weight * t.strength));
    expect(t.raised).toBe(t.p > 0);
    for (let i = 0; i < t.count; i++) none *= 1 - t.p;
  }
  const risk = held(1 - none);
  return b.discount ? held(risk * (1 - held(b.discount.weight * b.discount.strength))) : risk;
}

async function receiptOf(requestId: string, apiKey = ctx.project.api_key) {
  return request(ctx.app).get(`/evaluation/${requestId}`).set('x-api-key', apiKey);
}

/** The receipt of an answer, checked against it: the terms recompute to its scores, its decision follows. */
async function checked(answer: AuthenticateResponse | UnauthenticatedResponse): Promise<EvaluationReceipt> {
  const res = await receiptOf(answer.request_id);
  expect(res.status).toBe(200);
  const r = res.body as EvaluationReceipt;
  expect(JSON.stringify(r).length).toBeLessThan(4096);
  expect(r).toMatchObject({ request_id: answer.request_id, session_id: answer.session_id, decision: answer.decision });
  expect(r.rules).toEqual(answer.rules);
  for (const score of ['account_score', 'bot', 'multiple_accounts', 'risk_signals'] as const) {
    const value = recompute(r.breakdown[score]);
    expect(value).toBe(r.breakdown[score].value);
    expect(to3(value)).toBe(answer[score]);
    expect(r.scores[score]).toBe(answer[score]);
  }
  // account_score's terms are the other three scores, unrounded.
  const parts = Object.fromEntries(r.breakdown.account_score.terms.map((t) => [t.name, t.strength]));
  expect(parts).toMatchObject({
    bot: r.breakdown.bot.value,
    risk_signals: r.breakdown.risk_signals.value,
    multiple_accounts: r.breakdown.multiple_accounts.value,
  });
  const linked = r.breakdown.multiple_accounts.terms.reduce((n, t) => n + t.count, 0);
  if (!r.inputs.lists.includes('main_account')) expect(linked).toBe(r.inputs.accounts_linked);
  // The score as reported decides (docs/scoring.md, "Decision").
  const byScore = r.scores.account_score >= r.threshold ? 'Fake' : 'Real';
  switch (r.decided_by.source) {
    case 'threshold':
      expect(r.decision).toBe(byScore);
      break;
    case 'test_mode':
    case 'list':
      if (r.decided_by.list === null) expect(r.decision).toBe(byScore);
      else expect(r.decision).toBe(r.decided_by.list === 'block' ? 'Fake' : 'Real');
      break;
    case 'rule':
      expect(r.rules.matched).toContain(r.decided_by.rule);
      expect(r.rules.decided_by).toBe(r.decided_by.rule);
      break;
  }
  return r;
}

/** Bot-like, crawler, hosting and person sessions, signed in and evaluated unauthenticated. */
async function evaluations(): Promise<EvaluationReceipt[]> {
  const s = scenario(ctx);
  const receipts: EvaluationReceipt[] = [];
  // Each receipt read at once: a session keeps its latest evaluation's only.
  const push = async (a: AuthenticateResponse | UnauthenticatedResponse) => {
    receipts.push(await checked(a));
  };
  const headless = {
    automation: { webdriver: true, signals: [] },
    events: { mouse: 0, click: 0, keyboard: 0, touch: 0, clipboard: 0 },
  };
  for (let i = 0; i < 6; i++)
    await push(
      await s.signIn(
        { id: `crowd-${i}`, email: `crowd${i}@example.org`, phone: '+14155550123' },
        { device_id: `shared-${i % 2}`, ...(i % 3 === 0 ? headless : {}) },
        i % 2 ? US_IP : LONDON_IP,
        true,
      ),
    );
  for (let i = 0; i < 4; i++)
    await push(
      await s.signIn(
        { id: 'member', email: 'ada@gmail.com', first_name: 'Ada', last_name: 'Lovelace' },
        { device_id: `shared-${i % 2}` },
        i % 2 ? AWS_IP : LONDON_IP,
      ),
    );
  await push(await s.signIn({ id: 'blocked', lists: ['block'] }, { device_id: 'shared-0' }));
  await push(await s.signIn({ id: 'allowed', lists: ['allow'] }, headless, AWS_IP));
  await push(await s.signIn({ id: 'main', lists: ['main_account'] }, { device_id: 'shared-1' }));
  await push(await s.signIn({ id: 'crawler' }, { user_agent: 'curl/8.4.0', languages: [] }, AWS_IP));
  for (let i = 0; i < 6; i++) {
    const id = await s.ingest(
      personSession({ device_id: `shared-${i % 3}`, ...(i === 4 ? headless : {}) }),
      i % 2 ? US_IP : AWS_IP,
    );
    await push(await s.unauthenticated(id, i % 2 === 0));
    if (i < 3) await push(await s.authenticated(id, { id: `crowd-${i}` }, true));
  }
  const put = await request(ctx.app)
    .put('/rules')
    .set('x-api-key', ctx.project.api_key)
    .send({
      rules: [
        {
          id: 'linked-is-fake',
          when: { field: 'accounts_linked', op: 'gte', value: 2 },
          then: { decision: 'Fake', tags: ['linked'] },
        },
        {
          id: 'tag-hosting',
          when: { field: 'session.risk_signals.datacenter', op: 'eq', value: true },
          then: { tags: ['hosting'] },
        },
      ],
    });
  expect(put.status).toBe(200);
  for (let i = 0; i < 5; i++)
    await push(await s.signIn({ id: `ruled-${i}` }, { device_id: 'shared-0' }, i % 2 ? AWS_IP : US_IP, true));
  await push(await s.signIn({ id: 'blocked' }, { device_id: 'shared-0' }));
  await push(await s.unauthenticated(await s.ingest(personSession({ device_id: 'shared-1' }), AWS_IP)));
  return receipts;
}

describe('GET /evaluation/{request_id}', () => {
  it('when many evaluations are read back, then each receipt recomputes to its answer exactly and says what decided', async () => {
    const receipts = await evaluations();
    expect(receipts.length).toBeGreaterThanOrEqual(30);
    const sources = new Set(receipts.map((r) => r.decided_by.source));
    expect([...sources].sort()).toEqual(['list', 'rule', 'threshold']);
    expect(receipts.some((r) => r.decision === 'Fake' && r.decided_by.source === 'threshold')).toBe(true);
    expect(receipts.some((r) => r.breakdown.multiple_accounts.terms.length > 0)).toBe(true);
    expect(receipts.some((r) => r.breakdown.bot.terms.find((t) => t.name === 'automation')?.raised)).toBe(true);
    expect(receipts.some((r) => r.breakdown.bot.terms.find((t) => t.name === 'crawler')?.raised)).toBe(true);
    expect(receipts.some((r) => r.operation === 'evaluateUnauthenticatedSession' && r.account_id === null)).toBe(true);
    expect(receipts.some((r) => r.inputs.email_score !== null)).toBe(true);
    expect(new Set(receipts.map((r) => r.scoring_version)).size).toBe(1);
    // What each evaluation kept for its receipt: one compact value on its session row.
    const kept: { evaluation_inputs: string }[] = await ctx.testDb
      .db('sessions')
      .whereNotNull('evaluation_inputs')
      .select('evaluation_inputs');
    const sizes = kept.map((k) => Buffer.byteLength(k.evaluation_inputs)).sort((a, b) => a - b);
    expect(sizes.at(-1)).toBeLessThanOrEqual(600);
  });

  it("when a web session's SDK post reports tampering with a person's interaction, then its bot score is above the floor and the receipt's tampering term carries it", async () => {
    const s = scenario(ctx);
    const tampering = ['browser_tampering_detected', 'navigator_getters_overridden'];
    const person = await s.signIn({ id: 'person' });
    const stealth = await s.signIn({ id: 'stealth' }, { tampering });
    const passive = await s.unauthenticated(await s.ingest(personSession({ tampering })));
    expect(person.bot).toBe(0.02);
    expect(stealth.session.risk_signal_details.device).toEqual(tampering);
    // docs/scoring.md: 1 - 0.98 · (1 - 0.7 · 0.96), the interaction leaving next to no doubt.
    for (const answer of [stealth, passive]) {
      expect(answer.bot).toBe(0.679);
      const r = await checked(answer);
      const term = r.breakdown.bot.terms.find((t) => t.name === 'tampering');
      expect(term).toEqual({ name: 'tampering', weight: 0.7, strength: 0.96, p: 0.7 * 0.96, raised: true, count: 1 });
      expect(r.breakdown.bot.terms.find((t) => t.name === 'no_interaction')!.strength).toBeLessThan(1e-5);
    }
    expect(stealth).toMatchObject({ account_score: 0.901, decision: 'Fake' });
    expect((await checked(person)).breakdown.bot.terms.find((t) => t.name === 'tampering')).toMatchObject({
      strength: 0,
      raised: false,
    });
  });

  it('when a test project account id forces the outcome, then the receipt says test mode and still recomputes', async () => {
    const project = await ctx.services.projects.create({ name: 'tests', test: true });
    const s = scenario(ctx, project.api_key, project.project_id);
    for (const id of ['test_fake', 'test_real', 'test_signal_tor']) {
      const answer = await s.signIn({ id }, {}, LONDON_IP);
      const res = await receiptOf(answer.request_id, project.api_key);
      expect(res.status).toBe(200);
      const r = res.body as EvaluationReceipt;
      expect(r.decided_by.source).toBe('test_mode');
      expect(r.inputs.test_mode).toBe(id === 'test_fake' ? 'fake' : id === 'test_real' ? 'real' : 'signal');
      for (const score of ['account_score', 'bot', 'multiple_accounts', 'risk_signals'] as const)
        expect(to3(recompute(r.breakdown[score]))).toBe(answer[score]);
    }
  });

  it("when another project asks for a project's receipt, then it is not found", async () => {
    const answer = await scenario(ctx).signIn({ id: 'a-1' });
    const other = await ctx.services.projects.create({ name: 'other' });
    const res = await receiptOf(answer.request_id, other.api_key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: `Evaluation ${answer.request_id} not found` });
    expect((await receiptOf(answer.request_id)).status).toBe(200);
  });

  it('when the id is unknown, or the id of a request that evaluated nothing, then 404; when it is not a request id, then 400', async () => {
    const s = scenario(ctx);
    const id = await s.ingest(personSession());
    const get = await request(ctx.app).get(`/session/${id}`).set('x-api-key', ctx.project.api_key).expect(200);
    expect((await receiptOf(get.body.request_id)).status).toBe(404);
    expect((await receiptOf('2e8a4c6f-0b1d-4e3f-a5c7-9d1e3f5a7b9c')).status).toBe(404);
    const bad = await receiptOf('short');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/request_id/);
  });

  it('when a session is evaluated again, then the earlier evaluation has no receipt any more and the latest has', async () => {
    const s = scenario(ctx);
    const first = await s.signIn({ id: 'again' });
    expect((await receiptOf(first.request_id)).status).toBe(200);
    const second = await s.unauthenticated(first.session_id);
    expect((await receiptOf(first.request_id)).status).toBe(404);
    await checked(second);
  });

  it("when an account is erased, then its sessions' receipts are forgotten and other accounts' stay", async () => {
    const s = scenario(ctx);
    const signedIn = await s.signIn({ id: 'erase-me', email: 'erase@example.org' });
    const other = await s.signIn({ id: 'keep-me' });
    await request(ctx.app).delete('/account/erase-me').set('x-api-key', ctx.project.api_key).expect(200);
    expect((await receiptOf(signedIn.request_id)).status).toBe(404);
    expect((await receiptOf(other.request_id)).status).toBe(200);
    const rows = await ctx.testDb.db('sessions').whereNotNull('evaluation_inputs').select('evaluation_inputs');
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain('erase');
  });

  it('when an evaluation is recorded, then the session row keeps it with its request id and a compact value, and no other row', async () => {
    const s = scenario(ctx);
    const answer = await s.signIn({ id: 'recorded' }, {}, AWS_IP);
    const row = await ctx.testDb.db('sessions').where({ id: answer.session_id }).first();
    expect(row.decision).toBe(answer.decision);
    expect(Number(row.evaluated_at)).toBe(ctx.clock.now().getTime());
    expect(row.evaluation_request_id).toBe(answer.request_id);
    expect(JSON.parse(row.evaluation_inputs)).toEqual(expect.arrayContaining(['recorded']));
    expect(row.evaluation_inputs.length).toBeLessThanOrEqual(600);
    expect(await ctx.testDb.db.schema.hasTable('evaluation_receipts')).toBe(false);
  });
});

describe('POST /rules/test', () => {
  const rules = [
    {
      id: 'shared-device-hosting',
      when: {
        all: [
          { field: 'accounts_linked', op: 'gte', value: 1 },
          { field: 'session.device_id', op: 'eq', value: 'shared-1' },
        ],
      },
      then: { decision: 'Fake', tags: ['shared'] },
    },
    {
      id: 'trusted-member',
      when: { field: 'account.account.id', op: 'eq', value: 'user-1' },
      then: { decision: 'Real' },
    },
    { id: 'botty', when: { field: 'bot', op: 'gte', value: 0.1 }, then: { tags: ['botty'] } },
    { id: 'fake-by-scores', when: { field: 'decision', op: 'eq', value: 'Fake' }, then: { tags: ['fake'] } },
    {
      id: 'quiet',
      when: { field: 'session.bot.keyboard_num_events', op: 'lt', value: 1 },
      then: { add_to_lists: ['review'] },
    },
  ];
  const range = { from: '2026-11-01T00:00:00.000Z', to: '2026-11-30T00:00:00.000Z' };
  const post = (body: object, apiKey = ctx.project.api_key) =>
    request(ctx.app).post('/rules/test').set('x-api-key', apiKey).send(body);

  /** Evaluations under one rules document, and their receipts. */
  async function underRules(): Promise<EvaluationReceipt[]> {
    await request(ctx.app).put('/rules').set('x-api-key', ctx.project.api_key).send({ rules }).expect(200);
    const s = scenario(ctx);
    const answers: (AuthenticateResponse | UnauthenticatedResponse)[] = [];
    const quiet = { events: { mouse: 0, click: 0, keyboard: 0, touch: 0, clipboard: 0 } };
    for (let i = 0; i < 8; i++)
      answers.push(
        await s.signIn(
          {
            id: `user-${i % 4}`,
            ...(i % 4 < 2 ? { email: `user${i % 4}@example.org` } : {}),
            ...(i === 5 ? { metadata: { tier: 'gold' } } : {}),
          },
          { device_id: `shared-${i % 2}`, ...(i % 3 === 0 ? quiet : {}) },
          i % 2 ? AWS_IP : US_IP,
        ),
      );
    answers.push(await s.signIn({ id: 'blocked', lists: ['block'] }, { device_id: 'shared-1' }, AWS_IP));
    for (let i = 0; i < 3; i++)
      answers.push(await s.unauthenticated(await s.ingest(personSession({ device_id: 'shared-1' }), AWS_IP)));
    const receipts: EvaluationReceipt[] = [];
    for (const a of answers) receipts.push(await checked(a));
    return receipts;
  }

  it('when the document and threshold the evaluations had are replayed, then nothing changes and each rule matches as it did', async () => {
    const receipts = await underRules();
    const res = await post({ rules, ...range });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      evaluations: receipts.length,
      truncated: false,
      changed: 0,
      examples: [],
      labels: null,
    });
    const counted = rules.map((r) => ({
      id: r.id,
      matched: receipts.filter((x) => x.rules.matched.includes(r.id)).length,
      decided: receipts.filter((x) => x.rules.decided_by === r.id).length,
    }));
    expect(res.body.rules).toEqual(counted);
    // The document did match and decide: the replay was not trivially empty.
    expect(counted.every((r) => r.matched > 0)).toBe(true);
    expect(counted.filter((r) => r.decided > 0).length).toBeGreaterThan(0);
  });

  it('when the draft drops the rules or lowers the threshold, then the changes are those the receipts predict', async () => {
    const receipts = await underRules();
    const byScores = (r: EvaluationReceipt, threshold: number) =>
      r.inputs.lists.includes('block')
        ? 'Fake'
        : r.inputs.lists.includes('allow')
          ? 'Real'
          : r.scores.account_score >= threshold
            ? 'Fake'
            : 'Real';
    for (const threshold of [undefined, 0.3, 0, 1]) {
      const res = await post({
        rules: [],
        ...range,
        ...(threshold !== undefined ? { decision_threshold: threshold } : {}),
      });
      expect(res.status).toBe(200);
      const after = receipts.map((r) => byScores(r, threshold ?? r.threshold));
      const toFake = receipts.filter((r, i) => r.decision === 'Real' && after[i] === 'Fake').length;
      const toReal = receipts.filter((r, i) => r.decision === 'Fake' && after[i] === 'Real').length;
      expect(res.body).toMatchObject({ changed: toFake + toReal, to_fake: toFake, to_real: toReal, rules: [] });
      expect(res.body.examples.length).toBe(Math.min(10, toFake + toReal));
      for (const e of res.body.examples) {
        const r = receipts.find((x) => x.request_id === e.request_id)!;
        expect(e).toMatchObject({ before: r.decision, after: byScores(r, threshold ?? r.threshold) });
      }
    }
    const raised = await post({ rules: [], ...range, decision_threshold: 1 });
    expect(raised.body.to_real).toBeGreaterThan(0);
  });

  it("when accounts are labelled, then the current decisions', the draft's and each rule's counts against the labels come out", async () => {
    const receipts = await underRules();
    const label = (id: string, value: string) =>
      request(ctx.app)
        .post(`/account/${id}/label`)
        .set('x-api-key', ctx.project.api_key)
        .send({ label: value })
        .expect(201);
    await label('user-0', 'fraud');
    await label('user-1', 'legit');
    await label('blocked', 'fraud');
    const res = await post({ rules, ...range, decision_threshold: 0.5 });
    expect(res.status).toBe(200);
    const labels: Record<string, string> = { 'user-0': 'fraud', 'user-1': 'legit', blocked: 'fraud' };
    const mine = receipts.filter((r) => r.account_id !== null && labels[r.account_id]);
    const counts = (flagged: (r: EvaluationReceipt) => boolean) => {
      const fraud = (r: EvaluationReceipt) => labels[r.account_id!] === 'fraud';
      const tp = mine.filter((r) => flagged(r) && fraud(r)).length;
      const fp = mine.filter((r) => flagged(r) && !fraud(r)).length;
      const fn = mine.filter((r) => !flagged(r) && fraud(r)).length;
      return {
        true_positives: tp,
        false_positives: fp,
        false_negatives: fn,
        true_negatives: mine.length - tp - fp - fn,
        precision: tp + fp ? tp / (tp + fp) : null,
        recall: tp + fn ? tp / (tp + fn) : null,
      };
    };
    expect(res.body.labels.labelled).toBe(mine.length);
    expect(res.body.labels.current).toEqual(counts((r) => r.decision === 'Fake'));
    // The document the evaluations had: each rule's matches are the receipts', but for the rule
    // that reads the decision, which the draft's threshold moves.
    const unmoved = rules.filter((rule) => rule.id !== 'fake-by-scores');
    expect(res.body.labels.rules.filter((r: { id: string }) => r.id !== 'fake-by-scores')).toEqual(
      unmoved.map((rule) => ({ id: rule.id, ...counts((r) => r.rules.matched.includes(rule.id)) })),
    );
    expect(mine.length).toBeGreaterThan(2);
    expect(res.body.labels.draft.true_positives + res.body.labels.draft.false_negatives).toBe(
      mine.filter((r) => labels[r.account_id!] === 'fraud').length,
    );
  });

  it('when the draft is invalid or the range empty or reversed, then 400 naming it, or nothing to replay; another project replays its own only', async () => {
    await underRules();
    const bad = await post({
      rules: [{ id: 'x', when: { field: 'no.such', op: 'eq', value: 1 }, then: { tags: ['t'] } }],
      ...range,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/rules\[0\]\.when\.field/);
    // The links' match types and the account's metadata replay (backtest-replay.test.ts checks them against live).
    const kept = await post({
      rules: [
        { id: 'ok', when: { field: 'bot', op: 'gte', value: 0.5 }, then: { tags: ['t'] } },
        {
          id: 'x',
          when: { all: [{ field: 'linked_accounts.match_type', op: 'contains', value: 'browser' }] },
          then: { tags: ['t'] },
        },
        { id: 'm', when: { field: 'account.account.metadata.tier', op: 'eq', value: 'gold' }, then: { tags: ['t'] } },
      ],
      ...range,
    });
    expect(kept.status).toBe(200);
    const long = await post({ rules: [], from: '2026-10-01T00:00:00.000Z', to: '2026-11-30T00:00:00.000Z' });
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/31 days/);
    expect((await post({ rules: [], from: range.to, to: range.from })).status).toBe(400);
    const empty = await post({ rules: [], from: '2020-01-01T00:00:00.000Z', to: '2020-02-01T00:00:00.000Z' });
    expect(empty.body).toMatchObject({ evaluations: 0, changed: 0 });
    const other = await ctx.services.projects.create({ name: 'other' });
    const theirs = await post({ rules: [], ...range, decision_threshold: 0 }, other.api_key);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ evaluations: 0, changed: 0 });
  });
});

describe('docs/rules.md, "A backtest, worked"', () => {
  /** The page's history: people, a device farm, headless bots, a customer on a hosting network; labelled. */
  async function history() {
    const s = scenario(ctx);
    const headless = {
      automation: { webdriver: true, signals: [] },
      events: { mouse: 0, click: 0, keyboard: 0, touch: 0, clipboard: 0 },
    };
    const people = [
      ['ada', LONDON_IP],
      ['ben', US_IP],
      ['cy', LONDON_IP],
      ['dee', US_IP],
    ] as const;
    for (const [id, ip] of people) await s.signIn({ id, email: `${id}@example.org` }, { device_id: `${id}-phone` }, ip);
    for (const id of ['farm-1', 'farm-2', 'farm-3'])
      await s.signIn({ id, email: `${id}@example.org`, phone: '+14155550123' }, { device_id: 'farm-device' }, US_IP);
    for (const id of ['bot-1', 'bot-2']) await s.signIn({ id }, { device_id: `${id}-vm`, ...headless }, AWS_IP);
    await s.signIn({ id: 'vip', email: 'vip@example.org' }, { device_id: 'vip-laptop' }, AWS_IP);
    const labels = {
      ada: 'legit',
      ben: 'legit',
      vip: 'legit',
      'farm-1': 'fraud',
      'farm-2': 'fraud',
      'bot-1': 'fraud',
      'bot-2': 'fraud',
    };
    for (const [id, label] of Object.entries(labels))
      await request(ctx.app)
        .post(`/account/${id}/label`)
        .set('x-api-key', ctx.project.api_key)
        .send({ label })
        .expect(201);
  }

  it("when the page's draft is replayed over the page's history, then the answer is the page's", async () => {
    await history();
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'rules.md'), 'utf8');
    const section = doc.split('### A backtest, worked')[1]!.split('\n## ')[0]!;
    const draft = parse([...section.matchAll(/```yaml\n([\s\S]*?)```/g)][0]![1]!) as object;
    const res = await request(ctx.app)
      .post('/rules/test')
      .set('x-api-key', ctx.project.api_key)
      .send({ ...draft, from: '2026-11-01T00:00:00.000Z', to: '2026-11-30T00:00:00.000Z' });
    expect(res.status).toBe(200);
    const body = res.body as RulesTestResult;
    const said = (name: string) => Number(new RegExp(`\`${name}: (\\d+)\``).exec(section)![1]);
    expect(body).toMatchObject({
      evaluations: said('evaluations'),
      changed: said('changed'),
      to_fake: said('to_fake'),
      to_real: said('to_real'),
      truncated: false,
    });
    expect(body.examples).toHaveLength(body.changed);
    for (const rule of body.rules) expect(section).toContain(`\`${rule.id}\` ${rule.matched} and ${rule.decided}`);
    expect(section).toContain(`over the ${body.labels!.labelled} labelled evaluations`);
    const rows = Object.fromEntries(
      [...section.matchAll(/^\| ([a-z -]+) \| (.+) \|$/gm)].map((m) => [m[1]!, m[2]!.split(' | ')]),
    );
    const shown = (c: ConfusionCounts) =>
      [c.true_positives, c.false_positives, c.false_negatives, c.true_negatives, c.precision, c.recall].map((x) =>
        String(x === null ? '–' : Math.round(x * 1000) / 1000),
      );
    expect(rows).toEqual({
      'current decisions': shown(body.labels!.current),
      'draft decisions': shown(body.labels!.draft),
      ...Object.fromEntries(body.labels!.rules.map((r) => [r.id, shown(r)])),
    });
  });
});
