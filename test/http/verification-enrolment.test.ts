/**
 * The published verification operations beyond creation and results, through HTTP on a real
 * database: the public link (GET /public/liveness-redirect) with its rate limits, the
 * groups_enabled refusal of session creation, enrolment of a finished session for an account
 * (POST /liveness/enroll) and the one-to-one comparison with an account's enrolled face
 * (POST /liveness/verify-identity). The analysis engine is the deterministic fake.
 */
import request from 'supertest';
import { TEST_BASE_URL, TEST_NOW, makeTestContext, type TestContext } from '../helpers/app';
import { personSession } from '../helpers/evaluation';
import { fakeImage } from '../helpers/fake-analysis';
import { verificationContext, verificationFlow } from '../helpers/verification';
import { VERIFICATION_LIFETIME_MS } from '../../src/domain/verification/lifecycle';
import { DAY_MS } from '../../src/domain/numbers';

let ctx: TestContext;
let flow: ReturnType<typeof verificationFlow>;
let close: () => Promise<void>;
let groups: { project_id: string; api_key: string };

beforeAll(async () => {
  ({ ctx, flow, close } = await verificationContext());
  const made = await ctx.services.projects.create({ name: 'Groups project', groups: true });
  groups = { project_id: made.project_id, api_key: made.api_key };
});
afterAll(() => close());
beforeEach(() => ctx.clock.set(TEST_NOW));

const key = () => ctx.project.api_key;
const selfie = (person: string) => fakeImage({ faces: [{ person }] });
const sessionsCount = async () => Number((await ctx.testDb.db('verification_sessions').count({ n: '*' }))[0]!.n);
const sessionRow = (id: string) => ctx.testDb.db('verification_sessions').where({ id }).first();
const faceRow = (id: string) => ctx.testDb.db('verification_faces').where({ session_id: id }).first();

/** A Face Match session completed with `person`'s selfie; `account_id` when it is created for an account. */
async function completed(person: string, extra: Record<string, unknown> = {}): Promise<string> {
  const s = await flow.create('face-match', extra);
  const res = await flow.complete(s, { selfie: selfie(person) });
  expect(res.body.status).toBe('success');
  return s.id;
}

const enroll = (session_id: string, account_id: string, apiKey = key()) =>
  request(ctx.app).post('/liveness/enroll').set('x-api-key', apiKey).send({ session_id, account_id });
const verifyIdentity = (session_id: string, account_id: string) =>
  request(ctx.app).post('/liveness/verify-identity').set('x-api-key', key()).send({ session_id, account_id });

/** A coded refusal: 400 with the code in `error`, `success: false` and this answer's `request_id`. */
function expectRefused(res: request.Response, error: string) {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ statusCode: 400, success: false, error });
  expect(typeof res.body.request_id).toBe('string');
  expect(res.body.message).toEqual(expect.any(String));
}

describe('GET /public/liveness-redirect', () => {
  test('when a project id is given, then 302 to the hosted page of a new Face Match session without an account, and no API key is needed', async () => {
    const res = await request(ctx.app).get('/public/liveness-redirect').query({ project_id: ctx.project.project_id });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.location!);
    expect(`${location.origin}`).toBe(new URL(TEST_BASE_URL).origin);
    const id = /^\/liveness\/([0-9a-f-]{36})$/.exec(location.pathname)![1]!;
    expect(location.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sessionRow(id)).toMatchObject({
      project_id: ctx.project.project_id,
      type: 'face-match',
      account_id: null,
      state: 'open',
    });
    // The hosted page opens with the token of the Location.
    const page = await request(ctx.app).get(`${location.pathname}${location.search}`);
    expect(page.status).toBe(200);
  });

  test('when id=true and a referring session are given, then an ID Check session for that referring session', async () => {
    const referring = await flow.sdk.ingest(personSession());
    const res = await request(ctx.app)
      .get('/public/liveness-redirect')
      .query({ project_id: ctx.project.project_id, id: 'true', referring_session_id: referring });
    expect(res.status).toBe(302);
    const id = new URL(res.headers.location!).pathname.split('/').pop()!;
    expect(await sessionRow(id)).toMatchObject({ type: 'id-check', referring_session_id: referring });
  });

  test('when project_id is missing, then 400 missing_project_id and no session', async () => {
    const before = await sessionsCount();
    const res = await request(ctx.app).get('/public/liveness-redirect');
    expectRefused(res, 'missing_project_id');
    expect(await sessionsCount()).toBe(before);
  });

  test('when the project has groups enabled, then 400 groups_enabled and no session', async () => {
    const before = await sessionsCount();
    const res = await request(ctx.app).get('/public/liveness-redirect').query({ project_id: groups.project_id });
    expectRefused(res, 'groups_enabled');
    expect(await sessionsCount()).toBe(before);
  });

  test('when project_id names no project or is not a UUID, then 400 naming it and no session', async () => {
    const before = await sessionsCount();
    const unknown = await request(ctx.app)
      .get('/public/liveness-redirect')
      .query({ project_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ statusCode: 400, message: 'query parameter project_id names no project' });
    const malformed = await request(ctx.app).get('/public/liveness-redirect').query({ project_id: 'shop' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/^query parameter project_id must match format "uuid"/);
    expect(await sessionsCount()).toBe(before);
  });
});

describe('GET /public/liveness-redirect rate limits', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await makeTestContext({
      trustProxy: true,
      publicRedirectRateLimitPerIp: 2,
      publicRedirectRateLimitPerProject: 3,
    });
  });
  afterAll(() => limited.close());
  const visit = (ip: string) =>
    request(limited.app)
      .get('/public/liveness-redirect')
      .set('x-forwarded-for', ip)
      .query({ project_id: limited.project.project_id });
  const count = async () => Number((await limited.testDb.db('verification_sessions').count({ n: '*' }))[0]!.n);

  test('when an address or the project has used up its visits, then 429 with Retry-After and no more sessions', async () => {
    expect((await visit('81.2.69.1')).status).toBe(302);
    expect((await visit('81.2.69.1')).status).toBe(302);
    const byAddress = await visit('81.2.69.1');
    expect(byAddress.status).toBe(429);
    expect(byAddress.headers['retry-after']).toBe('60');
    expect(byAddress.body.message).toMatch(/for this address/);
    expect((await visit('81.2.69.2')).status).toBe(302);
    // The project's third session was the last of the minute, whatever the address.
    const byProject = await visit('81.2.69.3');
    expect(byProject.status).toBe(429);
    expect(byProject.body).toEqual({
      statusCode: 429,
      message: 'Too many verification sessions started from the public link for this project; retry after 60 seconds',
    });
    expect(await count()).toBe(3);
  });
});

describe('GET and POST /liveness/session in a project with groups enabled', () => {
  test('when no account is given, then 400 groups_enabled and no session; with an account the session is created', async () => {
    const before = await sessionsCount();
    const query = await request(ctx.app).get('/liveness/session').set('x-api-key', groups.api_key);
    expectRefused(query, 'groups_enabled');
    const body = await request(ctx.app)
      .post('/liveness/session')
      .set('x-api-key', groups.api_key)
      .send({ type: 'id-check' });
    expectRefused(body, 'groups_enabled');
    expect(await sessionsCount()).toBe(before);
    const withAccount = await request(ctx.app)
      .post('/liveness/session')
      .set('x-api-key', groups.api_key)
      .send({ type: 'face-match', account_id: 'grouped-user' });
    expect(withAccount.status).toBe(200);
  });

  test('when simulate is sent, then 400 naming it (not supported: test projects force outcomes instead)', async () => {
    const res = await request(ctx.app).get('/liveness/session').set('x-api-key', key()).query({ simulate: 'success' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/simulate/);
  });
});

describe('POST /liveness/enroll', () => {
  test("when a finished session without an account is enrolled, then it is the account's: another account's same face is a repeat face matched to it", async () => {
    const id = await completed('enrol-amy');
    const res = await enroll(id, 'amy');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ request_id: expect.any(String), success: true });
    expect(await sessionRow(id)).toMatchObject({ account_id: 'amy' });
    expect(await faceRow(id)).toMatchObject({ account_id: 'amy' });
    // A later verification of another account with the same face.
    const later = await completed('enrol-amy', { account_id: 'amy-again' });
    const result = await request(ctx.app)
      .post('/liveness/verify-face')
      .set('x-api-key', key())
      .send({ session_id: later });
    expect(result.body.risk_flags).toContain('repeat_face');
    expect(result.body.matches.accounts_linked).toEqual([{ account_id: 'amy', match_types: ['face'] }]);
  });

  test("when the session is already the account's, then 200 and nothing changes; when it is another account's, then session_already_tied_to_an_account", async () => {
    const id = await completed('enrol-bob', { account_id: 'bob' });
    expect((await enroll(id, 'bob')).status).toBe(200);
    expectRefused(await enroll(id, 'not-bob'), 'session_already_tied_to_an_account');
    expect(await sessionRow(id)).toMatchObject({ account_id: 'bob' });
    expect(await faceRow(id)).toMatchObject({ account_id: 'bob' });
    // Enrolled without an account first, then claimed by another: refused too.
    const free = await completed('enrol-cat');
    expect((await enroll(free, 'cat')).status).toBe(200);
    expectRefused(await enroll(free, 'dog'), 'session_already_tied_to_an_account');
  });

  test("when the session is unknown, another project's, not started or not completed, then its code and nothing is written", async () => {
    expectRefused(await enroll('00000000-0000-4000-8000-000000000001', 'amy'), 'session_not_found');
    const other = await makeTestContext();
    try {
      const foreign = await request(other.app)
        .post('/liveness/session')
        .set('x-api-key', other.project.api_key)
        .send({ type: 'face-match' });
      expectRefused(await enroll(foreign.body.session_id, 'amy'), 'session_not_found');
    } finally {
      await other.close();
    }
    const open = await flow.create('face-match');
    expectRefused(await enroll(open.id, 'amy'), 'session_not_started');
    await flow.capture(open, 'selfie', selfie('enrol-eve'));
    expectRefused(await enroll(open.id, 'amy'), 'session_not_complete');
    expect(await sessionRow(open.id)).toMatchObject({ account_id: null });
  });

  test('when the session was created more than 30 days ago, then session_older_than_30_days', async () => {
    const id = await completed('enrol-fay');
    ctx.clock.set(new Date(new Date(TEST_NOW).getTime() + VERIFICATION_LIFETIME_MS + DAY_MS));
    expectRefused(await enroll(id, 'fay'), 'session_older_than_30_days');
    expect(await faceRow(id)).toMatchObject({ account_id: null });
  });

  test('when the body breaks a rule, then 400 naming the field', async () => {
    const id = await completed('enrol-gus');
    const empty = await enroll(id, '');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/^account_id must NOT have fewer than 1 characters/);
    const notUuid = await enroll('session-1', 'gus');
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.message).toMatch(/^session_id must match (format "uuid"|pattern)/);
    expect(await faceRow(id)).toMatchObject({ account_id: null });
  });

  test("when the enrolled account is erased, then its enrolled face and the session's result go with it", async () => {
    await flow.sdk.signIn({ id: 'enrol-erased' });
    const id = await completed('enrol-hal');
    expect((await enroll(id, 'enrol-erased')).status).toBe(200);
    const erased = await request(ctx.app).delete('/account/enrol-erased').set('x-api-key', key());
    expect(erased.status).toBe(200);
    expect(await faceRow(id)).toBeUndefined();
    expect(await sessionRow(id)).toMatchObject({ result: null });
  });
});

describe('POST /liveness/verify-identity', () => {
  test("when the session's face is the account's enrolled face, then match true; another person's, false; nothing is written", async () => {
    const enrolled = await completed('ident-ian');
    expect((await enroll(enrolled, 'ian')).status).toBe(200);
    const same = await completed('ident-ian');
    const other = await completed('ident-jon');
    const yes = await verifyIdentity(same, 'ian');
    expect(yes.status).toBe(200);
    expect(yes.body).toEqual({ request_id: expect.any(String), success: true, match: true });
    const no = await verifyIdentity(other, 'ian');
    expect(no.body).toEqual({ request_id: expect.any(String), success: true, match: false });
    // Comparing enrolls nothing.
    expect(await faceRow(same)).toMatchObject({ account_id: null });
    expect(await sessionRow(other)).toMatchObject({ account_id: null });
  });

  test('when the account has no enrolled face but this session, then account_not_found', async () => {
    expectRefused(await verifyIdentity(await completed('ident-kim'), 'nobody-enrolled'), 'account_not_found');
    // A session created for the account is its only face: it is not compared with itself.
    const own = await completed('ident-lea', { account_id: 'lea' });
    expectRefused(await verifyIdentity(own, 'lea'), 'account_not_found');
  });

  test('when the session is an ID Check, unknown or not started, then its code', async () => {
    const idCheck = await flow.create('id-check');
    expectRefused(await verifyIdentity(idCheck.id, 'ian'), 'session_not_valid_for_this_endpoint');
    expectRefused(await verifyIdentity('00000000-0000-4000-8000-000000000002', 'ian'), 'session_not_found');
    const open = await flow.create('face-match');
    expectRefused(await verifyIdentity(open.id, 'ian'), 'session_not_started');
  });
});
