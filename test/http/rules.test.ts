/**
 * The Rules endpoints through HTTP with a real database (GET /rules, PUT /rules): versions,
 * the audit, refusals that name the path and the rule and write nothing, optimistic
 * concurrency, tenant isolation, and the rules applied by authenticate and unauthenticated
 * (the decision, the lists in the evaluation's transaction, tags; kept with the session).
 * docs/rules.md. Response validation is on, so every answer is also checked against openapi.yaml.
 */
import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { makeChangeProbe, type ChangeProbe } from '../helpers/db-changes';
import { personSession, scenario } from '../helpers/evaluation';

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

let ips = 0;
/** A residential London address (Sky UK) in a /24 of its own. */
function freshIp(): string {
  const n = ips++;
  return `90.${200 + Math.floor(n / 250)}.${n % 250}.30`;
}

async function newProject(options: { test?: boolean } = {}) {
  const p = await ctx.services.projects.create({ name: `Rules ${randomUUID()}`, test: options.test });
  const key = p.api_key;
  return {
    key,
    projectId: p.project_id,
    actor: `api_key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`,
    sc: scenario(ctx, key, p.project_id),
    get: () => request(ctx.app).get('/rules').set('x-api-key', key),
    put: (body: unknown) =>
      request(ctx.app)
        .put('/rules')
        .set('x-api-key', key)
        .send(body as object),
    audit: () => request(ctx.app).get('/audit').set('x-api-key', key),
    list: (name: string) => request(ctx.app).get(`/list/${name}`).set('x-api-key', key),
  };
}

/** A rule on every evaluation from a mobile network (the test sessions are iPhones on one). */
const MOBILE_FAKE = {
  id: 'mobile-review',
  description: 'Every mobile session is reviewed.',
  when: {
    all: [
      { field: 'session.network.connection_type', op: 'in', value: ['mobile', 'isp'] },
      { field: 'bot', op: 'lt', value: 1 },
    ],
  },
  then: { decision: 'Fake', add_to_lists: ['review'], tags: ['mobile'] },
};
/** A rule on accounts already on `review`. */
const SEEN = {
  id: 'seen-before',
  when: { field: 'lists', op: 'contains', value: 'review' },
  then: { tags: ['seen_before'] },
};

describe('GET /rules', () => {
  test('when a project has no rules, then version 0 and none', async () => {
    const p = await newProject();
    const res = await p.get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ request_id: expect.any(String), version: 0, rules: [], updated_at: null });
  });

  test('when there is no key, then 401', async () => {
    expect((await request(ctx.app).get('/rules')).status).toBe(401);
    expect((await request(ctx.app).put('/rules').send({ rules: [] })).status).toBe(401);
  });
});

describe('PUT /rules', () => {
  test('when a document is put, then it is stored as the next version, returned by GET and audited', async () => {
    const p = await newProject();
    const put = await p.put({ version: 17, rules: [MOBILE_FAKE] });
    expect(put.status).toBe(200);
    // `enabled` defaults to true (the contract's default); `version` in the body is ignored.
    const stored = [{ ...MOBILE_FAKE, enabled: true }];
    expect(put.body).toEqual({ request_id: expect.any(String), version: 1, rules: stored, updated_at: TEST_NOW });
    const got = await p.get();
    expect(got.body).toEqual({ request_id: expect.any(String), version: 1, rules: stored, updated_at: TEST_NOW });
    expect((await p.put({ rules: [] })).body.version).toBe(2);
    expect((await p.get()).body).toMatchObject({ version: 2, rules: [] });
    const events = (await p.audit()).body.events;
    expect(
      events.map((e: { action: string; actor: string; changes: unknown }) => [e.action, e.actor, e.changes]),
    ).toEqual([
      ['rules.updated', p.actor, [{ field: 'rules_version', before: 1, after: 2 }]],
      ['rules.updated', p.actor, [{ field: 'rules_version', before: 0, after: 1 }]],
    ]);
    // Every version is kept.
    const versions = await ctx.testDb.db('project_rules').where({ project_id: p.projectId }).orderBy('version');
    expect(versions.map((v: { version: number | string }) => Number(v.version))).toEqual([1, 2]);
  });

  test.each([
    [
      'an unknown field',
      {
        rules: [SEEN, { id: 'block-tor', when: { all: [{ field: 'session.tor', op: 'eq', value: true }] }, then: {} }],
      },
      'rules[1].when.all[0].field (rule "block-tor"): unknown field "session.tor"',
    ],
    [
      'an op the field does not take',
      { rules: [{ id: 'x', when: { field: 'bot', op: 'contains', value: 'a' }, then: {} }] },
      'rules[0].when.op (rule "x"): contains does not apply to bot (number)',
    ],
    [
      'two ids alike',
      { rules: [SEEN, SEEN] },
      'rules[1].id (rule "seen-before"): must be unique: rules[0] has the same id',
    ],
    [
      'a condition of two kinds',
      { rules: [{ id: 'x', when: { not: SEEN.when, field: 'bot', op: 'exists' }, then: {} }] },
      'rules[0].when (rule "x"): holds `not` and must hold nothing else',
    ],
    [
      'a decision that is not one',
      { rules: [{ id: 'x', when: SEEN.when, then: { decision: 'Maybe' } }] },
      'rules.0.then.decision must be equal to one of the allowed values',
    ],
    [
      'an unknown op',
      { rules: [{ id: 'x', when: { field: 'bot', op: 'like', value: 1 }, then: {} }] },
      'rules.0.when.op must be equal to one of the allowed values',
    ],
  ])(
    'when the document has %s, then 400 naming the path and the rule, and nothing is stored',
    async (_, body, message) => {
      const p = await newProject();
      const mark = await probe.mark();
      const res = await p.put(body);
      expect(res.status).toBe(400);
      expect(res.body.statusCode).toBe(400);
      expect(res.body.message).toContain(message);
      expect(await probe.writesSince(mark)).toEqual([]);
      expect((await p.get()).body.version).toBe(0);
    },
  );

  test('when expected_version is not the current one, then 409 and nothing is stored; when it is, stored', async () => {
    const p = await newProject();
    expect((await p.put({ rules: [SEEN] })).status).toBe(200);
    const mark = await probe.mark();
    const stale = await p.put({ expected_version: 0, rules: [MOBILE_FAKE] });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain('expected_version is 0 but the rules are at version 1');
    expect(await probe.writesSince(mark)).toEqual([]);
    const ok = await p.put({ expected_version: 1, rules: [MOBILE_FAKE] });
    expect(ok.status).toBe(200);
    expect(ok.body.version).toBe(2);
  });

  test('when project A puts rules, then project B neither reads them nor is evaluated by them', async () => {
    const a = await newProject();
    const b = await newProject();
    expect((await a.put({ rules: [MOBILE_FAKE] })).status).toBe(200);
    expect((await b.get()).body).toMatchObject({ version: 0, rules: [] });
    expect((await b.audit()).body.events).toEqual([]);
    const inB = await b.sc.signIn({ id: 'same-id' }, {}, freshIp());
    expect(inB.decision).toBe('Real');
    expect(inB.rules).toEqual({ version: 0, matched: [], decided_by: null, tags: [] });
    expect(inB.lists).toEqual([]);
    const inA = await a.sc.signIn({ id: 'same-id' }, {}, freshIp());
    expect(inA.decision).toBe('Fake');
    expect(inA.rules?.matched).toEqual(['mobile-review']);
    expect((await b.list('review')).status).toBe(400);
  });
});

describe('rules in evaluations', () => {
  test('when a rule sets the decision and adds the account to a list, then both are written with the evaluation and the next evaluation sees the list', async () => {
    const p = await newProject();
    const before = await p.sc.signIn({ id: 'ruled' }, {}, freshIp());
    expect(before.decision).toBe('Real');
    expect((await p.put({ rules: [MOBILE_FAKE, SEEN] })).status).toBe(200);
    // Visible at once in the process that stored it, though the key's project is cached.
    const first = await p.sc.signIn({ id: 'ruled' }, {}, freshIp());
    expect(first.decision).toBe('Fake');
    expect(first.account_score).toBe(before.account_score);
    expect(first.lists).toEqual(['review']);
    expect(first.rules).toEqual({
      version: 1,
      matched: ['mobile-review'],
      decided_by: 'mobile-review',
      tags: ['mobile'],
    });
    expect((await p.list('review')).body.accounts).toEqual(['ruled']);
    // The account keeps the rule's decision; the session keeps what the rules did.
    const account = await request(ctx.app).get('/account/ruled').set('x-api-key', p.key);
    expect(account.body.decision).toBe('Fake');
    const row = await ctx.testDb
      .db('sessions')
      .where({ project_id: p.projectId, id: first.session_id })
      .first('decision', 'rules_outcome');
    expect(row.decision).toBe('Fake');
    expect(JSON.parse(row.rules_outcome)).toEqual(first.rules);

    const second = await p.sc.signIn({ id: 'ruled' }, {}, freshIp());
    expect(second.rules?.matched).toEqual(['mobile-review', 'seen-before']);
    expect(second.rules?.tags).toEqual(['mobile', 'seen_before']);
  });

  test('when a rule removes the account from a list, then the list loses it in the same write', async () => {
    const p = await newProject();
    await p.sc.signIn({ id: 'vip-user', lists: ['vip'] }, {}, freshIp());
    const rules = [
      { id: 'drop-vip', when: { field: 'lists', op: 'contains', value: 'vip' }, then: { remove_from_lists: ['vip'] } },
    ];
    expect((await p.put({ rules })).status).toBe(200);
    const ev = await p.sc.signIn({ id: 'vip-user' }, {}, freshIp());
    expect(ev.rules?.matched).toEqual(['drop-vip']);
    expect(ev.lists).toEqual([]);
    expect((await p.list('vip')).body.accounts).toEqual([]);
  });

  test('when the account is on allow, then a rule does not decide, and its other actions apply', async () => {
    const p = await newProject();
    expect((await p.put({ rules: [MOBILE_FAKE] })).status).toBe(200);
    const ev = await p.sc.signIn({ id: 'allowed', lists: ['allow'] }, {}, freshIp());
    expect(ev.decision).toBe('Real');
    expect(ev.rules).toEqual({ version: 1, matched: ['mobile-review'], decided_by: null, tags: ['mobile'] });
    expect(ev.lists).toEqual(['allow', 'review']);
  });

  test('when unauthenticated, then a rule decides and tags, and its list actions write nothing', async () => {
    const p = await newProject();
    expect((await p.put({ rules: [MOBILE_FAKE] })).status).toBe(200);
    const sessionId = await p.sc.ingest(personSession(), freshIp());
    const ev = await p.sc.unauthenticated(sessionId);
    expect(ev.decision).toBe('Fake');
    expect(ev.rules).toEqual({ version: 1, matched: ['mobile-review'], decided_by: 'mobile-review', tags: ['mobile'] });
    expect(ev.lists).toEqual([]);
    expect((await p.list('review')).status).toBe(400);
  });

  test("when a test project's documented account id forces the outcome, then it decides after the rules, which still match", async () => {
    const p = await newProject({ test: true });
    const rules = [
      { id: 'all-real', when: { field: 'bot', op: 'gte', value: 0 }, then: { decision: 'Real', tags: ['seen'] } },
    ];
    expect((await p.put({ rules })).status).toBe(200);
    const forced = await p.sc.signIn({ id: 'test_fake_rules' }, {}, freshIp());
    expect(forced.decision).toBe('Fake');
    expect(forced.rules).toEqual({ version: 1, matched: ['all-real'], decided_by: null, tags: ['seen'] });
    const ordinary = await p.sc.signIn({ id: 'ordinary' }, {}, freshIp());
    expect(ordinary.rules?.decided_by).toBe('all-real');
  });

  test('when a rule is disabled, then it is kept but never matches', async () => {
    const p = await newProject();
    expect((await p.put({ rules: [{ ...MOBILE_FAKE, enabled: false }] })).status).toBe(200);
    const ev = await p.sc.signIn({ id: 'quiet' }, {}, freshIp());
    expect(ev.decision).toBe('Real');
    expect(ev.rules).toEqual({ version: 1, matched: [], decided_by: null, tags: [] });
  });
});
