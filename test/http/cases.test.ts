/**
 * Cases through HTTP with a real database: a rule's `open_case` opens one in the evaluation's
 * write (once per account while it is active), an analyst or a key opens one for a group of
 * accounts, the queue filters, sorts and pages, an assignment and a status change are audited
 * and guarded by the version, and closing labels every account and puts it on a list in one
 * transaction, which the next evaluation sees. Bad input is a 400 naming the field and writes
 * nothing. Response validation is on: each answer is checked against openapi.yaml by the server.
 */
import request from 'supertest';
import type { Case, CasePage } from '../../src/api-types';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { scenario } from '../helpers/evaluation';

const PASSWORD = 'a long enough password';
let ctx: TestContext;
let s: ReturnType<typeof scenario>;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
  s = scenario(ctx);
  const rules = await request(ctx.app)
    .put('/rules')
    .set('x-api-key', ctx.project.api_key)
    .send({
      rules: [
        {
          id: 'watched-group',
          description: 'An account of the watched group signed in',
          when: { field: 'account.account.metadata.watch', op: 'eq', value: true },
          then: { open_case: true, tags: ['watched'] },
        },
      ],
    });
  expect(rules.status).toBe(200);
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.set(TEST_NOW));

const key = () => ctx.project.api_key;
const get = (path: string) => request(ctx.app).get(path).set('x-api-key', key());
const post = (path: string, body: object) => request(ctx.app).post(path).set('x-api-key', key()).send(body);
const patch = (path: string, body: object) => request(ctx.app).patch(path).set('x-api-key', key()).send(body);
const casesOf = async (accountId: string, status = 'all') =>
  ((await get(`/cases?account_id=${accountId}&status=${status}`)).body as CasePage).cases;
const countRows = async (table: string) =>
  Number((await ctx.testDb.db(table).where({ project_id: ctx.project.project_id }).count({ n: '*' }))[0]!.n);

test('when a rule with open_case matches, then one case opens with the rule, its reason and the scores and signals of that evaluation, audited; a second match while it is active opens none', async () => {
  const first = await s.signIn({ id: 'case-rule-1', metadata: { watch: true } }, {}, '90.211.0.10');
  expect(first.rules?.matched).toEqual(['watched-group']);
  const [opened, ...more] = await casesOf('case-rule-1');
  expect(more).toEqual([]);
  expect(opened).toMatchObject({
    status: 'open',
    outcome: null,
    account_id: 'case-rule-1',
    account_ids: ['case-rule-1'],
    reason: 'An account of the watched group signed in',
    opened_by: 'rule:watched-group',
    rule_id: 'watched-group',
    assignee: null,
    version: 1,
    created_at: TEST_NOW,
    snapshot: {
      evaluation_request_id: first.request_id,
      decision: first.decision,
      account_score: first.account_score,
      bot: first.bot,
    },
  });
  const audit = (await get('/audit?limit=20')).body.events.find(
    (e: { action: string; changes: { after: unknown }[] }) =>
      e.action === 'case.opened' && e.changes[0]!.after === opened!.case_id,
  );
  expect(audit).toMatchObject({ actor: 'rule:watched-group', account_id: 'case-rule-1', request_id: first.request_id });

  await s.signIn({ id: 'case-rule-1', metadata: { watch: true } }, {}, '90.211.0.10');
  expect(await casesOf('case-rule-1')).toHaveLength(1);
});

test('when a session carries a detected risk signal, then the case names it among the signals', async () => {
  // A Tor exit's session (the test data's exit list) raises `tor`.
  const res = await s.signIn({ id: 'case-rule-2', metadata: { watch: true } }, {}, '185.220.101.1');
  const [opened] = await casesOf('case-rule-2');
  const detected = Object.entries(res.session.risk_signals)
    .filter(([, on]) => on)
    .map(([name]) => name)
    .sort();
  expect([...opened!.snapshot!.signals].sort()).toEqual(detected);
});

test('when an analyst opens a case for a group of accounts, then it keeps them in order with the first one’s latest scores, and none of them can be in a second active case', async () => {
  const a = await s.signIn({ id: 'case-ring-1' }, {}, '90.211.0.20');
  await s.signIn({ id: 'case-ring-2' }, {}, '90.211.0.21');
  const opened = await post('/cases', {
    account_ids: ['case-ring-1', 'case-ring-2'],
    reason: 'One laptop, two sign-ups',
  });
  expect(opened.status).toBe(201);
  const body = opened.body as Case;
  expect(body).toMatchObject({
    account_ids: ['case-ring-1', 'case-ring-2'],
    rule_id: null,
    opened_by: expect.stringMatching(/^api_key:[0-9a-f]{12}$/),
    snapshot: { evaluation_request_id: a.request_id, account_score: a.account_score, decision: a.decision },
    notes: [],
  });
  const again = await post('/cases', { account_ids: ['case-ring-3-none', 'case-ring-2'], reason: 'x' });
  expect(again.status).toBe(400);
  expect(again.body.message).toBe('account_ids[0] case-ring-3-none is not an account of this project');
  const twice = await post('/cases', { account_ids: ['case-ring-2'], reason: 'Again' });
  expect(twice.status).toBe(409);
  expect(twice.body.message).toBe(`account case-ring-2 is already in the active case ${body.case_id}`);
});

test('when a case is taken, noted and reassigned, then each change counts the version up and is audited, and a change over a stale version is a 409', async () => {
  await s.signIn({ id: 'case-work-1' }, {}, '90.211.0.30');
  const ada = await ctx.services.operators.add({
    projectId: ctx.project.project_id,
    email: `ada-cases-${Date.now()}@example.com`,
    role: 'analyst',
    password: PASSWORD,
  });
  const opened = (await post('/cases', { account_ids: ['case-work-1'], reason: 'Card testing?' })).body as Case;
  const taken = await patch(`/cases/${opened.case_id}`, { status: 'in_review', assignee: ada.id, expected_version: 1 });
  expect(taken.status).toBe(200);
  expect(taken.body).toMatchObject({ status: 'in_review', assignee: ada.id, version: 2 });
  const stale = await patch(`/cases/${opened.case_id}`, { assignee: null, expected_version: 1 });
  expect(stale.status).toBe(409);
  const note = await post(`/cases/${opened.case_id}/notes`, { text: 'Three cards in ten minutes.' });
  expect(note.status).toBe(201);
  const read = (await get(`/cases/${opened.case_id}`)).body as Case;
  expect(read.notes!.map((n) => n.text)).toEqual(['Three cards in ten minutes.']);
  const auditPage = await get('/audit?limit=10');
  expect(auditPage.status).toBe(200);
  const events = auditPage.body.events as { action: string; changes: unknown[] }[];
  expect(events.slice(0, 2).map((e) => e.action)).toEqual(['case.noted', 'case.updated']);
  expect(events[1]!.changes).toEqual([
    { field: 'case_id', before: opened.case_id, after: opened.case_id },
    { field: 'status', before: 'open', after: 'in_review' },
    { field: 'assignee', before: null, after: ada.id },
  ]);
  const viewer = await patch(`/cases/${opened.case_id}`, { assignee: '00000000-0000-4000-8000-000000000000' });
  expect(viewer.status).toBe(400);
  expect(viewer.body.message).toMatch(/^assignee 00000000-0000-4000-8000-000000000000 is not an analyst or admin/);
});

test('when a case is closed as fraud onto block, then every account is labelled fraud and blocked in one go, the next evaluation is Fake, and the case is out of the active queue', async () => {
  await s.signIn({ id: 'case-close-1' }, {}, '90.211.0.40');
  await s.signIn({ id: 'case-close-2' }, {}, '90.211.0.41');
  const opened = (await post('/cases', { account_ids: ['case-close-1', 'case-close-2'], reason: 'Ring' })).body as Case;
  const closed = await post(`/cases/${opened.case_id}/close`, { outcome: 'fraud', list: 'block', note: 'Same card.' });
  expect(closed.status).toBe(200);
  expect(closed.body).toMatchObject({ status: 'closed', outcome: 'fraud', list: 'block', version: 2 });
  expect(closed.body.closed_by).toBe(closed.body.opened_by);
  expect((closed.body as Case).notes!.map((n) => n.text)).toEqual(['Same card.']);
  for (const id of ['case-close-1', 'case-close-2']) {
    const account = (await get(`/account/${id}`)).body;
    expect(account.label).toMatchObject({ label: 'fraud', note: 'Same card.' });
    expect(account.lists).toContain('block');
  }
  expect((await s.signIn({ id: 'case-close-2' }, {}, '90.211.0.41')).decision).toBe('Fake');
  expect(await casesOf('case-close-1', 'active')).toEqual([]);
  expect((await post(`/cases/${opened.case_id}/close`, { outcome: 'legit' })).status).toBe(409);
  // Closed, its accounts may be in a new case; the old one reopens only once that one is closed.
  const next = await post('/cases', { account_ids: ['case-close-1'], reason: 'Back again' });
  expect(next.status).toBe(201);
  expect((await patch(`/cases/${opened.case_id}`, { status: 'open' })).status).toBe(409);
});

test('when the queue is sorted by score, filtered by rule and paged, then each page follows the last in that order, and no case is given twice', async () => {
  for (let i = 0; i < 5; i++) {
    ctx.clock.advance(1000);
    await s.signIn({ id: `case-page-${i}`, metadata: { watch: true } }, {}, `90.211.1.${i + 1}`);
  }
  const seen: Case[] = [];
  let cursor: string | null = null;
  do {
    const res = await get(`/cases?rule_id=watched-group&sort=score&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    seen.push(...(res.body as CasePage).cases);
    cursor = (res.body as CasePage).next_cursor;
  } while (cursor);
  const ids = seen.map((c) => c.case_id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(seen.every((c) => c.rule_id === 'watched-group')).toBe(true);
  expect(seen.map((c) => c.account_id)).toEqual(expect.arrayContaining(['case-page-0', 'case-page-4']));
  const scores = seen.map((c) => c.snapshot!.account_score);
  expect(scores).toEqual([...scores].sort((x, y) => y - x));
  const oldest = ((await get('/cases?rule_id=watched-group&limit=100')).body as CasePage).cases;
  const opened = oldest.map((c) => c.created_at);
  expect(opened).toEqual([...opened].sort());
});

test('when the input is bad, then a 400 names the field and nothing is written', async () => {
  const before = await countRows('cases');
  const bad = [
    [{ account_ids: [], reason: 'x' }, 'account_ids'],
    [{ account_ids: ['a'], reason: '' }, 'reason'],
    [{ account_ids: ['a', 'a'], reason: 'x' }, 'account_ids'],
    [{ account_ids: ['a'], reason: 'x', extra: 1 }, 'extra'],
  ] as const;
  for (const [body, field] of bad) {
    const res = await post('/cases', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  }
  expect((await get('/cases?sort=riskiest')).status).toBe(400);
  expect((await get('/cases?cursor=bm90LWEtY3Vyc29y')).status).toBe(400);
  expect((await get('/cases/not-a-uuid')).status).toBe(400);
  expect((await get('/cases/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  expect(await countRows('cases')).toBe(before);
});

test('when an account is erased, then its own case goes with its notes, and a group’s case keeps its other accounts', async () => {
  await s.signIn({ id: 'case-erase-1' }, {}, '90.211.2.1');
  await s.signIn({ id: 'case-erase-2' }, {}, '90.211.2.2');
  const alone = (await post('/cases', { account_ids: ['case-erase-1'], reason: 'Alone' })).body as Case;
  await post(`/cases/${alone.case_id}/notes`, { text: 'About case-erase-1' });
  const group = (await post('/cases', { account_ids: ['case-erase-2', 'case-erase-1'], reason: 'Group' })).body;
  expect(group.case_id).toBeUndefined(); // case-erase-1 is already in the active case `alone`
  const pair = (await post('/cases', { account_ids: ['case-erase-2'], reason: 'Pair' })).body as Case;
  expect((await request(ctx.app).delete('/account/case-erase-1').set('x-api-key', key())).status).toBe(200);
  expect((await get(`/cases/${alone.case_id}`)).status).toBe(404);
  expect(await ctx.testDb.db('case_notes').where({ case_id: alone.case_id }).count({ n: '*' })).toEqual([{ n: 0 }]);
  expect((await get(`/cases/${pair.case_id}`)).status).toBe(200);
});
