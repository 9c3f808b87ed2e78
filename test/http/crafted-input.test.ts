/**
 * Crafted input never gets a 5xx (issue 53, finding 6): bodies nested thousands of levels deep
 * (refused before the validator walks the rules' recursive schema), numbers that are not finite
 * in query parameters and bodies (`1e400`, 400 digits: ±Infinity), search cursors whose decoded
 * key is not one the service made (U+0000 that PostgreSQL cannot take, invalid JSON, wrong
 * types), and a read-only key on POST /rules/test (a 403 the contract declares). Each is a 4xx
 * in the error shape naming the field, and writes nothing. Real app, real database; response
 * validation is on, so every answer is also checked against openapi.yaml.
 */
import request from 'supertest';
import { JSON_MAX_DEPTH } from '../../src/http/limits';
import { makeTestContext, type TestContext } from '../helpers/app';
import { makeChangeProbe, type ChangeProbe } from '../helpers/db-changes';

let ctx: TestContext;
let probe: ChangeProbe;
beforeAll(async () => {
  ctx = await makeTestContext({ rateLimitStore: 'memory' });
  probe = await makeChangeProbe(ctx.testDb);
});
afterAll(async () => {
  await probe.close();
  await ctx.close();
});

/** The request's answer, with what it wrote (nothing, for a refused one). */
async function refused(send: () => request.Test): Promise<{ status: number; body: unknown; writes: string[] }> {
  const mark = await probe.mark();
  const res = await send();
  return { status: res.status, body: res.body as unknown, writes: await probe.writesSince(mark) };
}

const key = () => ctx.project.api_key;
const json = (method: 'put' | 'patch' | 'post', path: string, body: string) =>
  request(ctx.app)[method](path).set('x-api-key', key()).set('content-type', 'application/json').send(body);

/** A rule condition of `levels` nested `not`s around one comparison, as JSON text (too deep for JSON.stringify's stack). */
const nestedNot = (levels: number): string =>
  '{"not":'.repeat(levels) + '{"field":"bot","op":"gte","value":1}' + '}'.repeat(levels);
const rulesWith = (when: string) => `{"rules":[{"id":"deep","when":${when},"then":{"decision":"Fake"}}]}`;

describe('putRules (PUT /rules)', () => {
  it('when a condition nests 5,000 `not`s, then 400 naming where and the depth allowed, and nothing is written', async () => {
    expect(await refused(() => json('put', '/rules', rulesWith(nestedNot(5_000))))).toEqual({
      status: 400,
      body: {
        statusCode: 400,
        message: `rules[0].when.not.not… must not nest arrays and objects more than ${JSON_MAX_DEPTH} levels deep`,
      },
      writes: [],
    });
  });

  it('when a condition nests 9 `not`s (within the body limit), then the rules’ own depth check answers 400 naming its path', async () => {
    const answer = await refused(() => json('put', '/rules', rulesWith(nestedNot(9))));
    expect(answer).toEqual({
      status: 400,
      body: { statusCode: 400, message: expect.stringContaining('nests deeper than 8 levels') },
      writes: [],
    });
  });
});

describe('updateProject (PATCH /project)', () => {
  it.each([
    [
      'a body nested 100,000 arrays deep',
      `{"decision_threshold":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      'decision_threshold',
    ],
    ['decision_threshold: 1e400', '{"decision_threshold":1e400}', 'decision_threshold'],
    ['link_score_floor: -1e400', '{"link_score_floor":-1e400}', 'link_score_floor'],
    ['decision_threshold: 400 digits', `{"decision_threshold":${'9'.repeat(400)}}`, 'decision_threshold'],
  ])('when %s, then 400 naming it, and nothing is written', async (_title, body, field) => {
    const answer = await refused(() => json('patch', '/project', body));
    expect(answer).toEqual({
      status: 400,
      body: { statusCode: 400, message: expect.stringMatching(new RegExp(`^${field}[ [.]`)) },
      writes: [],
    });
  });
});

describe('ingestSession (POST /ingest/session)', () => {
  it('when a beacon (text/plain) nests 20,000 arrays deep, then 400 naming the body’s members, and nothing is written', async () => {
    const answer = await refused(() =>
      request(ctx.app)
        .post('/ingest/session')
        .set('x-project-id', ctx.project.project_id)
        .set('content-type', 'text/plain')
        .send('['.repeat(20_000) + ']'.repeat(20_000)),
    );
    expect(answer).toEqual({
      status: 400,
      body: {
        statusCode: 400,
        message: `body[0][0][0][0][0]… must not nest arrays and objects more than ${JSON_MAX_DEPTH} levels deep`,
      },
      writes: [],
    });
  });
});

describe.each([
  ['listAccounts', '/accounts'],
  ['listSessions', '/sessions'],
  ['getAccountSessions', '/account/crafted-account/sessions'],
  ['listAccountLabels', '/account/crafted-account/labels'],
  ['listAuditEvents', '/audit'],
  ['listWebhookDeliveries', '/webhooks/deliveries'],
])('%s (GET %s)', (_operationId, path) => {
  it.each([
    ['1e400', '1e400'],
    ['-1e400', '-1e400'],
    ['400 digits', '9'.repeat(400)],
    ['400 digits, negative', `-${'9'.repeat(400)}`],
  ])(
    'when limit is %s (not finite as a number), then 400 naming limit, and nothing is written',
    async (_title, limit) => {
      const answer = await refused(() => request(ctx.app).get(`${path}?limit=${limit}`).set('x-api-key', key()));
      expect(answer).toEqual({
        status: 400,
        body: { statusCode: 400, message: 'query parameter limit must be a finite number' },
        writes: [],
      });
    },
  );
});

const cursorOf = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const BAD_CURSOR = {
  statusCode: 400,
  message: 'request/query/cursor must be the next_cursor of a previous page of this list',
};

describe.each([
  ['listAccounts', '/accounts', (id: string) => JSON.stringify({ a: [id] })],
  [
    'listSessions',
    '/sessions',
    (id: string) => JSON.stringify({ s: [1_763_640_000_000, `7b1c3a9e-2f4d-4c1b-9a8e-5d6f7a8b${id}`] }),
  ],
])('%s (GET %s)', (_operationId, path, keyWith) => {
  it.each([
    ['a key holding U+0000', keyWith('9c\u00000d')],
    ['a key holding a lone surrogate', keyWith('9c\ud8000d')],
    ['a key of 300 characters', keyWith('9'.repeat(300))],
    ['invalid JSON', '{"a":["x"'],
    ['JSON that is no object', 'null'],
    ['the other list’s shape', JSON.stringify({ a: 1, s: 'x' })],
    ['numbers for strings', JSON.stringify({ a: [7], s: [1, 2] })],
    ['a start time that is not finite', '{"s":[1e400,"7b1c3a9e-2f4d-4c1b-9a8e-5d6f7a8b9c0d"]}'],
    ['a negative start time', JSON.stringify({ s: [-1, '7b1c3a9e-2f4d-4c1b-9a8e-5d6f7a8b9c0d'] })],
    [
      'a key with a member too many',
      JSON.stringify({ a: ['x', 'y'], s: [1, '7b1c3a9e-2f4d-4c1b-9a8e-5d6f7a8b9c0d', 3] }),
    ],
  ])('when the cursor decodes to %s, then 400 naming cursor, and nothing is written', async (_title, text) => {
    const answer = await refused(() =>
      request(ctx.app)
        .get(`${path}?cursor=${cursorOf(text)}`)
        .set('x-api-key', key()),
    );
    expect(answer).toEqual({ status: 400, body: BAD_CURSOR, writes: [] });
  });

  it('when the cursor is a well-formed key of the list, then 200', async () => {
    const res = await request(ctx.app)
      .get(`${path}?cursor=${cursorOf(keyWith('9c0d'))}`)
      .set('x-api-key', key());
    expect(res.status).toBe(200);
  });
});

describe('testRules (POST /rules/test)', () => {
  it('when a read-only key sends it, then 403 in the error shape (declared: response validation passes), and nothing is written', async () => {
    const { api_key } = await ctx.services.projects.addKey(ctx.project.project_id, 'read_only');
    const answer = await refused(() =>
      request(ctx.app)
        .post('/rules/test')
        .set('x-api-key', api_key)
        .send({ from: '2026-11-01T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z', rules: [] }),
    );
    expect(answer).toEqual({
      status: 403,
      body: { statusCode: 403, message: 'This API key is read-only; only GET requests are allowed' },
      writes: [],
    });
  });
});
