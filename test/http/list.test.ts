/**
 * The List endpoints through HTTP with a real database: the standard lists (`allow`, `block`,
 * `main_account`: in every project, mutually exclusive, never deleted), custom lists (created
 * on first use, overlapping freely), their pages of members, and how lists decide an
 * evaluation. Response validation is on, so every answer is also checked against openapi.yaml.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AccountInput, AuthenticateResponse, IngestSession } from '../../src/api-types';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { makeChangeProbe } from '../helpers/db-changes';
import { personSession, scenario } from '../helpers/evaluation';
import { declaredStatuses, describeErrors, schemaValidator } from '../helpers/spec';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.set(TEST_NOW));

const HOUR = 3_600_000;

let ips = 0;
/** A residential London address (Sky UK) in a /24 of its own: sessions share no network. */
function freshIp(): string {
  const n = ips++;
  return `90.${200 + Math.floor(n / 250)}.${n % 250}.10`;
}

/** A project of its own for each test: its lists are only what the test makes. */
async function newProject() {
  const p = await ctx.services.projects.create({ name: `Lists ${randomUUID()}` });
  const key = p.api_key;
  const sc = scenario(ctx, p.api_key, p.project_id);
  const path = (...parts: string[]) => `/${parts.map(encodeURIComponent).join('/')}`;
  return {
    key,
    projectId: p.project_id,
    sc,
    signIn: (account: AccountInput, session: Partial<IngestSession> = {}): Promise<AuthenticateResponse> =>
      sc.signIn(account, session, freshIp()),
    lists: () => request(ctx.app).get('/list').set('x-api-key', key),
    getList: (name: string, query = '') =>
      request(ctx.app)
        .get(`${path('list', name)}${query}`)
        .set('x-api-key', key),
    createList: (name: string) => request(ctx.app).post(path('list', name)).set('x-api-key', key),
    deleteList: (name: string) => request(ctx.app).delete(path('list', name)).set('x-api-key', key),
    add: (name: string, account: string) =>
      request(ctx.app)
        .post(path('list', name, 'account', account))
        .set('x-api-key', key),
    remove: (name: string, account: string) =>
      request(ctx.app)
        .delete(path('list', name, 'account', account))
        .set('x-api-key', key),
    account: (id: string) => request(ctx.app).get(path('account', id)).set('x-api-key', key),
    put: (id: string, body: object) => request(ctx.app).put(path('account', id)).set('x-api-key', key).send(body),
  };
}
type Project = Awaited<ReturnType<typeof newProject>>;

async function expectSchema(name: string, body: unknown): Promise<void> {
  const validate = await schemaValidator(name);
  const valid = validate(body);
  expect(describeErrors(validate.errors)).toBe('');
  expect(valid).toBe(true);
}

async function listsOf(p: Project, id: string): Promise<string[]> {
  const res = await p.account(id);
  expect(res.status).toBe(200);
  return res.body.lists as string[];
}

async function members(projectId: string, where: Record<string, unknown> = {}): Promise<number> {
  const row = await ctx.testDb
    .db('list_members')
    .where({ project_id: projectId, ...where })
    .count<{ n: number | string }[]>({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}

const STANDARD = ['allow', 'block', 'main_account'].map((name) => ({
  name,
  standard: true,
  num_accounts: 0,
  created_at: expect.any(String),
}));

describe('GET /list', () => {
  test('a fresh project has the three standard lists, empty', async () => {
    const p = await newProject();
    const res = await p.lists();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ lists: STANDARD });
    await expectSchema('Lists', res.body);
    // A standard list can be read (empty) without ever having been used.
    for (const name of ['allow', 'block', 'main_account']) {
      const list = await p.getList(name);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        name,
        standard: true,
        num_accounts: 0,
        created_at: expect.any(String),
        account_ids: [],
      });
    }
  });

  test('when a project is created, then its standard lists are created with it, dated from its creation', async () => {
    ctx.clock.advance(HOUR);
    const p = await newProject();
    const rows = await ctx.testDb.db('lists').where({ project_id: p.projectId }).orderBy('name');
    expect(
      rows.map((r: { name: string; standard: unknown; created_at: unknown }) => [
        r.name,
        Boolean(r.standard),
        Number(r.created_at),
      ]),
    ).toEqual(['allow', 'block', 'main_account'].map((name) => [name, true, Date.parse(TEST_NOW) + HOUR]));
  });

  test('custom lists appear with their sizes next to the standard ones', async () => {
    const p = await newProject();
    await p.put('a-1', { lists: ['vip', 'block'] });
    await p.put('a-2', { lists: ['vip'] });
    await p.createList('empty-one');
    const res = await p.lists();
    expect(res.body.lists).toEqual([
      { name: 'allow', standard: true, num_accounts: 0, created_at: expect.any(String) },
      { name: 'block', standard: true, num_accounts: 1, created_at: expect.any(String) },
      { name: 'empty-one', standard: false, num_accounts: 0, created_at: TEST_NOW },
      { name: 'main_account', standard: true, num_accounts: 0, created_at: expect.any(String) },
      { name: 'vip', standard: false, num_accounts: 2, created_at: TEST_NOW },
    ]);
  });

  test("another project's lists are not seen", async () => {
    const p = await newProject();
    const q = await newProject();
    await p.put('mine', { lists: ['private-list'] });
    expect((await q.lists()).body).toEqual({ lists: STANDARD });
    expect((await q.getList('private-list')).status).toBe(404);
    // Nor can another project put one of this project's accounts on a list.
    const res = await q.add('vip', 'mine');
    expect(res.status).toBe(404);
    expect(await listsOf(p, 'mine')).toEqual(['private-list']);
  });

  test('when a query parameter it does not have is sent, then 400 naming it, a status the spec declares for it', async () => {
    const p = await newProject();
    const res = await request(ctx.app).get('/list?limit=5').set('x-api-key', p.key);
    expect(res.body).toEqual({ statusCode: 400, message: "query parameter limit Unknown query parameter 'limit'" });
    expect(await declaredStatuses('get', '/list')).toContain(400);
  });

  test('when x-api-key is missing, then 401 on every List operation', async () => {
    const calls = [
      request(ctx.app).get('/list'),
      request(ctx.app).get('/list/vip'),
      request(ctx.app).post('/list/vip'),
      request(ctx.app).delete('/list/vip'),
      request(ctx.app).post('/list/vip/account/a'),
      request(ctx.app).delete('/list/vip/account/a'),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ statusCode: 401, message: expect.any(String) });
    }
  });
});

describe('refused list requests', () => {
  // Its own app, with the rate limits counted in memory: in the database (the default) every
  // request, refused or not, counts itself there.
  let own: TestContext;
  beforeAll(async () => {
    own = await makeTestContext({ rateLimitStore: 'memory' });
  });
  afterAll(() => own.close());

  test("when a new project's first list requests name a missing list, then 404 and nothing is written", async () => {
    const { api_key: key } = await own.services.projects.create({ name: 'Fresh' });
    const call = (method: 'get' | 'post' | 'delete', path: string) =>
      request(own.app)[method](path).set('x-api-key', key);
    const probe = await makeChangeProbe(own.testDb);
    try {
      const mark = await probe.mark();
      await request(own.app).put('/account/someone').set('x-api-key', key).send({});
      const afterPut = await probe.mark();
      for (const res of [
        await call('get', '/list/missing'),
        await call('delete', '/list/missing/account/someone'),
        await call('delete', '/list/missing'),
        await call('post', '/list/vip/account/nobody'),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ statusCode: 404, message: expect.any(String) });
      }
      expect(await probe.writesSince(afterPut)).toEqual([]);
      // The probe sees a write when there is one.
      expect(await probe.writesSince(mark)).not.toEqual([]);
    } finally {
      await probe.close();
    }
  });
});

describe('POST /list/{list_name}', () => {
  test('creates a custom list; creating it again changes nothing and answers with it', async () => {
    const p = await newProject();
    const res = await p.createList('vip');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'vip', standard: false, num_accounts: 0, created_at: TEST_NOW });
    await expectSchema('ListSummary', res.body);
    await p.put('member-1', {});
    expect((await p.add('vip', 'member-1')).status).toBe(204);

    ctx.clock.advance(HOUR);
    const again = await p.createList('vip');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ name: 'vip', standard: false, num_accounts: 1, created_at: TEST_NOW });
    expect((await p.getList('vip')).body.account_ids).toEqual(['member-1']);
    expect((await p.lists()).body.lists.filter((l: { name: string }) => l.name === 'vip')).toHaveLength(1);
  });

  test('creating a standard list answers with it, still standard', async () => {
    const p = await newProject();
    const res = await p.createList('block');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'block', standard: true, num_accounts: 0 });
  });
});

describe('GET /list/{list_name}', () => {
  test('pages the account ids in id order with limit and after', async () => {
    const p = await newProject();
    const ids = ['acct-c', 'acct-a', 'acct-e', 'acct-b', 'acct-d'];
    for (const id of ids) await p.put(id, { lists: ['paged'] });

    const all = await p.getList('paged');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      name: 'paged',
      standard: false,
      num_accounts: 5,
      created_at: TEST_NOW,
      account_ids: ['acct-a', 'acct-b', 'acct-c', 'acct-d', 'acct-e'],
    });
    await expectSchema('ListPage', all.body);

    const page1 = await p.getList('paged', '?limit=2');
    expect(page1.body).toMatchObject({ num_accounts: 5, account_ids: ['acct-a', 'acct-b'] });
    const page2 = await p.getList('paged', '?limit=2&after=acct-b');
    expect(page2.body.account_ids).toEqual(['acct-c', 'acct-d']);
    const page3 = await p.getList('paged', '?limit=2&after=acct-d');
    expect(page3.body.account_ids).toEqual(['acct-e']);
    const past = await p.getList('paged', '?limit=2&after=acct-e');
    expect(past.body).toMatchObject({ num_accounts: 5, account_ids: [] });
  });

  test('when the list is unknown, then 404; when limit is out of range, then 400 naming limit', async () => {
    const p = await newProject();
    const res = await p.getList('never-made');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: expect.stringContaining('never-made') });
    for (const q of ['?limit=0', '?limit=1001', '?limit=x']) {
      const bad = await p.getList('allow', q);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ statusCode: 400, message: expect.stringContaining('limit') });
    }
  });
});

describe('DELETE /list/{list_name}', () => {
  test.each(['allow', 'block', 'main_account'])(
    'the standard list %s cannot be deleted: 400, and it keeps its members',
    async (name) => {
      const p = await newProject();
      await p.put('kept', { lists: [name] });
      const res = await p.deleteList(name);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining(name) });
      expect(res.body.message).toMatch(/list_name/);
      expect((await p.getList(name)).body).toMatchObject({
        name,
        standard: true,
        num_accounts: 1,
        account_ids: ['kept'],
      });
      expect(await listsOf(p, 'kept')).toEqual([name]);
    },
  );

  test('a custom list is deleted with its memberships: 204, then 404', async () => {
    const p = await newProject();
    await p.put('m-1', { lists: ['doomed', 'vip', 'block'] });
    await p.put('m-2', { lists: ['doomed'] });
    expect(await members(p.projectId, { list_name: 'doomed' })).toBe(2);

    const res = await p.deleteList('doomed');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await members(p.projectId, { list_name: 'doomed' })).toBe(0);
    expect(await listsOf(p, 'm-1')).toEqual(['block', 'vip']);
    expect(await listsOf(p, 'm-2')).toEqual([]);
    expect((await p.getList('doomed')).status).toBe(404);
    expect((await p.lists()).body.lists.map((l: { name: string }) => l.name)).toEqual([
      'allow',
      'block',
      'main_account',
      'vip',
    ]);
    expect((await p.deleteList('doomed')).status).toBe(404);
    // The accounts themselves stay.
    expect((await p.account('m-2')).status).toBe(200);
  });
});

describe('POST /list/{list_name}/account/{account_id}', () => {
  test('when the account is unknown, then 404 and no list is created', async () => {
    const p = await newProject();
    const res = await p.add('new-list', 'ghost');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: expect.stringContaining('ghost') });
    expect((await p.getList('new-list')).status).toBe(404);
    expect((await p.account('ghost')).status).toBe(404);
  });

  test('adds the account, creating a custom list on first use; adding twice changes nothing', async () => {
    const p = await newProject();
    await p.put('joiner', {});
    expect((await p.add('first-use', 'joiner')).status).toBe(204);
    expect((await p.add('first-use', 'joiner')).status).toBe(204);
    expect((await p.getList('first-use')).body).toMatchObject({
      standard: false,
      num_accounts: 1,
      account_ids: ['joiner'],
    });
    expect(await listsOf(p, 'joiner')).toEqual(['first-use']);
  });

  test('the standard lists are mutually exclusive; custom lists overlap with them and each other', async () => {
    const p = await newProject();
    await p.put('ex-1', {});
    await p.add('vip', 'ex-1');
    await p.add('beta', 'ex-1');
    expect((await p.add('allow', 'ex-1')).status).toBe(204);
    expect(await listsOf(p, 'ex-1')).toEqual(['allow', 'beta', 'vip']);
    expect((await p.add('block', 'ex-1')).status).toBe(204);
    expect(await listsOf(p, 'ex-1')).toEqual(['beta', 'block', 'vip']);
    expect((await p.add('main_account', 'ex-1')).status).toBe(204);
    expect(await listsOf(p, 'ex-1')).toEqual(['beta', 'main_account', 'vip']);
    expect((await p.add('allow', 'ex-1')).status).toBe(204);
    expect(await listsOf(p, 'ex-1')).toEqual(['allow', 'beta', 'vip']);
    const sizes = Object.fromEntries(
      (await p.lists()).body.lists.map((l: { name: string; num_accounts: number }) => [l.name, l.num_accounts]),
    );
    expect(sizes).toEqual({ allow: 1, block: 0, main_account: 0, vip: 1, beta: 1 });
    expect(await members(p.projectId, { account_id: 'ex-1' })).toBe(3);
  });

  test('a list name with a space (or too long) is refused with 400 naming list_name', async () => {
    const p = await newProject();
    await p.put('spacey', {});
    const calls = [
      p.getList('my list'),
      p.createList('my list'),
      p.deleteList('my list'),
      p.add('my list', 'spacey'),
      p.remove('my list', 'spacey'),
      p.createList('x'.repeat(65)),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining('list_name') });
    }
    expect((await p.lists()).body).toEqual({ lists: STANDARD });
    expect(await listsOf(p, 'spacey')).toEqual([]);
  });
});

describe('DELETE /list/{list_name}/account/{account_id}', () => {
  test('removes the account from the list: 204; removing it again changes nothing (204)', async () => {
    const p = await newProject();
    await p.put('leaver', { lists: ['vip', 'block'] });
    const res = await p.remove('vip', 'leaver');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await listsOf(p, 'leaver')).toEqual(['block']);
    expect((await p.getList('vip')).body).toMatchObject({ num_accounts: 0, account_ids: [] });
    expect((await p.remove('vip', 'leaver')).status).toBe(204);
    expect((await p.remove('block', 'leaver')).status).toBe(204);
    expect(await listsOf(p, 'leaver')).toEqual([]);
    // The list itself stays.
    expect((await p.getList('vip')).status).toBe(200);
  });

  test('when the list does not exist, then 404', async () => {
    const p = await newProject();
    await p.put('someone', {});
    const res = await p.remove('no-such-list', 'someone');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: expect.stringContaining('no-such-list') });
  });

  test('in a fresh project, removing an account that is not on a standard list changes nothing (204)', async () => {
    const p = await newProject();
    await p.put('never-listed', {});
    for (const name of ['allow', 'block', 'main_account']) {
      const res = await p.remove(name, 'never-listed');
      expect(res.status).toBe(204);
    }
  });
});

describe('lists in evaluations', () => {
  const HEADLESS: Partial<IngestSession> = {
    automation: { webdriver: true, signals: ['headless_chrome:user_agent'] },
    events: { mouse: 0, click: 0, keyboard: 0, touch: 0, clipboard: 0 },
  };

  test('an account on block is decided Fake, and authenticate reports its lists', async () => {
    const p = await newProject();
    const before = await p.signIn({ id: 'to-block', lists: ['vip'] });
    expect(before.decision).toBe('Real');
    expect(before.lists).toEqual(['vip']);
    expect((await p.add('block', 'to-block')).status).toBe(204);
    const after = await p.signIn({ id: 'to-block' });
    expect(after.lists).toEqual(['block', 'vip']);
    expect(after.decision).toBe('Fake');
    expect((await p.account('to-block')).body.decision).toBe('Fake');
    // An unauthenticated evaluation of a session of the account reports (and obeys) its lists too.
    const u = await p.sc.unauthenticated(after.session_id);
    expect(u.lists).toEqual(['block', 'vip']);
    expect(u.decision).toBe('Fake');
  });

  test('lists given to authenticate are applied before the decision', async () => {
    const p = await newProject();
    const r = await p.signIn({ id: 'self-block', lists: ['block', 'campaign-42'] });
    expect(r.lists).toEqual(['block', 'campaign-42']);
    expect(r.decision).toBe('Fake');
    expect((await p.getList('campaign-42')).body).toMatchObject({ standard: false, account_ids: ['self-block'] });
  });

  test('an account on allow is decided Real even for a headless bot session; removed from allow, it is Fake', async () => {
    const p = await newProject();
    await p.put('trusted-bot', { lists: ['allow'] });
    const allowed = await p.signIn({ id: 'trusted-bot' }, HEADLESS);
    expect(allowed.bot).toBeGreaterThanOrEqual(0.8);
    expect(allowed.lists).toEqual(['allow']);
    expect(allowed.decision).toBe('Real');
    await p.remove('allow', 'trusted-bot');
    const judged = await p.signIn({ id: 'trusted-bot' }, HEADLESS);
    expect(judged.lists).toEqual([]);
    expect(judged.decision).toBe('Fake');
  });

  test('an account on main_account has multiple_accounts 0 whatever its links', async () => {
    const p = await newProject();
    const device = randomUUID();
    await p.signIn({ id: 'family-1' }, { device_id: device });
    const linked = await p.signIn({ id: 'family-2' }, { device_id: device });
    expect(linked.accounts_linked).toBe(1);
    expect(linked.multiple_accounts).toBeGreaterThan(0);
    await p.add('main_account', 'family-2');
    const main = await p.signIn({ id: 'family-2' }, { device_id: device });
    expect(main.lists).toEqual(['main_account']);
    expect(main.accounts_linked).toBe(1);
    expect(main.multiple_accounts).toBe(0);
  });

  test('custom lists do not change the scores', async () => {
    const p = await newProject();
    const device = randomUUID();
    await p.signIn({ id: 'plain-1' }, { device_id: device });
    const plain = await p.signIn({ id: 'plain-2' }, { device_id: device });
    const listed = await p.sc.authenticated(plain.session_id, { id: 'plain-2', lists: ['vip', 'beta'] });
    expect(listed.lists).toEqual(['beta', 'vip']);
    for (const k of ['account_score', 'bot', 'multiple_accounts', 'risk_signals', 'decision'] as const)
      expect(listed[k]).toEqual(plain[k]);
  });

  test('authenticate with two standard lists in account.lists is refused with 400 naming lists', async () => {
    const p = await newProject();
    const id = await p.sc.ingest(personSession(), freshIp());
    const res = await p.sc.authenticate(id, { id: 'both-ways', lists: ['allow', 'block'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining('lists') });
    expect((await p.account('both-ways')).status).toBe(404);
  });
});
