/**
 * Rules drafts and four-eyes through HTTP with a real database (docs/rules.md, "Drafts and
 * four-eyes"): an analyst drafts, another admin publishes (the next evaluation applies it), the
 * author is refused (403, nothing written), a moved base is a 409, a rejection keeps its reason,
 * each step is audited, bad input is a 400 naming the field and writes nothing; the fields
 * catalogue and the preview; a console session's PUT /rules points to drafts while a key's still
 * stores. Response validation is on, so every answer is also checked against openapi.yaml.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AuditEvent, ConsoleSession, OperatorRole, RuleDraft } from '../../src/api-types';
import { RULE_FIELDS } from '../../src/domain/rules';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { makeChangeProbe, type ChangeProbe } from '../helpers/db-changes';
import { scenario } from '../helpers/evaluation';

const PASSWORD = 'correct horse battery staple';
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
  return `90.${230 + Math.floor(n / 250)}.${n % 250}.50`;
}

type Operator = { id: string; cookie: string; csrf: string };

async function operator(projectId: string, role: OperatorRole): Promise<Operator> {
  const email = `${role}-${randomUUID()}@example.com`;
  const op = await ctx.services.operators.add({ projectId, email, role, password: PASSWORD });
  const res = await request(ctx.app)
    .post('/console/login')
    .set('x-forwarded-for', freshIp())
    .send({ email, password: PASSWORD });
  expect(res.status).toBe(200);
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
  return { id: op.id, cookie, csrf: (res.body as ConsoleSession).csrf_token };
}

async function newProject() {
  const p = await ctx.services.projects.create({ name: `Drafts ${randomUUID()}` });
  const key = p.api_key;
  const [analyst, admin, otherAdmin] = [
    await operator(p.project_id, 'analyst'),
    await operator(p.project_id, 'admin'),
    await operator(p.project_id, 'admin'),
  ];
  const as = (o: Operator | string) => {
    const with_ = <T extends request.Test>(r: T) =>
      typeof o === 'string' ? r.set('x-api-key', o) : r.set('cookie', o.cookie).set('x-csrf-token', o.csrf);
    return {
      get: (path: string) => with_(request(ctx.app).get(path)),
      post: (path: string, body?: object) => with_(request(ctx.app).post(path)).send(body),
      put: (path: string, body: object) => with_(request(ctx.app).put(path)).send(body),
    };
  };
  return {
    key,
    projectId: p.project_id,
    analyst,
    admin,
    otherAdmin,
    as,
    sc: scenario(ctx, key, p.project_id),
    version: async () => (await as(key).get('/rules')).body.version as number,
    audit: async () =>
      ((await as(key).get('/audit')).body.events as AuditEvent[]).filter((e) => e.action.startsWith('rules.')),
  };
}

/** Every session of the tests is an iPhone on a mobile or ISP network: this rule matches each. */
const MOBILE_FAKE = {
  id: 'mobile-review',
  when: { all: [{ field: 'session.network.connection_type', op: 'in', value: ['mobile', 'isp'] }] },
  then: { decision: 'Fake', tags: ['mobile'] },
};
const TAG_ALL = { id: 'tag-all', when: { field: 'bot', op: 'gte', value: 0 }, then: { tags: ['seen'] } };

describe('POST /rules/drafts (createRuleDraft)', () => {
  test('when an analyst drafts over the current version, then 201, pending, its diff, audited, and nothing applies yet', async () => {
    const p = await newProject();
    const res = await p
      .as(p.analyst)
      .post('/rules/drafts', { base_version: 0, note: 'Mobile review', rules: [MOBILE_FAKE] });
    expect(res.status).toBe(201);
    const draft = res.body as RuleDraft;
    expect(draft.draft).toMatchObject({
      base_version: 0,
      author: `operator:${p.analyst.id}`,
      status: 'pending',
      note: 'Mobile review',
      rules_count: 1,
      created_at: TEST_NOW,
      decided_by: null,
      published_version: null,
    });
    expect(draft.base).toEqual({ version: 0, author: null, updated_at: null });
    expect(draft.diff).toEqual([
      {
        rule_id: 'mobile-review',
        change: 'added',
        before: null,
        after: expect.objectContaining({ id: 'mobile-review' }),
      },
    ]);
    expect(await p.version()).toBe(0);
    const ev = await p.sc.signIn({ id: 'someone' }, {}, freshIp());
    expect(ev.rules?.version).toBe(0);
    expect(await p.audit()).toEqual([
      expect.objectContaining({
        action: 'rules.draft_created',
        actor: `operator:${p.analyst.id}`,
        changes: [
          { field: 'rules_draft', before: draft.draft.draft_id, after: draft.draft.draft_id },
          { field: 'rules_draft_status', before: null, after: 'pending' },
        ],
      }),
    ]);
  });

  test.each([
    [
      'an unknown field',
      { base_version: 0, rules: [{ id: 'x', when: { field: 'session.tor', op: 'eq', value: true }, then: {} }] },
      'rules[0].when.field (rule "x"): unknown field "session.tor"',
    ],
    ['no base version', { rules: [TAG_ALL] }, "body must have required property 'base_version'"],
    [
      'an op the field does not take',
      { base_version: 0, rules: [{ id: 'x', when: { field: 'bot', op: 'contains', value: 'a' }, then: {} }] },
      'rules[0].when.op (rule "x"): contains does not apply to bot (number)',
    ],
  ])('when the draft has %s, then 400 naming the field, and nothing is written', async (_, body, message) => {
    const p = await newProject();
    const mark = await probe.mark();
    const res = await p.as(p.analyst).post('/rules/drafts', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect(await probe.writesSince(mark)).toEqual([]);
  });

  test('when the base version is not the current one, then 409 and nothing is written', async () => {
    const p = await newProject();
    const mark = await probe.mark();
    const res = await p.as(p.analyst).post('/rules/drafts', { base_version: 3, rules: [TAG_ALL] });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('base_version is 3 but the rules are at version 0; read them again (GET /rules)');
    expect(await probe.writesSince(mark)).toEqual([]);
  });

  test('when a viewer drafts, then 403 naming the role', async () => {
    const p = await newProject();
    const viewer = await operator(p.projectId, 'viewer');
    const res = await p.as(viewer).post('/rules/drafts', { base_version: 0, rules: [TAG_ALL] });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('createRuleDraft needs the analyst role; this operator is a viewer');
  });
});

describe('POST /rules/drafts/{draft_id}/publish (publishRuleDraft)', () => {
  test('when another admin publishes an analyst’s draft, then it is the next version, the next evaluation applies it, and the audit names author and approver', async () => {
    const p = await newProject();
    const created = (await p.as(p.analyst).post('/rules/drafts', { base_version: 0, rules: [MOBILE_FAKE] }))
      .body as RuleDraft;
    const res = await p.as(p.admin).post(`/rules/drafts/${created.draft.draft_id}/publish`);
    expect(res.status).toBe(200);
    expect((res.body as RuleDraft).draft).toMatchObject({
      status: 'published',
      decided_by: `operator:${p.admin.id}`,
      decided_at: TEST_NOW,
      published_version: 1,
    });
    expect((res.body as RuleDraft).diff).toEqual([]);
    const rules = await p.as(p.key).get('/rules');
    expect(rules.body).toMatchObject({ version: 1, rules: [{ ...MOBILE_FAKE, enabled: true }] });
    const ev = await p.sc.signIn({ id: 'next-one' }, {}, freshIp());
    expect(ev.decision).toBe('Fake');
    expect(ev.rules).toEqual({ version: 1, matched: ['mobile-review'], decided_by: 'mobile-review', tags: ['mobile'] });
    const [published] = await p.audit();
    expect(published).toMatchObject({
      action: 'rules.published',
      actor: `operator:${p.admin.id}`,
      changes: [
        { field: 'rules_draft', before: created.draft.draft_id, after: created.draft.draft_id },
        { field: 'rules_draft_author', before: `operator:${p.analyst.id}`, after: `operator:${p.analyst.id}` },
        { field: 'rules_draft_status', before: 'pending', after: 'published' },
        { field: 'rules_version', before: 0, after: 1 },
      ],
    });
    // Stored by the one path PUT /rules takes: the version row names the approver.
    const row = await ctx.testDb.db('project_rules').where({ project_id: p.projectId, version: 1 }).first();
    expect(row.actor).toBe(`operator:${p.admin.id}`);
    // Published once: again is a 409.
    const again = await p.as(p.otherAdmin).post(`/rules/drafts/${created.draft.draft_id}/publish`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('The draft is already published');
  });

  test('when its author publishes it, then 403 naming the four-eyes rule, and nothing is written', async () => {
    const p = await newProject();
    const created = (await p.as(p.admin).post('/rules/drafts', { base_version: 0, rules: [MOBILE_FAKE] }))
      .body as RuleDraft;
    const mark = await probe.mark();
    const res = await p.as(p.admin).post(`/rules/drafts/${created.draft.draft_id}/publish`);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      `Four-eyes rule: operator:${p.admin.id} proposed this draft and cannot also publish it; another admin must approve it`,
    );
    expect(await probe.writesSince(mark)).toEqual([]);
    expect(await p.version()).toBe(0);
    // An API key is an author too: the key that drafted cannot publish.
    const byKey = (await p.as(p.key).post('/rules/drafts', { base_version: 0, rules: [TAG_ALL] })).body as RuleDraft;
    expect((await p.as(p.key).post(`/rules/drafts/${byKey.draft.draft_id}/publish`)).status).toBe(403);
  });

  test('when the rules moved past its base, then it reads superseded and publishing is a 409 writing nothing', async () => {
    const p = await newProject();
    const created = (await p.as(p.analyst).post('/rules/drafts', { base_version: 0, rules: [MOBILE_FAKE] }))
      .body as RuleDraft;
    expect((await p.as(p.key).put('/rules', { rules: [TAG_ALL] })).status).toBe(200);
    const listed = await p.as(p.analyst).get('/rules/drafts');
    expect(listed.body.drafts.map((d: { status: string }) => d.status)).toEqual(['superseded']);
    const mark = await probe.mark();
    const res = await p.as(p.admin).post(`/rules/drafts/${created.draft.draft_id}/publish`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'The draft is based on version 0 but the rules are at version 1; propose it again over version 1',
    );
    expect(await probe.writesSince(mark)).toEqual([]);
    expect(await p.version()).toBe(1);
  });

  test('when an analyst publishes, then 403 naming the role; an unknown draft is a 404', async () => {
    const p = await newProject();
    const created = (await p.as(p.admin).post('/rules/drafts', { base_version: 0, rules: [TAG_ALL] }))
      .body as RuleDraft;
    const res = await p.as(p.analyst).post(`/rules/drafts/${created.draft.draft_id}/publish`);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('publishRuleDraft needs the admin role; this operator is an analyst');
    const unknown = randomUUID();
    const missing = await p.as(p.otherAdmin).post(`/rules/drafts/${unknown}/publish`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(`rules draft ${unknown} not found`);
    // Another project's draft is not found either.
    const q = await newProject();
    expect((await q.as(q.admin).get(`/rules/drafts/${created.draft.draft_id}`)).status).toBe(404);
  });
});

describe('POST /rules/drafts/{draft_id}/reject (rejectRuleDraft)', () => {
  test('when an admin rejects with a reason, then rejected with it, audited, nothing published; a second decision is a 409', async () => {
    const p = await newProject();
    const created = (await p.as(p.analyst).post('/rules/drafts', { base_version: 0, rules: [MOBILE_FAKE] }))
      .body as RuleDraft;
    const id = created.draft.draft_id;
    const res = await p.as(p.admin).post(`/rules/drafts/${id}/reject`, { reason: 'Too broad: tag instead.' });
    expect(res.status).toBe(200);
    expect((res.body as RuleDraft).draft).toMatchObject({
      status: 'rejected',
      reason: 'Too broad: tag instead.',
      decided_by: `operator:${p.admin.id}`,
      published_version: null,
    });
    expect(await p.version()).toBe(0);
    expect((await p.audit())[0]).toMatchObject({
      action: 'rules.draft_rejected',
      actor: `operator:${p.admin.id}`,
      changes: [
        { field: 'rules_draft', before: id, after: id },
        { field: 'rules_draft_author', before: `operator:${p.analyst.id}`, after: `operator:${p.analyst.id}` },
        { field: 'rules_draft_status', before: 'pending', after: 'rejected' },
      ],
    });
    expect((await p.as(p.otherAdmin).post(`/rules/drafts/${id}/publish`)).status).toBe(409);
    const mark = await probe.mark();
    const noReason = await p.as(p.admin).post(`/rules/drafts/${id}/reject`, { reason: '' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toBe('reason must NOT have fewer than 1 characters');
    expect(await probe.writesSince(mark)).toEqual([]);
  });
});

describe('GET /rules/drafts and /rules/drafts/{draft_id}', () => {
  test('when drafts change rules, then the list is newest first and a draft gives its base’s author and the diff per rule', async () => {
    const p = await newProject();
    expect((await p.as(p.key).put('/rules', { rules: [TAG_ALL, MOBILE_FAKE] })).status).toBe(200);
    const changedTag = { ...TAG_ALL, then: { tags: ['seen', 'again'] } };
    const added = { id: 'added', when: { field: 'lists', op: 'contains', value: 'vip' }, then: { decision: 'Real' } };
    const first = (await p.as(p.analyst).post('/rules/drafts', { base_version: 1, rules: [changedTag, added] }))
      .body as RuleDraft;
    ctx.clock.set(new Date(Date.parse(TEST_NOW) + 1000));
    const second = (await p.as(p.analyst).post('/rules/drafts', { base_version: 1, rules: [MOBILE_FAKE, TAG_ALL] }))
      .body as RuleDraft;
    const listed = await p.as(p.key).get('/rules/drafts?limit=10');
    expect(listed.status).toBe(200);
    expect(listed.body.drafts.map((d: { draft_id: string }) => d.draft_id)).toEqual([
      second.draft.draft_id,
      first.draft.draft_id,
    ]);
    const got = await p.as(p.key).get(`/rules/drafts/${first.draft.draft_id}`);
    expect(got.body.base).toEqual({ version: 1, author: expect.stringMatching(/^api_key:/), updated_at: TEST_NOW });
    expect(got.body.current_version).toBe(1);
    expect(got.body.diff).toEqual([
      { rule_id: 'mobile-review', change: 'removed', before: { ...MOBILE_FAKE, enabled: true }, after: null },
      {
        rule_id: 'tag-all',
        change: 'changed',
        before: { ...TAG_ALL, enabled: true },
        after: { ...changedTag, enabled: true },
      },
      { rule_id: 'added', change: 'added', before: null, after: { ...added, enabled: true } },
    ]);
    expect(second.diff.map((c) => [c.rule_id, c.change])).toEqual([
      ['mobile-review', 'moved'],
      ['tag-all', 'moved'],
    ]);
  });
});

describe('GET /rules/fields (listRuleFields)', () => {
  test('when a viewer reads the fields, then every field rules can name, with its operators and closed values', async () => {
    const p = await newProject();
    const viewer = await operator(p.projectId, 'viewer');
    const res = await p.as(viewer).get('/rules/fields');
    expect(res.status).toBe(200);
    const names = res.body.fields.map((f: { name: string }) => f.name);
    expect(names).toEqual([...Object.keys(RULE_FIELDS), 'account.account.metadata.']);
    const byName = Object.fromEntries(res.body.fields.map((f: { name: string }) => [f.name, f]));
    expect(byName['session.risk_signals.tor']).toEqual({
      name: 'session.risk_signals.tor',
      kind: 'boolean',
      operators: ['eq', 'neq', 'exists', 'not_exists'],
      prefix: false,
    });
    expect(byName['linked_accounts.match_type'].values).toContain('device');
    expect(byName['decision'].values).toEqual(['Real', 'Fake']);
    expect(byName['account.account.metadata.']).toMatchObject({ kind: 'any', prefix: true });
  });
});

describe('POST /rules/preview (previewRules)', () => {
  test('when an analyst previews a draft, then each rule’s matches over the last 7 days, and nothing is stored', async () => {
    const p = await newProject();
    await p.sc.signIn({ id: 'recent-1' }, {}, freshIp());
    await p.sc.signIn({ id: 'recent-2' }, {}, freshIp());
    const never = { id: 'never', when: { field: 'bot', op: 'gt', value: 1 }, then: { decision: 'Fake' } };
    const mark = await probe.mark();
    const res = await p.as(p.analyst).post('/rules/preview', { rules: [MOBILE_FAKE, never] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      evaluations: 2,
      truncated: false,
      rules: [
        { id: 'mobile-review', matched: 2, decided: 2 },
        { id: 'never', matched: 0, decided: 0 },
      ],
    });
    expect(Date.parse(res.body.to) - Date.parse(res.body.from)).toBe(7 * 24 * 3_600_000);
    expect(await probe.writesSince(mark)).toEqual([]);
    // Evaluations older than the range are not counted (the console session has ended by then: the key).
    ctx.clock.set(new Date(Date.parse(TEST_NOW) + 8 * 24 * 3_600_000));
    expect((await p.as(p.key).post('/rules/preview', { rules: [MOBILE_FAKE] })).body.evaluations).toBe(0);
  });

  test('when the draft is not valid, then 400 naming the path and the rule', async () => {
    const p = await newProject();
    const res = await p
      .as(p.analyst)
      .post('/rules/preview', { rules: [{ id: 'x', when: { field: 'nope', op: 'eq', value: 1 }, then: {} }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('rules[0].when.field (rule "x"): unknown field "nope"');
  });
});

describe('PUT /rules from the console', () => {
  test('when a console admin puts rules, then 403 pointing to drafts and nothing is stored; an API key still stores', async () => {
    const p = await newProject();
    const mark = await probe.mark();
    const res = await p.as(p.admin).put('/rules', { rules: [TAG_ALL] });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(
      /^Console operators publish rules through drafts \(four-eyes\): .*POST \/rules\/drafts/,
    );
    expect(await probe.writesSince(mark)).toEqual([]);
    expect((await p.as(p.key).put('/rules', { rules: [TAG_ALL] })).body.version).toBe(1);
  });
});
