/**
 * Verification sessions through HTTP: creation, the hosted page's Cancel, the 30-day sweeper,
 * verify-face / verify-id, and exactly one signed webhook per session delivered to a real
 * receiver on loopback, whatever races happen; the query form (a GET that creates a session)
 * for full-access keys alone.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { verifyWebhook } from '../../packages/client/src';
import type { ConsoleSession } from '../../src/api-types';
import { OPERATOR_ROLES } from '../../src/domain/operators';
import { VERIFICATION_LIFETIME_MS } from '../../src/domain/verification/lifecycle';
import { TEST_BASE_URL, TEST_NOW, type TestContext } from '../helpers/app';
import type { Receiver } from '../helpers/receiver';
import { validateWebhookBody } from '../helpers/spec';
import { deliverDue, verificationContext } from '../helpers/verification';

let ctx: TestContext;
let rx: Receiver;
let close: () => Promise<void>;

// The default app: no proxy, no analysis engine, no media storage.
beforeAll(async () => ({ ctx, rx, close } = await verificationContext({}, {})));
afterAll(() => close());
beforeEach(() => {
  rx.received.length = 0;
  ctx.clock.set(TEST_NOW);
});

const key = () => ctx.project.api_key;
const PASSWORD = 'correct horse battery staple';
async function create(type: 'face-match' | 'id-check' = 'face-match', extra: Record<string, unknown> = {}) {
  const res = await request(ctx.app)
    .post('/liveness/session')
    .set('x-api-key', key())
    .send({ type, ...extra });
  expect(res.status).toBe(200);
  const url = new URL(res.body.url);
  return { ...res.body, token: url.searchParams.get('token')! } as {
    request_id: string;
    session_id: string;
    url: string;
    expires_at: string;
    token: string;
  };
}

const cancel = (id: string, token: string) => request(ctx.app).post(`/liveness/${id}/cancel`).query({ token });

/** Delivers what is queued and returns the webhooks the receiver got for `sessionId`, each checked. */
async function delivered(sessionId: string) {
  await deliverDue(ctx);
  const mine = rx.received.filter((d) => JSON.parse(d.body).session_id === sessionId);
  for (const d of mine) {
    expect(await validateWebhookBody(JSON.parse(d.body))).toEqual([]);
    verifyWebhook(d.body, d.headers, ctx.project.webhook_secret, { now: ctx.clock.now() });
  }
  return mine.map((d) => JSON.parse(d.body));
}

describe('POST /liveness/session', () => {
  test('when a Face Match session is created, then the hosted page URL carries an unguessable token and the session lives 30 days', async () => {
    const s = await create('face-match', { account_id: 'user-1', redirect_url: 'https://shop.example.com/done' });
    expect(s.url).toMatch(
      new RegExp(`^${TEST_BASE_URL.replace(/\./g, '\\.')}/liveness/${s.session_id}\\?token=[A-Za-z0-9_-]{43}$`),
    );
    expect(new Date(s.expires_at).getTime() - new Date(TEST_NOW).getTime()).toBe(VERIFICATION_LIFETIME_MS);
    const row = await ctx.testDb.db('verification_sessions').where({ id: s.session_id }).first();
    expect(row.token_hash).not.toContain(s.token);
  });

  test('when the type is unknown or the redirect is not a URL, then 400 naming the field', async () => {
    const bad = await request(ctx.app).post('/liveness/session').set('x-api-key', key()).send({ type: 'selfie' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^type must be equal to one of the allowed values/);
    const url = await request(ctx.app)
      .post('/liveness/session')
      .set('x-api-key', key())
      .send({ type: 'face-match', redirect_url: 'not a url' });
    expect(url.status).toBe(400);
    expect(url.body.message).toMatch(/^redirect_url must match (format "uri"|pattern "\^https\?:\/\/\[)/);
    const scheme = await request(ctx.app)
      .post('/liveness/session')
      .set('x-api-key', key())
      .send({ type: 'face-match', redirect_url: 'ftp://shop.example.com/done' });
    expect(scheme.status).toBe(400);
    expect(scheme.body.message).toMatch(/^redirect_url must match pattern "\^https\?:\/\/\[/);
    // Nor what the database or a browser cannot take: U+0000, control characters, lone surrogates (the same on both engines).
    for (const redirect of [
      'https://shop.example.com/\u0000',
      'https://shop.example.com/a\u0001b',
      'https://shop.example.com/\ud800',
    ]) {
      const res = await request(ctx.app)
        .post('/liveness/session')
        .set('x-api-key', key())
        .send({ type: 'face-match', redirect_url: redirect });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^redirect_url must match pattern/);
    }
  });
});

describe('ending a session', () => {
  test('when the user cancels, then one error webhook liveness_check_failed is delivered, signed, and the user is redirected', async () => {
    const s = await create('face-match', { redirect_url: 'https://shop.example.com/done?x=1' });
    const res = await cancel(s.session_id, s.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      session_id: s.session_id,
      status: 'error',
      error_code: 'liveness_check_failed',
      redirect_url: `https://shop.example.com/done?x=1&session_id=${s.session_id}&success=false&error_message=liveness_check_failed`,
    });
    const hooks = await delivered(s.session_id);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatchObject({
      session_id: s.session_id,
      project_id: ctx.project.project_id,
      event_type: 'verification.face-match.completed',
      status: 'error',
      data: null,
      error: { code: 'liveness_check_failed' },
    });
  });

  test('when Cancel is pressed five times at once, then still exactly one webhook', async () => {
    const s = await create('id-check');
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => cancel(s.session_id, s.token)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const hooks = await delivered(s.session_id);
    expect(hooks).toHaveLength(1);
    expect(hooks[0].event_type).toBe('verification.id-check.completed');
    expect(await ctx.testDb.db('webhooks').where({ session_id: s.session_id })).toHaveLength(1);
  });

  test('when 30 days pass, then the sweeper ends the session with max_duration_exceeded, and a later Cancel sends nothing more', async () => {
    const s = await create();
    ctx.clock.advance(VERIFICATION_LIFETIME_MS - 1);
    expect(await ctx.services.verification.sweep()).toBe(0);
    ctx.clock.advance(1);
    // The sweeper and a Cancel race (other tests' open sessions expire too).
    await Promise.all([ctx.services.verification.sweep(), cancel(s.session_id, s.token)]);
    const hooks = await delivered(s.session_id);
    expect(hooks).toHaveLength(1);
    expect(['max_duration_exceeded', 'liveness_check_failed']).toContain(hooks[0].error.code);
    await cancel(s.session_id, s.token);
    expect(await delivered(s.session_id)).toHaveLength(1); // still only the one received before
    expect(await ctx.testDb.db('webhooks').where({ session_id: s.session_id })).toHaveLength(1);
  });

  test('when the token is wrong, then 403 and the session stays open', async () => {
    const s = await create();
    const res = await cancel(s.session_id, 'x'.repeat(43));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, message: 'The capture token is not valid for this session' });
    expect((await ctx.testDb.db('verification_sessions').where({ id: s.session_id }).first()).state).toBe('open');
  });
});

describe('POST /liveness/verify-face and /liveness/verify-id', () => {
  const verify = (path: string, id: string, apiKey = key()) =>
    request(ctx.app).post(path).set('x-api-key', apiKey).send({ session_id: id });
  /** The coded error body: the message in words, and the published code in `error`. */
  const coded = (code: string, message: string) => ({
    statusCode: 400,
    message,
    request_id: expect.any(String),
    success: false,
    error: code,
  });

  test('when the session is open, ended without a result, of the other type or unknown, then 400 with the code clients branch on', async () => {
    const open = await create('face-match');
    expect((await verify('/liveness/verify-face', open.session_id)).body).toEqual(
      coded('session_not_started', 'The verification session is not completed yet'),
    );
    expect((await verify('/liveness/verify-id', open.session_id)).body).toEqual(
      coded('session_not_valid_for_this_endpoint', 'session_id names a face-match session; use /liveness/verify-face'),
    );
    await cancel(open.session_id, open.token);
    const ended = await verify('/liveness/verify-face', open.session_id);
    expect(ended.status).toBe(400);
    expect(ended.body).toEqual(
      coded('liveness_check_failed', 'The verification session ended without a result (liveness_check_failed)'),
    );
    expect((await verify('/liveness/verify-face', '00000000-0000-4000-8000-000000000000')).body).toEqual(
      coded('session_not_found', 'Session ID not found'),
    );
  });

  test("when another project's key asks for a session's result, then it is not found there, as an unknown one", async () => {
    const mine = await create('face-match');
    const other = await ctx.services.projects.create({ name: 'Another tenant' });
    for (const path of ['/liveness/verify-face', '/liveness/verify-id']) {
      const res = await verify(path, mine.session_id, other.api_key);
      expect(res.body).toEqual(coded('session_not_found', 'Session ID not found'));
    }
  });
});

describe('GET /liveness/session (the query form)', () => {
  const get = (query: Record<string, string>) =>
    request(ctx.app).get('/liveness/session').query(query).set('x-api-key', key());

  test('when called with id=true and a referring session, then an ID Check for it; without id, a Face Match; each call a new session', async () => {
    const referring = '7b1c3a9e-2f4d-4c1b-9a8e-5d6f7a8b9c0d';
    const idCheck = await get({ id: 'true', referring_session_id: referring });
    expect(idCheck.status).toBe(200);
    expect(idCheck.body).toEqual({
      request_id: expect.any(String),
      session_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: expect.stringContaining(`/liveness/${idCheck.body.session_id}?token=`),
      expires_at: expect.any(String),
    });
    const row = await ctx.testDb.db('verification_sessions').where({ id: idCheck.body.session_id }).first();
    expect(row).toMatchObject({ type: 'id-check', referring_session_id: referring });
    const faceMatch = await get({});
    const second = await get({ id: 'false' });
    expect(new Set([idCheck.body.session_id, faceMatch.body.session_id, second.body.session_id]).size).toBe(3);
    for (const res of [faceMatch, second])
      expect((await ctx.testDb.db('verification_sessions').where({ id: res.body.session_id }).first()).type).toBe(
        'face-match',
      );
    // Its result is asked for as any other: not started yet.
    expect(
      (
        await request(ctx.app)
          .post('/liveness/verify-id')
          .set('x-api-key', key())
          .send({ session_id: idCheck.body.session_id })
      ).body.error,
    ).toBe('session_not_started');
  });

  test('when the query is bad or the key missing, then 400 or 401 naming it, and no session is written', async () => {
    const before = (await ctx.testDb.db('verification_sessions').count({ n: '*' }).first())!.n;
    const badId = await get({ id: 'maybe' });
    expect(badId.status).toBe(400);
    expect(badId.body.message).toMatch(/^query parameter id /);
    const badReferring = await get({ referring_session_id: 'nope' });
    expect(badReferring.status).toBe(400);
    expect(badReferring.body.message).toMatch(/^query parameter referring_session_id /);
    expect((await request(ctx.app).get('/liveness/session')).status).toBe(401);
    expect((await ctx.testDb.db('verification_sessions').count({ n: '*' }).first())!.n).toEqual(before);
  });

  test('when a read-only key or an operator’s console session of any role calls it, then 403 or 401 and nothing is written; a full key creates a session', async () => {
    const projectId = ctx.project.project_id;
    const { api_key: readOnly } = await ctx.services.projects.addKey(projectId, 'read_only');
    const cookies = [];
    for (const role of OPERATOR_ROLES) {
      const email = `${role}-${randomUUID()}@example.com`;
      await ctx.services.operators.add({ projectId, email, role, password: PASSWORD });
      const login = await request(ctx.app).post('/console/login').send({ email, password: PASSWORD });
      expect(login.status).toBe(200);
      const cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
      cookies.push({ role, cookie, csrf: (login.body as ConsoleSession).csrf_token });
    }
    // What a created session writes: its row, and later its webhook (the rate limits count in the database here, by design).
    const counts = async () =>
      Object.fromEntries(
        await Promise.all(
          ['verification_sessions', 'webhooks', 'audit_events'].map(
            async (table) => [table, Number((await ctx.testDb.db(table).count({ n: '*' }).first())!.n)] as const,
          ),
        ),
      );
    const before = await counts();
    const refused = [];
    const byKey = await request(ctx.app).get('/liveness/session').query({ id: 'true' }).set('x-api-key', readOnly);
    refused.push({ who: 'read-only key', status: byKey.status, message: byKey.body.message });
    for (const { role, cookie, csrf } of cookies) {
      // A same-site page can make the browser send the cookie, without the CSRF token; with it, refused all the same.
      for (const withCsrf of [false, true]) {
        const req = request(ctx.app).get('/liveness/session').set('cookie', cookie);
        const res = await (withCsrf ? req.set('x-csrf-token', csrf) : req);
        refused.push({
          who: `${role}${withCsrf ? ' with its CSRF token' : ''}`,
          status: res.status,
          message: res.body.message,
        });
      }
    }
    const onlyKey = "'x-api-key' header required";
    expect(refused).toEqual([
      {
        who: 'read-only key',
        status: 403,
        message: 'getVerificationSession creates data although it is a GET: only a full-access API key may call it',
      },
      ...OPERATOR_ROLES.flatMap((role) => [
        { who: role, status: 401, message: onlyKey },
        { who: `${role} with its CSRF token`, status: 401, message: onlyKey },
      ]),
    ]);
    expect(await counts()).toEqual(before);

    const full = await request(ctx.app).get('/liveness/session').set('x-api-key', key());
    expect(full.status).toBe(200);
    expect(await counts()).toEqual({ ...before, verification_sessions: before.verification_sessions! + 1 });
  });
});
