/**
 * Contract tests of the Session tag through real HTTP and a real database. Response
 * validation is on, so every answer is also checked against openapi.yaml by the server.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AccountInput, ErrorBody, Session } from '../../src/api-types';
import { makeTestContext, type TestContext } from '../helpers/app';
import { storeSession } from '../helpers/sessions';
import { schemaValidator, describeErrors } from '../helpers/spec';

let ctx: TestContext;
let key: string;

beforeAll(async () => {
  ctx = await makeTestContext();
  key = ctx.project.api_key;
});
afterAll(() => ctx.close());

/** Every table's row count: what "nothing written" is checked against. */
async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['projects', 'api_keys', 'sessions', 'session_accounts']) {
    const row = await ctx.testDb.db(table).count<{ n: number | string }[]>({ n: '*' }).first();
    counts[table] = Number(row?.n);
  }
  return counts;
}

describe('GET /session/{session_id}', () => {
  it('when the session is stored, then it is returned in the top-level form', async () => {
    const { id, facts } = await storeSession(ctx.services, ctx.project.project_id, { accounts: ['acct-1', 'acct-2'] });
    const res = await request(ctx.app).get(`/session/${id}`).set('x-api-key', key);
    expect(res.status).toBe(200);
    const body = res.body as Session;
    expect(body.session_id).toBe(id);
    expect(body.project_id).toBe(ctx.project.project_id);
    expect(body.account_ids).toEqual(['acct-1', 'acct-2']);
    expect(body.request_id).toBe(res.headers['x-request-id']);
    expect(body.device_id).toBe(facts.device_id);
    expect(body.location).toEqual(facts.location);
    // The top-level form has no asn, subnet or ip_reputation: those are the evaluated form's.
    expect(body.network).toEqual({
      ip_address: facts.network.ip_address,
      service_provider: facts.network.service_provider,
      connection_type: facts.network.connection_type,
    });
    expect(body.risk_signals).not.toHaveProperty('ip_reputation');
    expect(body.risk_signal_scores).not.toHaveProperty('ip_reputation');
    expect(body.risk_signal_scores).not.toHaveProperty('spoofed_ip');
    const validate = await schemaValidator('Session');
    expect(describeErrors(validate.errors)).toBe('');
    expect(validate(body)).toBe(true);
  });

  it('when the session id is unknown, then 400 "Session ID not found"', async () => {
    const res = await request(ctx.app).get(`/session/${randomUUID()}`).set('x-api-key', key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: 'Session ID not found' });
  });

  it('when the session belongs to another project, then it is not found', async () => {
    const other = await ctx.services.projects.create({ name: 'Other' });
    const { id } = await storeSession(ctx.services, other.project_id);
    const res = await request(ctx.app).get(`/session/${id}`).set('x-api-key', key);
    expect(res.body).toEqual({ statusCode: 400, message: 'Session ID not found' });
    const own = await request(ctx.app).get(`/session/${id}`).set('x-api-key', other.api_key);
    expect(own.status).toBe(200);
  });

  it('when the session id is not a lowercase UUID, then 400 naming the path parameter', async () => {
    const res = await request(ctx.app).get('/session/7B1C3A9E-2F4D-4C1B-9A8E-5D6F7A8B9C0D').set('x-api-key', key);
    expect(res.status).toBe(400);
    expect(res.body.statusCode).toBe(400);
    expect(res.body.message).toMatch(/^path parameter session_id must match pattern/);
  });

  it('when the x-api-key header is missing, then 401', async () => {
    const res = await request(ctx.app).get(`/session/${randomUUID()}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message: "'x-api-key' header required" });
  });

  it('when the x-api-key is unknown, then 401', async () => {
    const res = await request(ctx.app)
      .get(`/session/${randomUUID()}`)
      .set('x-api-key', key + 'x');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message: 'Invalid x-api-key' });
  });

  it('when the key was rotated, then the old key gets 401 and the new one works', async () => {
    const p = await ctx.services.projects.create({ name: 'Rotating' });
    const { id } = await storeSession(ctx.services, p.project_id);
    const { api_key } = await ctx.services.projects.rotateKey(p.project_id);
    expect((await request(ctx.app).get(`/session/${id}`).set('x-api-key', p.api_key)).status).toBe(401);
    expect((await request(ctx.app).get(`/session/${id}`).set('x-api-key', api_key)).status).toBe(200);
  });
});

const validAccount: AccountInput = {
  id: 'acct-limits',
  email: 'jane@example.com',
  phone: '+14155550123',
  first_name: 'Jane',
  last_name: 'Doe',
  username: 'jane',
  expected_countries: ['US'],
  metadata: { plan: 'free' },
  lists: ['beta'],
};

describe('POST /session/authenticate', () => {
  const limits: [string, Partial<Record<keyof AccountInput, unknown>>, RegExp][] = [
    [
      'phone longer than 32 characters',
      { phone: '+1' + '2'.repeat(31) },
      /^account\.phone must NOT have more than 32 characters$/,
    ],
    ['phone not in E.164 form', { phone: '415-555-0123' }, /^account\.phone must match pattern/],
    [
      'first_name longer than 256',
      { first_name: 'a'.repeat(257) },
      /^account\.first_name must NOT have more than 256 characters$/,
    ],
    [
      'last_name longer than 256',
      { last_name: 'a'.repeat(257) },
      /^account\.last_name must NOT have more than 256 characters$/,
    ],
    [
      'username longer than 256',
      { username: 'a'.repeat(257) },
      /^account\.username must NOT have more than 256 characters$/,
    ],
    [
      'an expected country of 3 characters',
      { expected_countries: ['USA'] },
      /^account\.expected_countries\.0 must NOT have more than 2 characters$/,
    ],
    [
      'an expected country of 1 character',
      { expected_countries: ['U'] },
      /^account\.expected_countries\.0 must NOT have fewer than 2 characters$/,
    ],
    // (Lower case is read upper-cased: test/compat/php-client.test.ts.)
    [
      'an expected country that is not two letters',
      { expected_countries: ['U1'] },
      /^account\.expected_countries\.0 must match pattern/,
    ],
    ['metadata that is not an object', { metadata: 'plan=free' }, /^account\.metadata must be object$/],
    ['an id that is empty', { id: '' }, /^account\.id must NOT have fewer than 1 characters$/],
    // Text PostgreSQL cannot store, or that is not Unicode: the same 400 on both engines.
    [
      'an email with a lone surrogate',
      { email: 'a\ud800b' },
      /^account\.email must not contain U\+0000 \(NUL\) or an unpaired surrogate$/,
    ],
    [
      'an id with U+0000',
      { id: 'a\u0000b' },
      /^account\.id must not contain U\+0000 \(NUL\) or an unpaired surrogate$/,
    ],
    [
      'a first_name with U+0000',
      { first_name: 'Ja\u0000ne' },
      /^account\.first_name must not contain U\+0000 \(NUL\) or an unpaired surrogate$/,
    ],
    [
      'a username with a lone low surrogate',
      { username: '\udc00jane' },
      /^account\.username must not contain U\+0000 \(NUL\) or an unpaired surrogate$/,
    ],
    [
      'metadata nested four levels deep',
      { metadata: { a: { b: { c: { d: 1 } } } } },
      /^account\.metadata\.a\.b\.c must be string,number,boolean,null$/,
    ],
    [
      'metadata with more than 64 members',
      { metadata: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i])) },
      /^account\.metadata must NOT have more than 64 properties$/,
    ],
    [
      'metadata larger than 16384 bytes as JSON',
      { metadata: { blob: 'x'.repeat(16_384) } },
      /^account\.metadata must not be larger than 16384 bytes as JSON \(it is 16395\)$/,
    ],
  ];

  it.each(limits)(
    'when the account has %s, then 400 naming the field and nothing is written',
    async (_title, change, message) => {
      const { id } = await storeSession(ctx.services, ctx.project.project_id);
      const before = await rowCounts();
      const res = await request(ctx.app)
        .post('/session/authenticate')
        .set('x-api-key', key)
        .send({ session_id: id, account: { ...validAccount, ...change } });
      expect(res.status).toBe(400);
      expect(res.body.statusCode).toBe(400);
      expect(res.body.message).toMatch(message);
      expect(await rowCounts()).toEqual(before);
    },
  );

  it('when metadata is nested 20,000 deep (120 KB), then 400 naming where it is too deep, and nothing is written', async () => {
    const { id } = await storeSession(ctx.services, ctx.project.project_id);
    const before = await rowCounts();
    const deep = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);
    const res = await request(ctx.app)
      .post('/session/authenticate')
      .set('x-api-key', key)
      .set('content-type', 'application/json')
      .send(`{"session_id":"${id}","account":{"id":"deep","metadata":${deep}}}`);
    expect(res.body).toEqual({
      statusCode: 400,
      message: 'account.metadata.a.a.a… must not nest arrays and objects more than 64 levels deep',
    });
    expect(await rowCounts()).toEqual(before);
  });

  it('when the account is missing, then 400 naming it', async () => {
    const res = await request(ctx.app)
      .post('/session/authenticate')
      .set('x-api-key', key)
      .send({ session_id: randomUUID() });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("body must have required property 'account'");
  });

  it('when the body has an unknown member, then 400 naming it, the member meant and the known ones', async () => {
    const res = await request(ctx.app)
      .post('/session/authenticate')
      .set('x-api-key', key)
      .send({ session_id: randomUUID(), account: validAccount, acount: {} });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'acount is not a property of the body: did you mean account? (it takes account, session_id)',
    );
  });

  it('when the account has an unknown member, then 400 naming it within account and the member meant', async () => {
    const res = await request(ctx.app)
      .post('/session/authenticate')
      .set('x-api-key', key)
      .send({ session_id: randomUUID(), account: { ...validAccount, emial: 'ada@example.com' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(
      /^account\.emial is not a property of account: did you mean email\? \(it takes .*\bemail\b/,
    );
  });

  it('when the session is unknown, then 400 "Session ID not found"', async () => {
    const before = await rowCounts();
    const res = await request(ctx.app)
      .post('/session/authenticate')
      .set('x-api-key', key)
      .send({ session_id: randomUUID(), account: validAccount });
    expect(res.body).toEqual({ statusCode: 400, message: 'Session ID not found' });
    expect(await rowCounts()).toEqual(before);
  });

  it('when accounts_linked is not a boolean, then 400 naming the query parameter', async () => {
    const res = await request(ctx.app)
      .post('/session/authenticate?accounts_linked=maybe')
      .set('x-api-key', key)
      .send({ session_id: randomUUID(), account: validAccount });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('query parameter accounts_linked must be boolean');
  });

  it('when the body is not JSON, then 415 naming application/json', async () => {
    const res = await request(ctx.app)
      .post('/session/authenticate')
      .set('x-api-key', key)
      .set('content-type', 'text/plain')
      .send('hello');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      statusCode: 415,
      message: 'header content-type must be application/json, not text/plain',
    });
  });

  it('when the JSON is malformed, then 400', async () => {
    const res = await request(ctx.app)
      .post('/session/authenticate')
      .set('x-api-key', key)
      .set('content-type', 'application/json')
      .send('{"session_id":');
    expect(res.body).toEqual({ statusCode: 400, message: 'Request body is not valid JSON' });
  });

  it('when the body is larger than the limit, then 413', async () => {
    const res = await request(ctx.app)
      .post('/session/authenticate')
      .set('x-api-key', key)
      .send({ session_id: randomUUID(), account: { id: 'big', metadata: { blob: 'x'.repeat(1_100_000) } } });
    expect(res.status).toBe(413);
    expect(res.body.statusCode).toBe(413);
  });
});

describe('POST /session/unauthenticated', () => {
  it('when the session is unknown, then 400 "Session ID not found"', async () => {
    const res = await request(ctx.app)
      .post('/session/unauthenticated')
      .set('x-api-key', key)
      .send({ session_id: randomUUID() });
    expect(res.body).toEqual({ statusCode: 400, message: 'Session ID not found' });
  });

  it('when session_id is missing, then 400 naming it', async () => {
    const res = await request(ctx.app).post('/session/unauthenticated').set('x-api-key', key).send({});
    expect(res.body).toEqual({ statusCode: 400, message: "body must have required property 'session_id'" });
  });

  it('when the key is missing, then 401 before the body is looked at', async () => {
    const res = await request(ctx.app).post('/session/unauthenticated').send({});
    expect(res.status).toBe(401);
  });
});

describe('unknown routes and methods', () => {
  it('when the path is not in the spec, then 404 in the error shape', async () => {
    const res = await request(ctx.app).get('/nope').set('x-api-key', key);
    expect(res.status).toBe(404);
    expect(res.body.statusCode).toBe(404);
    expect(typeof (res.body as ErrorBody).message).toBe('string');
  });

  it('when the method is not in the spec, then 405 in the error shape', async () => {
    const res = await request(ctx.app).delete('/session/authenticate').set('x-api-key', key);
    expect(res.status).toBe(405);
    expect(res.body.statusCode).toBe(405);
  });
});

describe('evaluating a found session', () => {
  it('when the session exists, then authenticate and unauthenticated evaluate it', async () => {
    const { id } = await storeSession(ctx.services, ctx.project.project_id);
    const auth = await request(ctx.app)
      .post('/session/authenticate')
      .set('x-api-key', key)
      .send({ session_id: id, account: validAccount });
    expect(auth.status).toBe(200);
    expect(auth.body).toMatchObject({ session_id: id, account_id: validAccount.id, lists: ['beta'] });
    const unauth = await request(ctx.app)
      .post('/session/unauthenticated')
      .set('x-api-key', key)
      .send({ session_id: id });
    expect(unauth.status).toBe(200);
    // Other tests of this file stored sessions of the same example device: they link.
    expect(unauth.body).toMatchObject({ session_id: id, lists: ['beta'] });
  });
});
