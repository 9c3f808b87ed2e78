/**
 * POST /rules/test (testRules) over the fields an evaluation keeps since format 2
 * (domain/evaluation/receipt.ts): the account's details, the linked accounts' match types and
 * the signals' details replay exactly as the rules read them live. Evaluations made under a
 * document naming each family, then the document backtested over them: nothing changes and
 * each rule matches and decides as it did. Rows written before keep none of them: a draft
 * naming one over such a row is refused, naming the path; what they keep still replays.
 */
import request from 'supertest';
import type { AuthenticateResponse, EvaluationReceipt, UnauthenticatedResponse } from '../../../src/api-types';
import { makeTestContext, type TestContext } from '../../helpers/app';
import { AWS_IP, LONDON_IP, personSession, scenario, US_IP } from '../../helpers/evaluation';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await makeTestContext();
});
afterEach(async () => {
  await ctx.close();
});

const range = { from: '2026-11-01T00:00:00.000Z', to: '2026-11-30T00:00:00.000Z' };
const post = (body: object) => request(ctx.app).post('/rules/test').set('x-api-key', ctx.project.api_key).send(body);

const when = (field: string, op: string, value?: unknown) => ({ field, op, ...(value !== undefined ? { value } : {}) });
const tag = (id: string, condition: object) => ({ id, when: condition, then: { tags: [id] } });

/** One rule (at least) per newly replayable family; the deciding ones first. */
const rules = [
  { id: 'gold-is-real', when: when('account.account.metadata.tier', 'eq', 'gold'), then: { decision: 'Real' } },
  {
    id: 'linked-by-browser',
    when: when('linked_accounts.match_type', 'contains', 'browser'),
    then: { decision: 'Fake', tags: ['linked'] },
  },
  {
    id: 'webdriver',
    when: when('session.risk_signal_details.device', 'contains', 'webdriver'),
    then: { decision: 'Fake' },
  },
  {
    id: 'crowded-domain',
    when: when('account.email.num_account_from_domain', 'gte', 2),
    then: { decision: 'Fake' },
  },
  tag('linked-by-phone', when('linked_accounts.match_type', 'contains', 'phone')),
  tag('sessions', when('account.num_sessions', 'gte', 2)),
  tag('countries', when('account.countries', 'contains', 'US')),
  tag('no-country', when('account.country', 'not_exists')),
  tag('devices-1', when('account.unique_devices.1_day', 'gte', 2)),
  tag('devices-7', when('account.unique_devices.7_day', 'gte', 2)),
  tag('networks-1', when('account.unique_networks.1_day', 'gte', 2)),
  tag('networks-7', when('account.unique_networks.7_day', 'gte', 2)),
  tag('hosting-average', when('account.risk_signal_average.datacenter', 'gt', 0.4)),
  tag('device-risk-average', when('account.risk_signal_average.device_risk', 'gt', 0.1)),
  tag('address', when('account.account.email', 'contains', 'gmail')),
  tag('group', when('account.account.group', 'eq', '')),
  tag('invalid-domain', when('account.email.domain_type', 'eq', 'invalid')),
  tag('email-score', when('account.email.email_score', 'gte', 0.5)),
  tag('new-address', when('account.email.risk_signals', 'contains', 'new_address')),
  tag('personal', when('account.email.personal', 'eq', true)),
  tag('fraud-network', when('session.risk_signal_details.network', 'contains', 'ip_used_by_fraud')),
  // A name only strengthens a link another identifier finds; alone, under the floor, it is none.
  tag('linked-by-name', when('linked_accounts.match_type', 'contains', 'name')),
  tag('linked-any', when('accounts_linked', 'gte', 1)),
];

/** People, a device farm sharing a phone, headless sessions, a hosting network, unauthenticated sessions; under `rules`. */
async function history(): Promise<(AuthenticateResponse | UnauthenticatedResponse)[]> {
  await request(ctx.app).put('/rules').set('x-api-key', ctx.project.api_key).send({ rules }).expect(200);
  const s = scenario(ctx);
  const headless = {
    automation: { webdriver: true, signals: [] },
    events: { mouse: 0, click: 0, keyboard: 0, touch: 0, clipboard: 0 },
  };
  const answers: (AuthenticateResponse | UnauthenticatedResponse)[] = [];
  for (let i = 0; i < 8; i++)
    answers.push(
      await s.signIn(
        {
          id: `user-${i % 4}`,
          email: i % 4 === 3 ? 'ada.lovelace@gmail.com' : `user${i % 4}@example.org`,
          ...(i === 1 ? { metadata: { tier: 'gold' } } : {}),
        },
        { device_id: `device-${i % 3}`, ...(i === 6 ? headless : {}) },
        [LONDON_IP, US_IP, AWS_IP][i % 3],
        true,
      ),
    );
  for (const id of ['farm-1', 'farm-2', 'farm-3'])
    answers.push(await s.signIn({ id, phone: '+14155550123' }, { device_id: `${id}-phone` }, US_IP));
  answers.push(await s.signIn({ id: 'bot' }, { device_id: 'bot-vm', ...headless }, AWS_IP));
  // Namesakes: two share the name (and a network) alone, no link; the third also signs in on the first's laptop.
  for (const id of ['namesake-1', 'namesake-2'])
    answers.push(
      await s.signIn({ id, first_name: 'Grace', last_name: 'Hopper' }, { device_id: `${id}-laptop` }, LONDON_IP, true),
    );
  answers.push(
    await s.signIn(
      { id: 'namesake-3', first_name: 'grace', last_name: 'HOPPER' },
      { device_id: 'namesake-1-laptop' },
      LONDON_IP,
      true,
    ),
  );
  for (let i = 0; i < 3; i++)
    answers.push(await s.unauthenticated(await s.ingest(personSession({ device_id: `device-${i}` }), AWS_IP)));
  return answers;
}

async function receiptOf(requestId: string): Promise<EvaluationReceipt> {
  const res = await request(ctx.app).get(`/evaluation/${requestId}`).set('x-api-key', ctx.project.api_key);
  expect(res.status).toBe(200);
  return res.body as EvaluationReceipt;
}

describe('POST /rules/test over the account, links and signal details', () => {
  it('when the document the evaluations had is replayed, then nothing changes and each rule matches and decides as it did live', async () => {
    const answers = await history();
    const receipts: EvaluationReceipt[] = [];
    for (const a of answers) receipts.push(await receiptOf(a.request_id));
    const res = await post({ rules, ...range });
    expect(res.status).toBe(200);
    const live = rules.map((r) => ({
      id: r.id,
      matched: answers.filter((a) => a.rules?.matched.includes(r.id)).length,
      decided: answers.filter((a) => a.rules?.decided_by === r.id).length,
    }));
    expect(res.body).toMatchObject({ evaluations: answers.length, changed: 0, examples: [] });
    expect(res.body.rules).toEqual(live);
    // Each receipt counts the links the live answer counted (over the floor only).
    expect(receipts.map((r) => r.inputs.accounts_linked)).toEqual(answers.map((a) => a.accounts_linked));
    expect(answers.find((a) => 'account_id' in a && a.account_id === 'namesake-2')!.accounts_linked).toBe(0);
    expect(answers.find((a) => 'account_id' in a && a.account_id === 'namesake-3')!.linked_accounts).toEqual([
      expect.objectContaining({ account_id: 'namesake-1', match_type: ['browser', 'name', 'network'] }),
    ]);
    // Each family matched live (the replay was not trivially empty), and not everywhere.
    const family = ['gold-is-real', 'linked-by-browser', 'webdriver', 'crowded-domain', 'linked-by-phone', 'sessions'];
    family.push('devices-1', 'device-risk-average', 'address', 'email-score', 'new-address', 'fraud-network');
    family.push('linked-by-name', 'linked-any');
    for (const id of family) {
      const n = live.find((r) => r.id === id)!.matched;
      expect([id, n > 0 && n < answers.length]).toEqual([id, true]);
    }

    // Without the deciding rules, the changes are exactly the evaluations a rule decided against the scores.
    const byScores = (r: EvaluationReceipt) =>
      r.inputs.lists.includes('block')
        ? 'Fake'
        : r.inputs.lists.includes('allow')
          ? 'Real'
          : r.scores.account_score >= r.threshold
            ? 'Fake'
            : 'Real';
    const flipped = receipts.filter((r) => r.decision !== byScores(r));
    expect(flipped.every((r) => r.decided_by.source === 'rule')).toBe(true);
    expect(new Set(flipped.map((r) => r.decided_by.rule)).size).toBeGreaterThanOrEqual(2);
    const tagsOnly = rules.filter((r) => !('decision' in r.then));
    const dropped = await post({ rules: tagsOnly, ...range, max_examples: 50 });
    expect(dropped.status).toBe(200);
    expect(dropped.body.changed).toBe(flipped.length);
    expect(dropped.body.examples.map((e: { request_id: string }) => e.request_id).sort()).toEqual(
      flipped.map((r) => r.request_id).sort(),
    );
  });

  it('when the account row changed since, then its address and metadata are read as they are now (the session row keeps neither)', async () => {
    const answers = await history();
    const gold = answers.filter((a) => a.rules?.matched.includes('gold-is-real')).length;
    const s = scenario(ctx);
    await s.signIn({ id: 'user-2', metadata: { tier: 'gold' } }, {}, LONDON_IP);
    const draft = [rules[0]!];
    const res = await post({ rules: draft, ...range });
    // user-2's two earlier evaluations now read gold too, and its new one.
    expect(res.body.rules).toEqual([expect.objectContaining({ id: 'gold-is-real', matched: gold + 3 })]);
    const rows = await ctx.testDb.db('sessions').whereNotNull('evaluation_inputs').select('evaluation_inputs');
    const kept = JSON.stringify(rows);
    expect(kept).not.toContain('gold');
    expect(kept).not.toContain('example.org');
    expect(kept).not.toContain('gmail');
  });
});

describe('POST /rules/test over rows written before evaluations kept these fields', () => {
  /** The row's value as format 1 wrote it: its first nine members. */
  async function asWrittenBefore(sessionId: string) {
    const row = await ctx.testDb.db('sessions').where({ id: sessionId }).first();
    const old = JSON.stringify([1, ...(JSON.parse(row.evaluation_inputs) as unknown[]).slice(1, 9)]);
    await ctx.testDb.db('sessions').where({ id: sessionId }).update({ evaluation_inputs: old });
  }

  it("when a row was written before the bot score's tampering term, then its receipt and a backtest read the term as 0, as it was scored", async () => {
    const s = scenario(ctx);
    const tampering = ['browser_tampering_detected', 'navigator_getters_overridden'];
    const before = await s.signIn({ id: 'stealth-before' }, { tampering });
    const after = await s.signIn({ id: 'stealth-after' }, { tampering });
    // The row as format 2 wrote it: its first twelve members, no tampering strength.
    const row = await ctx.testDb.db('sessions').where({ id: before.session_id }).first();
    const kept = JSON.parse(row.evaluation_inputs) as unknown[];
    expect(kept).toHaveLength(13);
    const old = JSON.stringify([2, ...kept.slice(1, 12)]);
    await ctx.testDb.db('sessions').where({ id: before.session_id }).update({ evaluation_inputs: old });
    const receipt = await receiptOf(before.request_id);
    expect(receipt.breakdown.bot.terms.find((t) => t.name === 'tampering')).toMatchObject({ strength: 0, p: 0 });
    expect(receipt.scores.bot).toBe(0.02);
    expect((await receiptOf(after.request_id)).scores.bot).toBe(after.bot);
    const res = await post({ rules: [tag('botty', when('bot', 'gte', 0.5))], ...range });
    expect(res.status).toBe(200);
    expect(res.body.rules).toEqual([{ id: 'botty', matched: 1, decided: 0 }]);
    expect(after.bot).toBeGreaterThan(0.5);
  });

  it('when the range holds one, then a draft naming a field it does not keep is refused naming the path, and what it keeps replays', async () => {
    const answers = await history();
    const signedIn = answers.find((a) => 'account' in a && a.account.account.id === 'user-0')!;
    const unauthenticated = answers.at(-1)!;
    await asWrittenBefore(unauthenticated.session_id);
    // An unauthenticated row has no account: its account fields replay (absent); its links and details do not.
    const account = await post({ rules: [rules[5], rules[0]], ...range });
    expect(account.status).toBe(200);
    expect(account.body.evaluations).toBe(answers.length);
    for (const [i, field] of [
      [4, 'linked_accounts.match_type'],
      [2, 'session.risk_signal_details.device'],
    ] as const) {
      const res = await post({ rules: [rules[i]], ...range });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(
        `request/body/rules/0/when/field: ${field} is not kept with evaluation ${unauthenticated.request_id} (recorded before evaluations kept it), so a backtest cannot replay it; choose a later range`,
      );
    }
    await asWrittenBefore(signedIn.session_id);
    const refused = await post({
      rules: [tag('bot', when('bot', 'gte', 0)), { ...rules[5]!, when: { any: [rules[5]!.when] } }],
      ...range,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(
      new RegExp(
        `^request/body/rules/1/when/any/0/field: account\\.num_sessions is not kept with evaluation ${signedIn.request_id} `,
      ),
    );
    // What format 1 kept still replays over every row: the scores, the lists, the session, the account id.
    const kept = await post({
      rules: [tag('bot', when('bot', 'gte', 0)), tag('id', when('account.account.id', 'eq', 'user-0'))],
      ...range,
    });
    expect(kept.status).toBe(200);
    expect(kept.body.rules).toEqual([
      { id: 'bot', matched: answers.length, decided: 0 },
      { id: 'id', matched: 2, decided: 0 },
    ]);
  });
});
