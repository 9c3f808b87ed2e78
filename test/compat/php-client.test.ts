/**
 * The requests of a widely used PHP client of the production service (diego-ninja/verisoul-api),
 * as that client sends them, against the real app and database: its documented
 * authenticate (`new UserAccount(id:, email:)` encodes `"metadata": []`, PHP's empty array, and
 * `"group": null`), lower-case country codes, the JSON body it sends with every DELETE and with
 * the POST that takes none (`[]`, its empty array of data), and the decision at the edge of the
 * project's threshold, where an answer must not contradict the score it reports.
 *
 * Each body is written here as raw JSON, byte for byte as the client's encoder writes it, not
 * built from this project's types (which would not let the loose forms be written).
 * docs/compatibility.md, "Requests as the PHP client sends them", says what is accepted and how it is read.
 */
import request from 'supertest';
import type { EvaluationReceipt, RulesTestResult } from '../../src/api-types';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { listIp, personSession } from '../helpers/evaluation';
import { BOT, DAY_MS, freshProject, GB_IPS, type Project } from '../http/evaluation/support';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
});
afterAll(() => ctx.close());

/** A request with the body as the PHP client's HTTP layer sends it: raw JSON, typed as JSON. */
function php(p: Project, method: 'post' | 'put' | 'delete', path: string, body?: string) {
  const req = request(ctx.app)[method](path).set('x-api-key', p.apiKey);
  return body === undefined ? req : req.set('content-type', 'application/json').send(body);
}

/** POST /session/authenticate with the account as the client encodes it, on a fresh session. */
async function authenticate(p: Project, accountJson: string) {
  const sessionId = await p.ingest(personSession(), GB_IPS.sky);
  return php(p, 'post', '/session/authenticate', `{"account":${accountJson},"session_id":"${sessionId}"}`);
}

describe('POST /session/authenticate, as the PHP client sends it', () => {
  test('when the documented call sends metadata [] and group null, then 200, as if it had sent neither', async () => {
    const p = await freshProject(ctx);
    const res = await authenticate(p, '{"id":"php-user","email":"php.user@example.com","metadata":[],"group":null}');
    expect(res.status).toBe(200);
    const account = { id: 'php-user', email: 'php.user@example.com', metadata: {}, group: '' };
    expect(res.body.account.account).toEqual(account);
    expect((await p.getAccount('php-user')).body.account).toEqual({ ...account, expected_countries: [] });
  });

  test('when metadata [] comes to an account with metadata, then it is the empty map it means', async () => {
    const p = await freshProject(ctx);
    expect((await authenticate(p, '{"id":"php-meta","metadata":{"plan":"pro"}}')).status).toBe(200);
    const res = await authenticate(p, '{"id":"php-meta","metadata":[],"group":null}');
    expect(res.status).toBe(200);
    expect(res.body.account.account.metadata).toEqual({});
  });

  test('when group null comes in a project with groups, then it is no group: an account keeps its own, a new one is refused as without one', async () => {
    const p = await freshProject(ctx, { groups: true });
    expect((await authenticate(p, '{"id":"php-grouped","metadata":[],"group":"tenant-1"}')).status).toBe(200);
    const kept = await authenticate(p, '{"id":"php-grouped","email":"g@example.com","metadata":[],"group":null}');
    expect(kept.status).toBe(200);
    expect(kept.body.account.account.group).toBe('tenant-1');
    const fresh = await authenticate(p, '{"id":"php-groupless","email":"n@example.com","metadata":[],"group":null}');
    expect(fresh.status).toBe(400);
    expect(fresh.body).toEqual({ statusCode: 400, message: expect.stringContaining('account.group is required') });
  });

  test('when expected_countries are lower case, then they are read upper-cased', async () => {
    const p = await freshProject(ctx);
    const res = await authenticate(
      p,
      '{"id":"php-countries","expected_countries":["us","ca","Gb"],"metadata":[],"group":null}',
    );
    expect(res.status).toBe(200);
    expect((await p.getAccount('php-countries')).body.account.expected_countries).toEqual(['US', 'CA', 'GB']);
  });

  test('when a member is loose only in appearance, then 400 naming it, and nothing is written', async () => {
    const p = await freshProject(ctx);
    for (const [account, message] of [
      ['{"id":"php-bad","metadata":[1]}', /^account\.metadata /],
      ['{"id":"php-bad","metadata":"[]"}', /^account\.metadata must be object$/],
      ['{"id":"php-bad","group":0}', /^account\.group /],
      [
        '{"id":"php-bad","expected_countries":["usa"]}',
        /^account\.expected_countries\.0 must NOT have more than 2 characters$/,
      ],
      ['{"id":"php-bad","expected_countries":["u1"]}', /^account\.expected_countries\.0 must match pattern/],
    ] as const) {
      const res = await authenticate(p, account);
      expect([account, res.status, res.body.message]).toEqual([account, 400, expect.stringMatching(message)]);
    }
    expect((await p.getAccount('php-bad')).body).toEqual({ statusCode: 400, message: 'Account not found' });
  });
});

describe('the JSON bodies the PHP client sends where the contract takes none', () => {
  /**
   * The client's account and list calls that send a body the contract does not take, each with
   * that body (`undefined`: none), then what each did: the account and list read back.
   */
  async function calls(p: Project, body: string | undefined, n: number) {
    const [account, list, member] = [`php-gone-${n}`, `php_list_${n}`, `php-member-${n}`];
    await p.signIn({ id: account }, {}, GB_IPS.sky);
    await p.signIn({ id: member, lists: [list] }, {}, GB_IPS.bt);
    const answers = [
      await php(p, 'delete', `/account/${account}`, body),
      await php(p, 'delete', `/list/${list}/account/${member}`, body),
      await php(p, 'post', `/list/${list}/account/${member}`, body),
      await php(p, 'delete', `/list/${list}`, body),
    ];
    const effects = {
      account: (await p.getAccount(account)).body,
      list: (await request(ctx.app).get(`/list/${list}`).set('x-api-key', p.apiKey)).body,
      member: (await p.getAccount(member)).body.lists,
    };
    // The answers without what names this round's account and list, or differs per request.
    const same = (s: string) => s.split(account).join('ACCOUNT').split(list).join('LIST').split(member).join('MEMBER');
    return answers
      .map((res) => ({ status: res.status, body: JSON.parse(same(JSON.stringify({ ...res.body, request_id: 0 }))) }))
      .concat([{ status: 0, body: JSON.parse(same(JSON.stringify(effects))) }]);
  }

  test('when DELETE /account, DELETE /list, DELETE and POST /list/{name}/account carry [] or {}, then each does what it does without a body', async () => {
    const p = await freshProject(ctx);
    const without = await calls(p, undefined, 0);
    expect(without.map((a) => a.status)).toEqual([200, 200, 200, 200, 0]);
    expect(without.at(-1)!.body).toEqual({
      account: { statusCode: 400, message: 'Account not found' },
      list: { statusCode: 400, message: 'List not found' },
      member: [],
    });
    expect(await calls(p, '[]', 1)).toEqual(without);
    expect(await calls(p, '{}', 2)).toEqual(without);
  });
});

describe('the decision at the edge of the project’s threshold', () => {
  /** The backtests' range: the day either side of the test clock's now, when every evaluation here is made. */
  const range = {
    from: new Date(Date.parse(TEST_NOW) - DAY_MS).toISOString(),
    to: new Date(Date.parse(TEST_NOW) + DAY_MS).toISOString(),
  };

  async function withThreshold(threshold: number): Promise<Project> {
    const p = await freshProject(ctx);
    const res = await request(ctx.app)
      .patch('/project')
      .set('x-api-key', p.apiKey)
      .send({ decision_threshold: threshold });
    expect(res.status).toBe(200);
    return p;
  }

  /** The answer's score and decision, as its receipt, the stored account and a backtest see them. */
  async function seen(p: Project, answer: { request_id: string; account_id: string }) {
    const receipt = (await request(ctx.app).get(`/evaluation/${answer.request_id}`).set('x-api-key', p.apiKey))
      .body as EvaluationReceipt;
    const account = (await p.getAccount(answer.account_id)).body as { account_score: number; decision: string };
    // Replayed at its own threshold, the evaluation comes to the decision it answered.
    const backtest = (
      await request(ctx.app)
        .post('/rules/test')
        .set('x-api-key', p.apiKey)
        .send({ rules: [], ...range })
    ).body as RulesTestResult;
    return {
      raw: receipt.breakdown.account_score.value,
      receipt: {
        account_score: receipt.scores.account_score,
        decision: receipt.decision,
        threshold: receipt.threshold,
      },
      account: { account_score: account.account_score, decision: account.decision },
      backtest: { evaluations: backtest.evaluations, changed: backtest.changed },
    };
  }

  const TOR_IP = '2.120.55.1';
  beforeAll(() => listIp(ctx, 'tor', TOR_IP));

  test.each([
    {
      edge: 'reported as the threshold but computed just below it, then Fake',
      // A headless bot from a residential address: account_score 0.995884…, reported 0.996.
      threshold: 0.996,
      session: BOT,
      ip: GB_IPS.sky,
      answer: { account_score: 0.996, decision: 'Fake' },
    },
    {
      edge: 'reported below the threshold but computed at or above it, then Real',
      // Tor alone: account_score 0.6472002…, reported 0.647.
      threshold: 0.6472,
      session: {},
      ip: TOR_IP,
      answer: { account_score: 0.647, decision: 'Real' },
    },
  ])('when the score is $edge, in the answer, its receipt, the account and a backtest', async (e) => {
    const p = await withThreshold(e.threshold);
    const answer = await p.signIn({ id: `edge-${e.threshold}` }, e.session, e.ip);
    expect({ account_score: answer.account_score, decision: answer.decision }).toEqual(e.answer);
    const s = await seen(p, answer);
    // The edge: compared unrounded, the computed score would decide the other way.
    expect(s.raw >= e.threshold).toBe(e.answer.decision === 'Real');
    expect(s).toEqual({
      raw: s.raw,
      receipt: { ...e.answer, threshold: e.threshold },
      account: e.answer,
      backtest: { evaluations: 1, changed: 0 },
    });
  });

  test('when a backtest drafts a threshold a stored score is reported at, then it decides as a live answer would', async () => {
    const p = await freshProject(ctx); // the default threshold, 0.8
    const answer = await p.signIn({ id: 'edge-draft' }, BOT, GB_IPS.sky);
    expect(answer).toMatchObject({ account_score: 0.996, decision: 'Fake' });
    const res = await request(ctx.app)
      .post('/rules/test')
      .set('x-api-key', p.apiKey)
      .send({ rules: [], ...range, decision_threshold: 0.996 });
    // Compared unrounded (0.995884 < 0.996), the draft turned it Real.
    expect(res.body).toMatchObject({ evaluations: 1, changed: 0, to_real: 0 });
  });
});
