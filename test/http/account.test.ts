/**
 * The Account endpoints through HTTP with a real database: GET, PUT, DELETE
 * /account/{account_id}, its sessions and its linked accounts, in the production service's
 * published shapes (the account nested in `account` with its scores and history, 200 bodies
 * for a DELETE, 400 `Account not found`), and the loose forms real clients send. Response
 * validation is on, so every answer is also checked against openapi.yaml by the server.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AccountInput, AuthenticateResponse, IngestSession } from '../../src/api-types';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { scenario } from '../helpers/evaluation';
import { describeErrors, schemaValidator } from '../helpers/spec';

let ctx: TestContext;
let key: string;
let s: ReturnType<typeof scenario>;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
  key = ctx.project.api_key;
  s = scenario(ctx);
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.set(TEST_NOW));

const HOUR = 3_600_000;
const at = (ms: number) => new Date(Date.parse(TEST_NOW) + ms).toISOString();

let ips = 0;
/** A residential London address (Sky UK) in a /24 of its own: sessions share no network unless a test says so. */
function freshIp(): string {
  const n = ips++;
  return `90.${200 + Math.floor(n / 250)}.${n % 250}.10`;
}

async function signIn(
  account: AccountInput,
  session: Partial<IngestSession> = {},
  linked = false,
  sc = s,
): Promise<AuthenticateResponse> {
  return sc.signIn(account, session, freshIp(), linked);
}

const api = {
  get: (id: string, apiKey = key) =>
    request(ctx.app)
      .get(`/account/${encodeURIComponent(id)}`)
      .set('x-api-key', apiKey),
  /** PUT with the body as given (`id` included or not). */
  putRaw: (id: string, body: unknown, apiKey = key) =>
    request(ctx.app)
      .put(`/account/${encodeURIComponent(id)}`)
      .set('x-api-key', apiKey)
      .send(body as object),
  /** PUT with the path's id in the body, as the interface requires. */
  put: (id: string, body: Record<string, unknown>, apiKey = key) =>
    request(ctx.app)
      .put(`/account/${encodeURIComponent(id)}`)
      .set('x-api-key', apiKey)
      .send({ id, ...body }),
  delete: (id: string, apiKey = key) =>
    request(ctx.app)
      .delete(`/account/${encodeURIComponent(id)}`)
      .set('x-api-key', apiKey),
  sessions: (id: string, query = '', apiKey = key) =>
    request(ctx.app)
      .get(`/account/${encodeURIComponent(id)}/sessions${query}`)
      .set('x-api-key', apiKey),
  linked: (id: string, apiKey = key) =>
    request(ctx.app)
      .get(`/account/${encodeURIComponent(id)}/accounts-linked`)
      .set('x-api-key', apiKey),
};

async function newProject(groups = false) {
  const p = await ctx.services.projects.create({ name: `Accounts ${randomUUID()}`, groups });
  return { sc: scenario(ctx, p.api_key, p.project_id), apiKey: p.api_key, projectId: p.project_id };
}

async function expectSchema(name: string, body: unknown): Promise<void> {
  const validate = await schemaValidator(name);
  const valid = validate(body);
  expect(describeErrors(validate.errors)).toBe('');
  expect(valid).toBe(true);
}

/** Every row of every table, as one string: what "the personal data is gone" is checked against. */
async function everything(): Promise<string> {
  const db = ctx.testDb.db;
  const tables: string[] =
    ctx.testDb.dialect === 'sqlite'
      ? (await db.raw(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)).map(
          (r: { name: string }) => r.name,
        )
      : (
          await db.raw(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`)
        ).rows.map((r: { name: string }) => r.name);
  const out: string[] = [];
  for (const t of tables) out.push(t, JSON.stringify(await db(t).select('*')));
  return out.join('\n');
}

const NOT_FOUND = { statusCode: 400, message: 'Account not found' };

async function count(table: string, where: Record<string, unknown>): Promise<number> {
  const row = await ctx.testDb.db(table).where(where).count<{ n: number | string }[]>({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

describe('authentication', () => {
  test('when x-api-key is missing, then 401 {statusCode, message} on every Account operation', async () => {
    await signIn({ id: 'auth-1' });
    const calls = [
      request(ctx.app).get('/account/auth-1'),
      request(ctx.app).put('/account/auth-1').send({ id: 'auth-1', email: 'x@example.com' }),
      request(ctx.app).delete('/account/auth-1'),
      request(ctx.app).get('/account/auth-1/sessions'),
      request(ctx.app).get('/account/auth-1/accounts-linked'),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ statusCode: 401, message: expect.stringMatching(/x-api-key/) });
    }
    const wrong = await api.get('auth-1', 'tg_not_a_key');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ statusCode: 401, message: expect.any(String) });
    // Nothing was changed by the refused PUT and DELETE.
    const res = await api.get('auth-1');
    expect(res.status).toBe(200);
    expect(res.body.account).not.toHaveProperty('email');
  });

  test("when another project's key is used, then the account is not found there (400)", async () => {
    await signIn({ id: 'mine-1', email: 'mine@example.com' });
    const other = await newProject();
    for (const res of [
      await api.get('mine-1', other.apiKey),
      await api.put('mine-1', { email: 'theirs@example.com' }, other.apiKey),
      await api.sessions('mine-1', '', other.apiKey),
      await api.linked('mine-1', other.apiKey),
      await api.delete('mine-1', other.apiKey),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(NOT_FOUND);
    }
    // The other project's PUT and DELETE did not touch it.
    expect((await api.get('mine-1')).body.account.email).toBe('mine@example.com');
  });
});

describe('GET /account/{account_id}', () => {
  test('when the account is unknown, then 400 {statusCode: 400, message: Account not found}', async () => {
    const res = await api.get('nobody-here');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(NOT_FOUND);
  });

  test('when the id in the path holds U+0000 (a%00b) or a lone surrogate, then 400 naming the path parameter on every Account operation (the same on both engines)', async () => {
    const rule = 'path parameter account_id must not contain U+0000 (NUL) or an unpaired surrogate';
    for (const id of ['a%00b', '%00', 'a%ED%A0%80b']) {
      for (const call of [
        request(ctx.app).get(`/account/${id}`),
        request(ctx.app).put(`/account/${id}`).send({ id: 'a' }),
        request(ctx.app).delete(`/account/${id}`),
        request(ctx.app).get(`/account/${id}/sessions`),
        request(ctx.app).get(`/account/${id}/accounts-linked`),
      ]) {
        const res = await call.set('x-api-key', key);
        expect(res.body).toEqual({
          statusCode: 400,
          message: id === 'a%ED%A0%80b' ? expect.stringMatching(/^\/account\/a%ED%A0%80b.* is not a valid path/) : rule,
        });
      }
    }
  });

  test('when the id in the path is longer than 256 characters, then 400 naming account_id on every Account operation', async () => {
    const id = 'x'.repeat(257);
    for (const call of [
      request(ctx.app).get(`/account/${id}`),
      request(ctx.app).put(`/account/${id}`).send({ id }),
      request(ctx.app).delete(`/account/${id}`),
      request(ctx.app).get(`/account/${id}/sessions`),
      request(ctx.app).get(`/account/${id}/accounts-linked`),
    ]) {
      const res = await call.set('x-api-key', key);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining('account_id') });
      expect(res.body.message).toMatch(/256/);
    }
    // 256 is an id: not found, but not refused.
    expect((await api.get('x'.repeat(256))).body).toEqual(NOT_FOUND);
  });

  test('when the account was authenticated, then it reads in the published shape: the account nested, its latest scores, its history as authenticate reported it', async () => {
    const ada = {
      id: 'get-1',
      email: 'Ada.Lovelace@gmail.com',
      phone: '+447911123456',
      first_name: 'Ada',
      last_name: 'Lovelace',
      username: 'ada',
      expected_countries: ['GB'],
      metadata: { plan: 'pro' },
    };
    const first = await signIn({ ...ada, lists: ['vip'] });
    let res = await api.get('get-1');
    expect(res.status).toBe(200);
    const { account: _brief, ...history } = first.account;
    expect(res.body).toEqual({
      project_id: ctx.project.project_id,
      request_id: res.headers['x-request-id'],
      account: { ...ada, group: '' },
      ...history,
      decision: first.decision,
      last_evaluation: { request_id: first.request_id, created_at: TEST_NOW },
      account_score: first.account_score,
      bot: first.bot,
      multiple_accounts: first.multiple_accounts,
      risk_signals: first.risk_signals,
      accounts_linked: first.accounts_linked,
      lists: ['vip'],
      created_at: TEST_NOW,
      updated_at: TEST_NOW,
    });
    // The history is there in full: the email is the email-intelligence object, not a string.
    expect(res.body).toMatchObject({
      num_sessions: 1,
      last_session: first.session_id,
      country: 'GB',
      countries: ['GB'],
      unique_devices: { '1_day': 1, '7_day': 1 },
      unique_networks: { '1_day': 1, '7_day': 1 },
      email: { email: 'adalovelace@gmail.com', personal: true, valid: true, domain_type: 'personal' },
      risk_signal_average: expect.objectContaining({ proxy: 0, location_spoofing: 0 }),
    });
    await expectSchema('AccountResponse', res.body);

    ctx.clock.advance(2 * HOUR);
    const second = await signIn({ id: 'get-1' });
    res = await api.get('get-1');
    expect(res.body).toMatchObject({
      num_sessions: 2,
      first_seen: TEST_NOW,
      last_seen: at(2 * HOUR),
      last_session: second.session_id,
      decision: second.decision,
      account_score: second.account_score,
      bot: second.bot,
      multiple_accounts: second.multiple_accounts,
      risk_signals: second.risk_signals,
      unique_devices: { '1_day': 2, '7_day': 2 },
      created_at: TEST_NOW,
      lists: ['vip'],
    });
    // An authenticate without identifiers leaves the stored ones.
    expect(res.body.account).toMatchObject({
      email: 'Ada.Lovelace@gmail.com',
      expected_countries: ['GB'],
      metadata: { plan: 'pro' },
    });
  });

  test('when the latest session was decided Fake, then the account reads Fake with that session’s scores', async () => {
    await signIn({ id: 'get-fake' });
    const bot = await signIn(
      { id: 'get-fake' },
      {
        automation: { webdriver: true, signals: ['headless_chrome:user_agent'] },
        events: { mouse: 0, click: 0, keyboard: 0, touch: 0, clipboard: 0 },
      },
    );
    expect(bot.decision).toBe('Fake');
    expect((await api.get('get-fake')).body).toMatchObject({
      decision: 'Fake',
      account_score: bot.account_score,
      bot: bot.bot,
    });
  });

  test('when the account was last evaluated before its scores were kept, then it reads without them', async () => {
    const r = await signIn({ id: 'get-old' });
    await ctx.testDb
      .db('accounts')
      .where({ project_id: ctx.project.project_id, id: 'get-old' })
      .update({ scores: null });
    const res = await api.get('get-old');
    expect(res.status).toBe(200);
    expect(res.body.decision).toBe(r.decision);
    for (const k of ['account_score', 'bot', 'multiple_accounts', 'risk_signals'])
      expect(res.body).not.toHaveProperty(k);
  });

  test('when the account has no sessions (an earlier release’s PUT made it), then it reads without last_session', async () => {
    await ctx.testDb.db('accounts').insert({
      project_id: ctx.project.project_id,
      id: 'get-sessionless',
      email: 'early@example.org',
      expected_countries: '[]',
      metadata: '{}',
      created_at: Date.parse(TEST_NOW),
      updated_at: Date.parse(TEST_NOW),
      num_sessions: 0,
      countries: '[]',
      version: 0,
    });
    const res = await api.get('get-sessionless');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      account: { id: 'get-sessionless', email: 'early@example.org' },
      num_sessions: 0,
      countries: [],
      accounts_linked: 0,
      lists: [],
    });
    expect(res.body).not.toHaveProperty('last_session');
    expect(res.body).not.toHaveProperty('decision');
    expect((await api.sessions('get-sessionless')).body.sessions).toEqual([]);
  });

  test('accounts_linked counts the accounts linked to it, as authenticate does', async () => {
    const p = await newProject();
    const device = randomUUID();
    await signIn({ id: 'count-a' }, { device_id: device }, false, p.sc);
    const b = await signIn({ id: 'count-b' }, { device_id: device }, false, p.sc);
    expect(b.accounts_linked).toBe(1);
    expect((await api.get('count-b', p.apiKey)).body.accounts_linked).toBe(1);
    expect((await api.get('count-a', p.apiKey)).body.accounts_linked).toBe(1);
  });
});

describe('PUT /account/{account_id}', () => {
  test('when the account does not exist, then 400 Account not found and nothing is created', async () => {
    const res = await api.put('put-new', { email: 'grace@example.com' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(NOT_FOUND);
    expect(await count('accounts', { project_id: ctx.project.project_id, id: 'put-new' })).toBe(0);
  });

  test('when the body has no id, or an id other than the path’s, then 400 naming id, and nothing is written', async () => {
    await signIn({ id: 'put-id', email: 'kept@example.com' });
    const missing = await api.putRaw('put-id', { email: 'changed@example.com' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ statusCode: 400, message: expect.stringMatching(/\bid\b/) });
    const other = await api.putRaw('put-id', { id: 'someone-else', email: 'changed@example.com' });
    expect(other.body).toEqual({
      statusCode: 400,
      message: 'request/body/id must be the account_id of the path ("put-id")',
    });
    expect((await api.get('put-id')).body.account.email).toBe('kept@example.com');
    expect(await count('accounts', { project_id: ctx.project.project_id, id: 'someone-else' })).toBe(0);
  });

  test('the interface’s example body (every member of an update) is taken, and the account reads back the same', async () => {
    await signIn({ id: 'put-example' });
    ctx.clock.advance(HOUR);
    const body = {
      id: 'put-example',
      email: 'grace.hopper@gmail.com',
      phone: '+14155552671',
      first_name: 'Grace',
      last_name: 'Hopper',
      username: 'ghopper',
      expected_countries: ['US', 'CA'],
      metadata: {},
    };
    const res = await api.putRaw('put-example', body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      project_id: ctx.project.project_id,
      request_id: res.headers['x-request-id'],
      account: body,
      num_sessions: 1,
      email: { email: 'gracehopper@gmail.com', domain_type: 'personal' },
      created_at: TEST_NOW,
      updated_at: at(HOUR),
    });
    await expectSchema('AccountResponse', res.body);
    const back = await api.get('put-example');
    expect({ ...back.body, request_id: 'x' }).toEqual({ ...res.body, request_id: 'x' });
  });

  test('when the account exists, then only the members given change and updated_at moves', async () => {
    await signIn({ id: 'put-upd', email: 'old@example.com', first_name: 'Old', last_name: 'Name', metadata: { a: 1 } });
    ctx.clock.advance(HOUR);
    const res = await api.put('put-upd', { email: 'new@example.com', username: 'newbie' });
    expect(res.status).toBe(200);
    expect(res.body.account).toEqual({
      id: 'put-upd',
      email: 'new@example.com',
      username: 'newbie',
      first_name: 'Old',
      last_name: 'Name',
      expected_countries: [],
      metadata: { a: 1 },
      group: '',
    });
    expect(res.body).toMatchObject({ num_sessions: 1, created_at: TEST_NOW, updated_at: at(HOUR) });
    expect(res.body.email.email).toBe('new@example.com');
  });

  test('expected_countries: a non-empty list replaces the stored one; an empty or omitted one keeps it', async () => {
    await signIn({ id: 'put-cc' });
    const cc = async (body: Record<string, unknown>) => (await api.put('put-cc', body)).body.account.expected_countries;
    expect(await cc({ expected_countries: ['GB', 'IE'] })).toEqual(['GB', 'IE']);
    expect(await cc({ expected_countries: ['FR'] })).toEqual(['FR']);
    expect(await cc({ expected_countries: [] })).toEqual(['FR']);
    expect(await cc({ email: 'cc@example.com' })).toEqual(['FR']);
    expect(await cc({})).toEqual(['FR']);
    expect((await api.get('put-cc')).body.account.expected_countries).toEqual(['FR']);
  });

  test('lists are added (created on first use), and a standard list replaces the other standard one', async () => {
    await signIn({ id: 'put-lists' });
    const lists = async (body: Record<string, unknown>) => (await api.put('put-lists', body)).body.lists;
    expect(await lists({ lists: ['vip'] })).toEqual(['vip']);
    expect(await lists({ lists: ['beta'] })).toEqual(['beta', 'vip']);
    expect(await lists({ lists: ['block'] })).toEqual(['beta', 'block', 'vip']);
    expect(await lists({ lists: ['allow'] })).toEqual(['allow', 'beta', 'vip']);
    expect(await lists({ lists: ['US users'] })).toEqual(['US users', 'allow', 'beta', 'vip']);
    expect(await lists({})).toEqual(['US users', 'allow', 'beta', 'vip']);
    const list = await request(ctx.app).get('/list/beta').set('x-api-key', key);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ name: 'beta', standard: false, accounts: ['put-lists'] });
  });

  test('when groups are off, then a group is refused with 400 naming group, and nothing is written', async () => {
    await signIn({ id: 'put-group', email: 'g@example.com' });
    const before = (await api.get('put-group')).body;
    const res = await api.put('put-group', { email: 'changed@example.com', group: 'tenant-1' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringMatching(/\bgroup\b/) });
    expect({ ...(await api.get('put-group')).body, request_id: 'x' }).toEqual({ ...before, request_id: 'x' });
  });

  test('when groups are on, then the account keeps its group and cannot change it', async () => {
    const p = await newProject(true);
    await signIn({ id: 'grp-1', group: 'tenant-1' }, {}, false, p.sc);
    expect((await api.put('grp-1', { email: 'a@example.com' }, p.apiKey)).body.account.group).toBe('tenant-1');
    expect((await api.put('grp-1', { group: 'tenant-1' }, p.apiKey)).body.account.group).toBe('tenant-1');
    const before = (await api.get('grp-1', p.apiKey)).body;
    const move = await api.put('grp-1', { group: 'tenant-2', email: 'b@example.com' }, p.apiKey);
    expect(move.status).toBe(400);
    expect(move.body.message).toMatch(/\bgroup\b/);
    expect({ ...(await api.get('grp-1', p.apiKey)).body, request_id: 'x' }).toEqual({ ...before, request_id: 'x' });
  });

  const long = (n: number) => 'x'.repeat(n);
  const invalid: [string, string, Record<string, unknown>][] = [
    ['id', 'not a string', { id: 42 }],
    ['email', 'longer than 320 characters', { email: `${long(320)}@example.com` }],
    ['email', 'not a string', { email: 42 }],
    ['phone', 'not E.164', { phone: '07911 123456' }],
    ['phone', 'more than 15 digits', { phone: `+${'1'.repeat(16)}` }],
    ['first_name', 'longer than 256 characters', { first_name: long(257) }],
    ['last_name', 'longer than 256 characters', { last_name: long(257) }],
    ['username', 'longer than 256 characters', { username: long(257) }],
    ['expected_countries', 'a code with a digit', { expected_countries: ['G1'] }],
    ['expected_countries', 'an alpha-3 code', { expected_countries: ['GBR'] }],
    ['expected_countries', 'a lower-case alpha-3 code', { expected_countries: ['gbr'] }],
    ['expected_countries', 'not an array', { expected_countries: 'GB' }],
    ['expected_countries', 'more than 250 items', { expected_countries: Array.from({ length: 251 }, () => 'GB') }],
    ['metadata', 'a string', { metadata: 'pro' }],
    ['metadata', 'a non-empty array', { metadata: ['pro'] }],
    ['group', 'empty', { group: '' }],
    ['lists', 'a name holding U+0000 (NUL)', { lists: ['a\u0000b'] }],
    ['lists', 'a name longer than 64 characters', { lists: [long(65)] }],
    ['lists', 'more than 50 items', { lists: Array.from({ length: 51 }, (_, i) => `l${i}`) }],
    ['lists', 'not an array', { lists: 'vip' }],
    ['first_name', 'holding U+0000 (NUL)', { first_name: 'a\u0000b' }],
    ['last_name', 'holding U+0000 (NUL)', { last_name: '\u0000' }],
    ['email', 'holding a lone surrogate', { email: 'a\ud800b' }],
    ['username', 'holding a lone surrogate', { username: 'x\udfff' }],
    ['group', 'holding U+0000 (NUL)', { group: 'g\u0000' }],
    ['metadata', 'nested four levels deep', { metadata: { a: [{ b: [1] }] } }],
    [
      'metadata',
      'with more than 64 members',
      { metadata: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i])) },
    ],
    ['metadata', 'with a key longer than 128 characters', { metadata: { [long(129)]: 1 } }],
    ['metadata', 'larger than 16384 bytes as JSON', { metadata: { blob: 'é'.repeat(8_190) } }],
  ];

  test.each(invalid)('when %s is %s, then 400 naming it, and nothing is written', async (field, _rule, body) => {
    if ((await api.get('put-invalid')).status !== 200)
      await signIn({
        id: 'put-invalid',
        email: 'valid@example.com',
        expected_countries: ['GB'],
        metadata: { k: 'v' },
        lists: ['keep'],
      });
    const before = (await api.get('put-invalid')).body;
    const lists = await count('lists', { project_id: ctx.project.project_id });
    const res = await api.put('put-invalid', { username: 'would-change', ...body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining(field) });
    expect({ ...(await api.get('put-invalid')).body, request_id: 'x' }).toEqual({ ...before, request_id: 'x' });
    expect(await count('lists', { project_id: ctx.project.project_id })).toBe(lists);
  });

  test('when a name holds U+0000 or an email a lone surrogate, then 400 naming the field and the rule (the same on both engines)', async () => {
    await signIn({ id: 'put-text' });
    const nul = await api.put('put-text', { first_name: 'a\u0000b' });
    expect(nul.body).toEqual({
      statusCode: 400,
      message: 'first_name must not contain U+0000 (NUL) or an unpaired surrogate',
    });
    const surrogate = await api.put('put-text', { email: 'a\ud800b' });
    expect(surrogate.body).toEqual({
      statusCode: 400,
      message: 'email must not contain U+0000 (NUL) or an unpaired surrogate',
    });
    expect((await api.get('put-text')).body.account).toEqual({
      id: 'put-text',
      expected_countries: [],
      metadata: {},
      group: '',
    });
  });

  test('when metadata holds U+0000 and lone surrogates in its keys and values, then it is stored escaped and read back as sent', async () => {
    await signIn({ id: 'put-free-text' });
    const metadata = { 'k\u0000': 'v\u0000', note: 'a\ud800b', nested: { list: ['\udfff', 'ok'] } };
    const res = await api.put('put-free-text', { metadata });
    expect(res.status).toBe(200);
    expect(res.body.account.metadata).toEqual(metadata);
    expect((await api.get('put-free-text')).body.account.metadata).toEqual(metadata);
  });

  test('when metadata is exactly 16384 bytes as JSON and three levels deep, then it is stored', async () => {
    await signIn({ id: 'put-max-metadata' });
    const metadata = { a: { b: { c: 1 } }, blob: 'x'.repeat(16_384 - '{"a":{"b":{"c":1}},"blob":""}'.length) };
    expect(Buffer.byteLength(JSON.stringify(metadata))).toBe(16_384);
    const res = await api.put('put-max-metadata', { metadata });
    expect(res.status).toBe(200);
    expect(res.body.account.metadata).toEqual(metadata);
  });

  test('when metadata is nested 20,000 deep (120 KB), then 400 naming where it is too deep, and nothing is written', async () => {
    await signIn({ id: 'put-deep' });
    const deep = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);
    const res = await request(ctx.app)
      .put('/account/put-deep')
      .set('x-api-key', key)
      .set('content-type', 'application/json')
      .send(`{"id":"put-deep","metadata":${deep}}`);
    expect(res.body).toEqual({
      statusCode: 400,
      message: 'metadata.a.a.a.a… must not nest arrays and objects more than 64 levels deep',
    });
    expect((await api.get('put-deep')).body.account.metadata).toEqual({});
  });

  test('when a member the interface does not have is sent, then 400 naming it', async () => {
    await signIn({ id: 'put-extra' });
    const res = await api.put('put-extra', { email: 'e@example.com', nickname: 'e' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining('nickname') });
    expect((await api.get('put-extra')).body.account).not.toHaveProperty('email');
  });

  test('when lists holds two standard lists, then 400 naming lists, and nothing is written', async () => {
    await signIn({ id: 'put-two-standard', lists: ['vip'] });
    const res = await api.put('put-two-standard', { lists: ['allow', 'block'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining('lists') });
    expect((await api.get('put-two-standard')).body.lists).toEqual(['vip']);
  });
});

describe('PUT /account/{account_id}: the loose forms real clients send', () => {
  test('a PHP client’s body (metadata [] for an empty map, group null, lower-case countries) is taken as meant', async () => {
    await signIn({ id: 'php-1', metadata: { old: true } });
    // As PHP's json_encode writes an account whose metadata is an empty array and group unset.
    const res = await request(ctx.app)
      .put('/account/php-1')
      .set('x-api-key', key)
      .set('content-type', 'application/json')
      .send('{"id":"php-1","email":"php@example.com","expected_countries":["us","Ca"],"metadata":[],"group":null}');
    expect(res.status).toBe(200);
    expect(res.body.account).toEqual({
      id: 'php-1',
      email: 'php@example.com',
      expected_countries: ['US', 'CA'],
      metadata: {},
      group: '',
    });
    expect((await api.get('php-1')).body.account).toEqual(res.body.account);
  });

  test('group null with groups on leaves the account’s group', async () => {
    const p = await newProject(true);
    await signIn({ id: 'php-grp', group: 'tenant-1' }, {}, false, p.sc);
    const res = await api.put('php-grp', { group: null, username: 'php' }, p.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.account).toMatchObject({ group: 'tenant-1', username: 'php' });
  });

  test('what is loose only in appearance is still refused: metadata [1], group 0, countries that are not two letters', async () => {
    await signIn({ id: 'php-refused' });
    for (const [body, field] of [
      [{ metadata: [1] }, 'metadata'],
      [{ metadata: {}, group: 0 }, 'group'],
      [{ expected_countries: ['u'] }, 'expected_countries'],
      [{ expected_countries: [1] }, 'expected_countries'],
    ] as const) {
      const res = await api.put('php-refused', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining(field) });
    }
  });
});

describe('DELETE /account/{account_id}', () => {
  test('when the account is erased, then 200 with the published body, GET 400, its personal data, session links and memberships are gone, and its sessions stay', async () => {
    const p = await newProject();
    const device = randomUUID();
    const person = {
      id: 'erase-me',
      email: 'erase.me.please@gmail.com',
      phone: '+447911123499',
      first_name: 'Eraseable',
      last_name: 'Personson',
      username: 'erase_me_user',
      metadata: { secret: 'erase-metadata-value' },
      lists: ['vip', 'block'],
    };
    const r1 = await signIn(person, { device_id: device }, false, p.sc);
    const r2 = await signIn({ id: 'erase-me' }, {}, false, p.sc);
    const friend = await signIn({ id: 'erase-friend' }, { device_id: device }, true, p.sc);
    expect(friend.linked_accounts!.map((l) => l.account_id)).toEqual(['erase-me']);
    expect(await count('session_accounts', { project_id: p.projectId, account_id: 'erase-me' })).toBe(2);
    expect(await count('list_members', { project_id: p.projectId, account_id: 'erase-me' })).toBe(2);

    const res = await api.delete('erase-me', p.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ request_id: res.headers['x-request-id'], account_id: 'erase-me', success: true });
    await expectSchema('AccountDeleted', res.body);

    const gone = await api.get('erase-me', p.apiKey);
    expect(gone.status).toBe(400);
    expect(gone.body).toEqual(NOT_FOUND);
    expect((await api.sessions('erase-me', '', p.apiKey)).body).toEqual(NOT_FOUND);
    expect((await api.linked('erase-me', p.apiKey)).body).toEqual(NOT_FOUND);

    expect(await count('accounts', { project_id: p.projectId, id: 'erase-me' })).toBe(0);
    expect(await count('session_accounts', { project_id: p.projectId, account_id: 'erase-me' })).toBe(0);
    expect(await count('list_members', { project_id: p.projectId, account_id: 'erase-me' })).toBe(0);
    // No table keeps a trace of the person's identifiers.
    const dump = await everything();
    for (const value of [
      person.email,
      'erasemeplease@gmail.com',
      person.phone,
      'Eraseable',
      'Personson',
      person.username,
      'erase-metadata-value',
    ]) {
      expect(dump).not.toContain(value);
    }
    // The sessions stay, without the account.
    for (const r of [r1, r2]) {
      expect(await count('sessions', { project_id: p.projectId, id: r.session_id })).toBe(1);
      const session = await request(ctx.app).get(`/session/${r.session_id}`).set('x-api-key', p.apiKey);
      expect(session.status).toBe(200);
      expect(session.body.account_ids).toEqual([]);
    }
    // The block list no longer counts it.
    expect((await request(ctx.app).get('/list/block').set('x-api-key', p.apiKey)).body).toMatchObject({
      num_accounts: 0,
      accounts: [],
    });

    // The account it was linked to no longer lists it.
    const links = await api.linked('erase-friend', p.apiKey);
    expect(links.status).toBe(200);
    expect(links.body).toEqual({ request_id: expect.any(String), account_id: 'erase-friend', accounts_linked: [] });
    const again = await signIn({ id: 'erase-friend' }, { device_id: device }, true, p.sc);
    expect(again.accounts_linked).toBe(0);
    expect(again.linked_accounts).toEqual([]);
  });

  test('when the account is unknown (or already erased), then 400 Account not found', async () => {
    await signIn({ id: 'erase-twice' });
    expect((await api.delete('erase-twice')).status).toBe(200);
    const res = await api.delete('erase-twice');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(NOT_FOUND);
  });

  test('when an erased id is used again, then it is a new account with no history', async () => {
    await signIn({ id: 'reborn', email: 'first.life@example.com', lists: ['vip'] });
    await api.delete('reborn');
    ctx.clock.advance(HOUR);
    const r = await signIn({ id: 'reborn' });
    const res = await api.get('reborn');
    expect(res.body).toMatchObject({
      account: { id: 'reborn', expected_countries: [], metadata: {} },
      lists: [],
      num_sessions: 1,
      first_seen: at(HOUR),
      last_session: r.session_id,
      created_at: at(HOUR),
    });
    expect(res.body).not.toHaveProperty('email');
  });
});

describe('GET /account/{account_id}/sessions', () => {
  test('the session ids are newest first; limit takes the newest', async () => {
    const evaluations: AuthenticateResponse[] = [];
    for (let i = 0; i < 3; i++) {
      evaluations.push(await signIn({ id: 'sessions-1' }));
      ctx.clock.advance(HOUR);
    }
    const res = await api.sessions('sessions-1');
    expect(res.status).toBe(200);
    await expectSchema('AccountSessions', res.body);
    expect(res.body).toEqual({
      request_id: res.headers['x-request-id'],
      account_id: 'sessions-1',
      sessions: evaluations.map((e) => e.session_id).reverse(),
    });

    const two = await api.sessions('sessions-1', '?limit=2');
    expect(two.status).toBe(200);
    expect(two.body.sessions).toEqual([
      evaluations[2]!.session_id, // three, from the loop above
      evaluations[1]!.session_id,
    ]);
  });

  test('a session authenticated again with the account is listed once', async () => {
    const first = await signIn({ id: 'sessions-re' });
    await s.authenticated(first.session_id, { id: 'sessions-re', lists: ['block'] });
    expect((await api.sessions('sessions-re')).body.sessions).toEqual([first.session_id]);
  });

  test('when limit is out of range, then 400 naming limit; when the account is unknown, then 400 Account not found', async () => {
    await signIn({ id: 'sessions-limits' });
    for (const q of ['?limit=0', '?limit=501', '?limit=many']) {
      const res = await api.sessions('sessions-limits', q);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining('limit') });
    }
    const unknown = await api.sessions('sessions-nobody');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(NOT_FOUND);
  });
});

describe('GET /account/{account_id}/accounts-linked', () => {
  test('it reports the same accounts as authenticate with accounts_linked=true, strongest first, as an array', async () => {
    const p = await newProject();
    const device = randomUUID();
    const fingerprint = randomUUID().replace(/-/g, '');
    await signIn({ id: 'links-browser', lists: ['vip'] }, { device_id: device }, false, p.sc);
    await signIn(
      { id: 'links-device', email: 'dev@example.com', expected_countries: ['FR'] },
      { browser_fingerprint: fingerprint },
      false,
      p.sc,
    );
    await signIn({ id: 'links-email', email: 'zoe.bronte@gmail.com' }, {}, false, p.sc);
    // A namesake alone is no link (docs/scoring.md, "When a pair is a link: the floor").
    await signIn({ id: 'links-name', first_name: 'Zoë', last_name: 'Brontë' }, {}, false, p.sc);
    const r = await signIn(
      { id: 'links-me', email: 'zoebronte@gmail.com', first_name: 'zoe', last_name: 'bronte' },
      { device_id: device, browser_fingerprint: fingerprint },
      true,
      p.sc,
    );
    expect(r.accounts_linked).toBe(3);

    const res = await api.linked('links-me', p.apiKey);
    expect(res.status).toBe(200);
    await expectSchema('AccountLinks', res.body);
    expect(res.body).toEqual({
      request_id: res.headers['x-request-id'],
      account_id: 'links-me',
      accounts_linked: r.linked_accounts,
    });
    expect(res.body.accounts_linked.map((l: { account_id: string }) => l.account_id)).toEqual([
      'links-browser',
      'links-email',
      'links-device',
    ]);
    expect((await api.get('links-me', p.apiKey)).body.accounts_linked).toBe(3);
  });

  test('a PUT that changes the linking identifier changes the links', async () => {
    const p = await newProject();
    await signIn({ id: 'links-put-a', email: 'shared.mailbox@gmail.com' }, {}, false, p.sc);
    const r = await signIn({ id: 'links-put-b', email: 'sharedmailbox+promo@gmail.com' }, {}, true, p.sc);
    expect(r.linked_accounts!.map((l) => [l.account_id, l.match_type])).toEqual([['links-put-a', ['email']]]);
    const back = await api.linked('links-put-a', p.apiKey);
    expect(back.body.accounts_linked).toEqual([
      expect.objectContaining({ account_id: 'links-put-b', match_type: ['email'], first_seen: TEST_NOW }),
    ]);
    await api.put('links-put-a', { email: 'another@gmail.com' }, p.apiKey);
    expect((await api.linked('links-put-a', p.apiKey)).body.accounts_linked).toEqual([]);
    expect((await api.get('links-put-a', p.apiKey)).body.accounts_linked).toBe(0);
  });

  test('an account with no links reads an empty array', async () => {
    const p = await newProject();
    await signIn({ id: 'links-alone' }, {}, false, p.sc);
    expect((await api.linked('links-alone', p.apiKey)).body).toEqual({
      request_id: expect.any(String),
      account_id: 'links-alone',
      accounts_linked: [],
    });
  });

  test('with groups on, only accounts of the same group are reported', async () => {
    const p = await newProject(true);
    const device = randomUUID();
    await signIn({ id: 'g-a', group: 'one' }, { device_id: device }, false, p.sc);
    await signIn({ id: 'g-b', group: 'two' }, { device_id: device }, false, p.sc);
    await signIn({ id: 'g-c', group: 'one' }, { device_id: device }, false, p.sc);
    expect(
      (await api.linked('g-a', p.apiKey)).body.accounts_linked.map((l: { account_id: string }) => l.account_id),
    ).toEqual(['g-c']);
    expect((await api.linked('g-b', p.apiKey)).body.accounts_linked).toEqual([]);
  });
});
