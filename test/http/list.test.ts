/**
 * The List endpoints through HTTP with a real database: the standard lists (`allow`, `block`,
 * `main_account`: in every project, mutually exclusive, never deleted), custom lists (created
 * on first use or with a description, overlapping freely), their pages of members, and how
 * lists decide an evaluation. The answers are the production service's published shapes
 * (`{request_id, success, message}` for a change, 400 `List not found` / `Account not found`).
 * Response validation is on, so every answer is also checked against openapi.yaml.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AccountInput, AuthenticateResponse, IngestSession } from '../../src/api-types';
import { STANDARD_LIST_DESCRIPTIONS } from '../../src/domain/lists';
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
    createList: (name: string, body?: object) => {
      const req = request(ctx.app).post(path('list', name)).set('x-api-key', key);
      return body === undefined ? req : req.send(body);
    },
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
    put: (id: string, body: object) =>
      request(ctx.app)
        .put(path('account', id))
        .set('x-api-key', key)
        .send({ id, ...body }),
    /** An account, made as accounts are made: by authenticating a session with it. */
    make: async (id: string, lists?: string[]) => {
      await sc.signIn({ id, ...(lists ? { lists } : {}) }, {}, freshIp());
    },
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
  description: STANDARD_LIST_DESCRIPTIONS[name],
  standard: true,
  num_accounts: 0,
  created_at: expect.any(String),
}));

describe('GET /list', () => {
  test('a fresh project has the three standard lists, empty', async () => {
    const p = await newProject();
    const res = await p.lists();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ request_id: expect.any(String), lists: STANDARD });
    expect(STANDARD.every((l) => /\w/.test(l.description ?? ''))).toBe(true);
    await expectSchema('Lists', res.body);
    // A standard list can be read (empty) without ever having been used.
    for (const name of ['allow', 'block', 'main_account']) {
      const list = await p.getList(name);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        request_id: list.headers['x-request-id'],
        name,
        description: STANDARD_LIST_DESCRIPTIONS[name],
        standard: true,
        num_accounts: 0,
        created_at: expect.any(String),
        accounts: [],
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
    await p.make('a-1', ['vip', 'block']);
    await p.make('a-2', ['vip']);
    await p.createList('empty-one', { list_description: 'Nobody yet' });
    const res = await p.lists();
    const [allow, block, main] = STANDARD;
    expect(res.body.lists).toEqual([
      allow,
      { ...block, num_accounts: 1 },
      { name: 'empty-one', description: 'Nobody yet', standard: false, num_accounts: 0, created_at: TEST_NOW },
      main,
      { name: 'vip', description: '', standard: false, num_accounts: 2, created_at: TEST_NOW },
    ]);
  });

  test("another project's lists are not seen", async () => {
    const p = await newProject();
    const q = await newProject();
    await p.make('mine', ['private-list']);
    expect((await q.lists()).body).toEqual({ request_id: expect.any(String), lists: STANDARD });
    expect((await q.getList('private-list')).body).toEqual({ statusCode: 400, message: 'List not found' });
    // Nor can another project put one of this project's accounts on a list.
    const res = await q.add('vip', 'mine');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: 'Account not found' });
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

  test("when a new project's first list requests name a missing list or account, then 400 and nothing is written", async () => {
    const { api_key: key, project_id: projectId } = await own.services.projects.create({ name: 'Fresh' });
    const call = (method: 'get' | 'post' | 'delete', path: string) =>
      request(own.app)[method](path).set('x-api-key', key);
    const probe = await makeChangeProbe(own.testDb);
    try {
      const mark = await probe.mark();
      await scenario(own, key, projectId).signIn({ id: 'someone', lists: ['vip'] });
      const afterSignIn = await probe.mark();
      for (const [res, message] of [
        [await call('get', '/list/missing'), 'List not found'],
        [await call('delete', '/list/missing/account/someone'), 'List not found'],
        [await call('delete', '/list/vip/account/nobody'), 'Account not found'],
        [await call('delete', '/list/allow/account/someone'), 'Account is not on list allow'],
        [await call('delete', '/list/missing'), 'List not found'],
        [await call('post', '/list/vip/account/nobody'), 'Account not found'],
        [await call('post', '/list/vip'), 'List already exists'],
        [
          await request(own.app).put('/account/nobody').set('x-api-key', key).send({ id: 'nobody' }),
          'Account not found',
        ],
      ] as const) {
        expect(res.body).toEqual({ statusCode: 400, message });
        expect(res.status).toBe(400);
      }
      expect(await probe.writesSince(afterSignIn)).toEqual([]);
      // The probe sees a write when there is one.
      expect(await probe.writesSince(mark)).not.toEqual([]);
    } finally {
      await probe.close();
    }
  });
});

describe('POST /list/{list_name}', () => {
  test('creates a custom list with its description; creating it again is a 400 and changes nothing', async () => {
    const p = await newProject();
    const res = await p.createList('vip', { list_description: 'Customers on the premium plan' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ request_id: res.headers['x-request-id'], success: true, message: 'List vip created' });
    await expectSchema('ListChange', res.body);
    await p.make('member-1');
    expect((await p.add('vip', 'member-1')).status).toBe(200);

    ctx.clock.advance(HOUR);
    const again = await p.createList('vip', { list_description: 'Something else' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ statusCode: 400, message: 'List already exists' });
    expect((await p.getList('vip')).body).toMatchObject({
      description: 'Customers on the premium plan',
      created_at: TEST_NOW,
      accounts: ['member-1'],
    });
    expect((await p.lists()).body.lists.filter((l: { name: string }) => l.name === 'vip')).toHaveLength(1);
  });

  test('a list is created without a body, or with an empty one, and its description is empty', async () => {
    const p = await newProject();
    expect((await p.createList('bare')).status).toBe(200);
    expect((await p.createList('empty-body', {})).status).toBe(200);
    for (const name of ['bare', 'empty-body'])
      expect((await p.getList(name)).body).toMatchObject({ name, description: '', standard: false, accounts: [] });
  });

  test('when the body has a member it does not take, or the description is not text, then 400 naming it', async () => {
    const p = await newProject();
    for (const [body, field] of [
      [{ description: 'x' }, 'description'],
      [{ list_description: 5 }, 'list_description'],
      [{ list_description: 'x'.repeat(1025) }, 'list_description'],
    ] as const) {
      const res = await p.createList('refused', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining(field) });
    }
    expect((await p.getList('refused')).body).toEqual({ statusCode: 400, message: 'List not found' });
  });

  test('when the description is sent as `description`, then 400 saying that the field is list_description', async () => {
    const res = await (await newProject()).createList('refused', { description: 'Customers on the premium plan' });
    expect(res.body).toEqual({
      statusCode: 400,
      message: 'description is not a property of the body: did you mean list_description? (it takes list_description)',
    });
  });

  test('creating a standard list is a 400: it exists in every project', async () => {
    const p = await newProject();
    const res = await p.createList('block');
    expect(res.body).toEqual({ statusCode: 400, message: 'List already exists' });
    expect((await p.getList('block')).body).toMatchObject({
      standard: true,
      description: STANDARD_LIST_DESCRIPTIONS.block,
    });
  });
});

describe('GET /list/{list_name}', () => {
  test('pages the account ids in id order with limit and after', async () => {
    const p = await newProject();
    const ids = ['acct-c', 'acct-a', 'acct-e', 'acct-b', 'acct-d'];
    for (const id of ids) await p.make(id, ['paged']);

    const all = await p.getList('paged');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      request_id: all.headers['x-request-id'],
      name: 'paged',
      description: '',
      standard: false,
      num_accounts: 5,
      created_at: TEST_NOW,
      accounts: ['acct-a', 'acct-b', 'acct-c', 'acct-d', 'acct-e'],
    });
    await expectSchema('ListPage', all.body);

    const page1 = await p.getList('paged', '?limit=2');
    expect(page1.body).toMatchObject({ num_accounts: 5, accounts: ['acct-a', 'acct-b'] });
    const page2 = await p.getList('paged', '?limit=2&after=acct-b');
    expect(page2.body.accounts).toEqual(['acct-c', 'acct-d']);
    const page3 = await p.getList('paged', '?limit=2&after=acct-d');
    expect(page3.body.accounts).toEqual(['acct-e']);
    const past = await p.getList('paged', '?limit=2&after=acct-e');
    expect(past.body).toMatchObject({ num_accounts: 5, accounts: [] });
  });

  test('when the list is unknown, then 400 List not found; when limit is out of range, then 400 naming limit', async () => {
    const p = await newProject();
    const res = await p.getList('never-made');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: 'List not found' });
    for (const q of [`?after=${'x'.repeat(257)}`, '?after=a%00b']) {
      const bad = await p.getList('allow', q);
      expect(bad.body).toEqual({ statusCode: 400, message: expect.stringContaining('after') });
    }
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
      await p.make('kept', [name]);
      const res = await p.deleteList(name);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining(name) });
      expect(res.body.message).toMatch(/list_name/);
      expect((await p.getList(name)).body).toMatchObject({
        name,
        standard: true,
        num_accounts: 1,
        accounts: ['kept'],
      });
      expect(await listsOf(p, 'kept')).toEqual([name]);
    },
  );

  test('a custom list is deleted with its memberships: 200 with the published body, then 400 List not found', async () => {
    const p = await newProject();
    await p.make('m-1', ['doomed', 'vip', 'block']);
    await p.make('m-2', ['doomed']);
    expect(await members(p.projectId, { list_name: 'doomed' })).toBe(2);

    const res = await p.deleteList('doomed');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      request_id: res.headers['x-request-id'],
      success: true,
      message: 'List doomed deleted',
    });
    expect(await members(p.projectId, { list_name: 'doomed' })).toBe(0);
    expect(await listsOf(p, 'm-1')).toEqual(['block', 'vip']);
    expect(await listsOf(p, 'm-2')).toEqual([]);
    expect((await p.getList('doomed')).body).toEqual({ statusCode: 400, message: 'List not found' });
    expect((await p.lists()).body.lists.map((l: { name: string }) => l.name)).toEqual([
      'allow',
      'block',
      'main_account',
      'vip',
    ]);
    expect((await p.deleteList('doomed')).body).toEqual({ statusCode: 400, message: 'List not found' });
    // The accounts themselves stay.
    expect((await p.account('m-2')).status).toBe(200);
  });
});

describe('POST /list/{list_name}/account/{account_id}', () => {
  test('when the account is unknown, then 400 Account not found and no list is created', async () => {
    const p = await newProject();
    const res = await p.add('new-list', 'ghost');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: 'Account not found' });
    expect((await p.getList('new-list')).body).toEqual({ statusCode: 400, message: 'List not found' });
    expect((await p.account('ghost')).body).toEqual({ statusCode: 400, message: 'Account not found' });
  });

  test('adds the account, creating a custom list on first use; adding twice changes nothing', async () => {
    const p = await newProject();
    await p.make('joiner');
    const added = await p.add('first-use', 'joiner');
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      request_id: added.headers['x-request-id'],
      success: true,
      message: 'Account added to first-use',
    });
    expect((await p.add('first-use', 'joiner')).status).toBe(200);
    expect((await p.getList('first-use')).body).toMatchObject({
      standard: false,
      num_accounts: 1,
      accounts: ['joiner'],
    });
    expect(await listsOf(p, 'joiner')).toEqual(['first-use']);
  });

  test('the standard lists are mutually exclusive; custom lists overlap with them and each other', async () => {
    const p = await newProject();
    await p.make('ex-1');
    await p.add('vip', 'ex-1');
    await p.add('beta', 'ex-1');
    expect((await p.add('allow', 'ex-1')).status).toBe(200);
    expect(await listsOf(p, 'ex-1')).toEqual(['allow', 'beta', 'vip']);
    expect((await p.add('block', 'ex-1')).status).toBe(200);
    expect(await listsOf(p, 'ex-1')).toEqual(['beta', 'block', 'vip']);
    expect((await p.add('main_account', 'ex-1')).status).toBe(200);
    expect(await listsOf(p, 'ex-1')).toEqual(['beta', 'main_account', 'vip']);
    expect((await p.add('allow', 'ex-1')).status).toBe(200);
    expect(await listsOf(p, 'ex-1')).toEqual(['allow', 'beta', 'vip']);
    const sizes = Object.fromEntries(
      (await p.lists()).body.lists.map((l: { name: string; num_accounts: number }) => [l.name, l.num_accounts]),
    );
    expect(sizes).toEqual({ allow: 1, block: 0, main_account: 0, vip: 1, beta: 1 });
    expect(await members(p.projectId, { account_id: 'ex-1' })).toBe(3);
  });

  test('a list name is any text of 1 to 64 characters: `US users` is one; 65 characters or a NUL is refused naming list_name', async () => {
    const p = await newProject();
    await p.make('spacey');
    expect((await p.createList('US users', { list_description: 'Customers in the US' })).status).toBe(200);
    expect((await p.add('US users', 'spacey')).status).toBe(200);
    expect((await p.getList('US users')).body).toMatchObject({ name: 'US users', accounts: ['spacey'] });
    expect(await listsOf(p, 'spacey')).toEqual(['US users']);
    expect((await p.remove('US users', 'spacey')).status).toBe(200);
    expect((await p.deleteList('US users')).status).toBe(200);
    const long = 'x'.repeat(65);
    const calls = [
      p.getList(long),
      p.createList(long),
      p.deleteList(long),
      p.add(long, 'spacey'),
      p.remove(long, 'spacey'),
      p.createList('nul\u0000name'),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining('list_name') });
    }
    expect((await p.lists()).body).toEqual({ request_id: expect.any(String), lists: STANDARD });
    expect(await listsOf(p, 'spacey')).toEqual([]);
  });
});

describe('DELETE /list/{list_name}/account/{account_id}', () => {
  test('removes the account from the list: 200; removing it again is a 400 naming the list', async () => {
    const p = await newProject();
    await p.make('leaver', ['vip', 'block']);
    const res = await p.remove('vip', 'leaver');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      request_id: res.headers['x-request-id'],
      success: true,
      message: 'Account removed from vip',
    });
    expect(await listsOf(p, 'leaver')).toEqual(['block']);
    expect((await p.getList('vip')).body).toMatchObject({ num_accounts: 0, accounts: [] });
    expect((await p.remove('vip', 'leaver')).body).toEqual({ statusCode: 400, message: 'Account is not on list vip' });
    expect((await p.remove('block', 'leaver')).status).toBe(200);
    expect(await listsOf(p, 'leaver')).toEqual([]);
    // The list itself stays.
    expect((await p.getList('vip')).status).toBe(200);
  });

  test('when the list does not exist, then 400 List not found', async () => {
    const p = await newProject();
    await p.make('someone');
    const res = await p.remove('no-such-list', 'someone');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: 'List not found' });
  });

  test('in a fresh project, removing an account that is not on a standard list is a 400 naming the list', async () => {
    const p = await newProject();
    await p.make('never-listed');
    for (const name of ['allow', 'block', 'main_account']) {
      const res = await p.remove(name, 'never-listed');
      expect(res.body).toEqual({ statusCode: 400, message: `Account is not on list ${name}` });
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
    expect((await p.add('block', 'to-block')).status).toBe(200);
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
    expect((await p.getList('campaign-42')).body).toMatchObject({ standard: false, accounts: ['self-block'] });
  });

  test('an account on allow is decided Real even for a headless bot session; removed from allow, it is Fake', async () => {
    const p = await newProject();
    await p.make('trusted-bot', ['allow']);
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
    expect((await p.account('both-ways')).body).toEqual({ statusCode: 400, message: 'Account not found' });
  });
});
