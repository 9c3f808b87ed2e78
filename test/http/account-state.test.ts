/**
 * What an account says of its state, through HTTP with a real database: which evaluation gave it
 * its decision and when (`last_evaluation`, whose receipt reads the same decision), and what its
 * lists decide now (`list_decision`), which a later list change makes differ from the last
 * evaluation until the next one. Response validation is on: each answer is checked against
 * openapi.yaml by the server.
 */
import request from 'supertest';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { scenario } from '../helpers/evaluation';

let ctx: TestContext;
let s: ReturnType<typeof scenario>;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
  s = scenario(ctx);
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.set(TEST_NOW));

const get = (path: string) => request(ctx.app).get(path).set('x-api-key', ctx.project.api_key);
const listAccount = (list: string, id: string) =>
  request(ctx.app).post(`/list/${list}/account/${id}`).set('x-api-key', ctx.project.api_key).send({});

test('when an account is authenticated twice, then last_evaluation names the second evaluation and its time, and its receipt decided what the account says', async () => {
  await s.signIn({ id: 'state-1' }, {}, '90.210.0.10');
  ctx.clock.advance(60_000);
  const second = await s.signIn({ id: 'state-1' }, {}, '90.210.0.11');
  const account = await get('/account/state-1');
  expect(account.status).toBe(200);
  expect(account.body.last_evaluation).toEqual({
    request_id: second.request_id,
    created_at: new Date(Date.parse(TEST_NOW) + 60_000).toISOString(),
  });
  const receipt = await get(`/evaluation/${second.request_id}`);
  expect(receipt.status).toBe(200);
  expect(receipt.body.decision).toBe(account.body.decision);
  expect(receipt.body.created_at).toBe(account.body.last_evaluation.created_at);
});

test('when an account evaluated Real is put on block, then it still says Real for its last evaluation, and list_decision says block makes it Fake, as its next evaluation is', async () => {
  const first = await s.signIn({ id: 'state-2' }, {}, '90.210.0.12');
  expect(first.decision).toBe('Real');
  expect((await get('/account/state-2')).body).not.toHaveProperty('list_decision');
  expect((await listAccount('block', 'state-2')).status).toBe(200);
  const listed = (await get('/account/state-2')).body;
  expect(listed.decision).toBe('Real');
  expect(listed.list_decision).toEqual({ list: 'block', decision: 'Fake' });
  const next = await s.signIn({ id: 'state-2' }, {}, '90.210.0.12');
  expect(next.decision).toBe('Fake');
  expect((await get('/account/state-2')).body).toMatchObject({
    decision: 'Fake',
    last_evaluation: { request_id: next.request_id },
  });
});

test('when an account is on allow, then list_decision says allow makes it Real', async () => {
  await s.signIn({ id: 'state-3' }, {}, '90.210.0.13');
  expect((await listAccount('allow', 'state-3')).status).toBe(200);
  expect((await get('/account/state-3')).body.list_decision).toEqual({ list: 'allow', decision: 'Real' });
});

test('when the account was last evaluated by an earlier release, then it reads without last_evaluation', async () => {
  await s.signIn({ id: 'state-4' }, {}, '90.210.0.14');
  await ctx.testDb
    .db('accounts')
    .where({ project_id: ctx.project.project_id, id: 'state-4' })
    .update({ last_request_id: null, last_evaluated_at: null });
  const account = await get('/account/state-4');
  expect(account.status).toBe(200);
  expect(account.body).not.toHaveProperty('last_evaluation');
  expect(account.body.decision).toBe('Real');
});
