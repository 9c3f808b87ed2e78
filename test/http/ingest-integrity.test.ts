/**
 * What ingestion checks of a post beyond its shape, through real HTTP and a real database:
 * POST /ingest/challenge, the challenge binding of POST /ingest/session (`forged_payload`,
 * `replayed_payload`), and the request's own headers against the SDK's claims
 * (`user_agent_header_mismatch`, `client_hints_header_mismatch`, `accept_language_mismatch`),
 * all read back through the Session API's `risk_signal_details.device`.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { IngestSession } from '../../src/api-types';
import { CHALLENGE_RETENTION_MS, CHALLENGE_TTL_MS } from '../../src/domain/session/integrity';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { bind, browserHeaders, issueChallenge, personSession, scenario } from '../helpers/evaluation';

let ctx: TestContext;
let other: { project_id: string };
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
  other = await ctx.services.projects.create({ name: 'other' });
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.set(TEST_NOW));

/** A session's first post as the SDK sends it, right after load: no interaction counted yet. */
const firstPost = (overrides: Partial<IngestSession> = {}): IngestSession =>
  personSession({ events: {}, ...overrides });

const INTEGRITY = ['forged_payload', 'replayed_payload'];
const HEADERS = ['user_agent_header_mismatch', 'client_hints_header_mismatch', 'accept_language_mismatch'];

/** Posts as given: the body as is, with exactly these headers (besides supertest's own). */
const post = (body: unknown, headers: Record<string, string> = {}, projectId = ctx.project.project_id) =>
  request(ctx.app)
    .post('/ingest/session')
    .set('x-project-id', projectId)
    .set('x-forwarded-for', '81.2.69.142')
    .set(headers)
    .send(body as object);

/** The device conditions the Session API reports for the session. */
async function deviceDetails(sessionId: string): Promise<string[]> {
  const r = await scenario(ctx).unauthenticated(sessionId);
  return r.session.risk_signal_details.device;
}

async function rows(table: string): Promise<number> {
  const row = await ctx.testDb.db(table).count<{ n: number | string }[]>({ n: '*' }).first();
  return Number(row?.n);
}

describe('POST /ingest/challenge', () => {
  test('when the project is named, then a fresh challenge: its id, a 32-byte key and an expiry five minutes on, never cached', async () => {
    const res = await request(ctx.app).post('/ingest/challenge').set('x-project-id', ctx.project.project_id);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.challenge).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body.key).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body.expires_at).toBe(new Date(Date.parse(TEST_NOW) + CHALLENGE_TTL_MS).toISOString());
    const again = await issueChallenge(ctx);
    expect(again.challenge).not.toBe(res.body.challenge);
    expect(again.key).not.toBe(res.body.key);
  });

  test('when the project is named by the query parameter, then a challenge too', async () => {
    const res = await request(ctx.app).post(`/ingest/challenge?project_id=${ctx.project.project_id}`);
    expect(res.status).toBe(200);
  });

  test('when no project or an unknown one is named, then 400 naming x-project-id, and nothing is stored', async () => {
    const before = await rows('ingest_challenges');
    const none = await request(ctx.app).post('/ingest/challenge');
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/x-project-id/);
    const unknown = await request(ctx.app).post('/ingest/challenge').set('x-project-id', randomUUID());
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/x-project-id names no project/);
    const malformed = await request(ctx.app).post('/ingest/challenge').set('x-project-id', 'not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/x-project-id/);
    expect(await rows('ingest_challenges')).toBe(before);
  });

  test('when challenges are issued long after others expired, then the expired ones are dropped', async () => {
    const old = await issueChallenge(ctx);
    ctx.clock.set(new Date(Date.parse(TEST_NOW) + CHALLENGE_TTL_MS + CHALLENGE_RETENTION_MS + 1000));
    await issueChallenge(ctx);
    expect(await ctx.testDb.db('ingest_challenges').where({ id: old.challenge }).first()).toBeUndefined();
  });
});

describe('POST /ingest/session: the challenge binding', () => {
  test('when a web post is bound to a fresh challenge and sent with the browser’s headers, then none of the integrity or header conditions, and device_risk stays off', async () => {
    const body = firstPost();
    expect((await post(bind(body, await issueChallenge(ctx)), browserHeaders(body))).status).toBe(200);
    const r = await scenario(ctx).unauthenticated(body.session_id);
    expect(r.session.risk_signal_details.device).toEqual([]);
    expect(r.session.risk_signals.device_risk).toBe(false);
  });

  test('when a web post carries no challenge (hand-made), then forged_payload raises device_risk', async () => {
    const body = firstPost();
    expect((await post(body, browserHeaders(body))).status).toBe(200);
    const r = await scenario(ctx).unauthenticated(body.session_id);
    expect(r.session.risk_signal_details.device).toEqual(['forged_payload']);
    expect(r.session.risk_signal_scores.device_risk).toBe(0.8);
    expect(r.session.risk_signals.device_risk).toBe(true);
  });

  test('when the post was changed after it was signed (interaction added, automation removed), then forged_payload', async () => {
    const bot = firstPost({
      events: {},
      automation: { webdriver: false, signals: ['headless_chrome:user_agent'] },
    });
    const signed = bind(bot, await issueChallenge(ctx));
    const edited: IngestSession = {
      ...signed,
      automation: { webdriver: false, signals: [] },
      events: { mouse: 300, click: 5, keyboard: 40, touch: 0, clipboard: 0 },
    };
    expect((await post(edited, browserHeaders(bot))).status).toBe(200);
    expect(await deviceDetails(bot.session_id)).toEqual(['forged_payload']);
  });

  test('when the challenge is unknown, then forged_payload', async () => {
    const body = firstPost();
    const made = bind(body, { challenge: 'f'.repeat(32), key: 'a'.repeat(64) });
    expect((await post(made, browserHeaders(body))).status).toBe(200);
    expect(await deviceDetails(body.session_id)).toEqual(['forged_payload']);
  });

  test('when the challenge expired before the post, then forged_payload, and the challenge stays unused', async () => {
    const challenge = await issueChallenge(ctx);
    ctx.clock.set(new Date(Date.parse(TEST_NOW) + CHALLENGE_TTL_MS));
    const body = firstPost();
    expect((await post(bind(body, challenge), browserHeaders(body))).status).toBe(200);
    expect(await deviceDetails(body.session_id)).toEqual(['forged_payload']);
    const row = await ctx.testDb.db('ingest_challenges').where({ id: challenge.challenge }).first();
    expect(row.session_id).toBeNull();
  });

  test("when the challenge is another project's, then forged_payload", async () => {
    const body = firstPost();
    const foreign = await issueChallenge(ctx, other.project_id);
    expect((await post(bind(body, foreign), browserHeaders(body))).status).toBe(200);
    expect(await deviceDetails(body.session_id)).toEqual(['forged_payload']);
  });

  test('when one challenge is used for a second session, then replayed_payload on the second, and the first stays clean', async () => {
    const challenge = await issueChallenge(ctx);
    const first = firstPost();
    const second = firstPost();
    expect((await post(bind(first, challenge), browserHeaders(first))).status).toBe(200);
    // Correctly signed with the challenge's key: only single use tells them apart.
    expect((await post(bind(second, challenge), browserHeaders(second))).status).toBe(200);
    expect(await deviceDetails(first.session_id)).toEqual([]);
    const r = await scenario(ctx).unauthenticated(second.session_id);
    expect(r.session.risk_signal_details.device).toEqual(['replayed_payload']);
    expect(r.session.risk_signal_scores.device_risk).toBe(0.9);
  });

  test('when a captured post is sent again as a new session, then replayed_payload', async () => {
    const original = firstPost();
    const captured = bind(original, await issueChallenge(ctx));
    expect((await post(captured, browserHeaders(original))).status).toBe(200);
    const copy = { ...captured, session_id: randomUUID() };
    expect((await post(copy, browserHeaders(original))).status).toBe(200);
    expect(await deviceDetails(copy.session_id)).toEqual(['replayed_payload']);
  });

  test('when two sessions post one challenge at the same moment, then exactly one of them gets it', async () => {
    const challenge = await issueChallenge(ctx);
    const a = firstPost();
    const b = firstPost();
    const answers = await Promise.all([
      post(bind(a, challenge), browserHeaders(a)),
      post(bind(b, challenge), browserHeaders(b)),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const details = [await deviceDetails(a.session_id), await deviceDetails(b.session_id)];
    expect(details.filter((d) => d.length === 0)).toHaveLength(1);
    expect(details.filter((d) => d.includes('replayed_payload'))).toHaveLength(1);
  });

  test('when the SDK sends its bound post again for its own session (a retry), then nothing is flagged', async () => {
    const body = firstPost();
    const signed = bind(body, await issueChallenge(ctx));
    expect((await post(signed, browserHeaders(body))).status).toBe(200);
    expect((await post(signed, browserHeaders(body))).status).toBe(200);
    expect(await deviceDetails(body.session_id)).toEqual([]);
  });

  test('when the SDK’s periodic updates follow without a challenge, then the session stays valid', async () => {
    const body = firstPost();
    expect((await post(bind(body, await issueChallenge(ctx)), browserHeaders(body))).status).toBe(200);
    const update = {
      session_id: body.session_id,
      source: 'web',
      device_id: body.device_id,
      events: { mouse: 400 },
    };
    expect((await post(update, browserHeaders(body))).status).toBe(200);
    expect(await deviceDetails(body.session_id)).toEqual([]);
  });

  test("when a later post of a valid session carries another session's challenge, then the session becomes replayed_payload", async () => {
    const taken = await issueChallenge(ctx);
    const someone = firstPost();
    expect((await post(bind(someone, taken), browserHeaders(someone))).status).toBe(200);
    const body = firstPost();
    expect((await post(bind(body, await issueChallenge(ctx)), browserHeaders(body))).status).toBe(200);
    expect((await post(bind(body, taken), browserHeaders(body))).status).toBe(200);
    expect(await deviceDetails(body.session_id)).toEqual(['replayed_payload']);
  });

  test('when a native app posts without a challenge, then it is not forged (native apps may omit it)', async () => {
    const android = firstPost({
      source: 'android',
      source_version: '2.1.0',
      user_agent: undefined,
      mobile: { brand: 'Google', model: 'Pixel 8', oem_device_integrity: 'passed' },
    });
    expect((await post(android, { 'user-agent': 'okhttp/4.12.0' })).status).toBe(200);
    expect(await deviceDetails(android.session_id)).toEqual([]);
  });

  test('when a native app binds its post but the MAC is wrong, then forged_payload', async () => {
    const ios = firstPost({ source: 'ios', source_version: '3.0.0', user_agent: undefined, mobile: {} });
    const signed = bind(ios, await issueChallenge(ctx));
    const wrong = { ...signed, integrity: { ...signed.integrity!, mac: '0'.repeat(64) } };
    expect((await post(wrong, { 'user-agent': 'MyApp/3.0 CFNetwork/1494.0.7 Darwin/23.4.0' })).status).toBe(200);
    expect(await deviceDetails(ios.session_id)).toEqual(['forged_payload']);
  });

  test('when the integrity member breaks the contract, then 400 naming the field, and nothing is stored', async () => {
    const before = await rows('sessions');
    for (const integrity of [
      { challenge: 'c' },
      { challenge: 'c', mac: 'a'.repeat(129) },
      { challenge: 'c', mac: 'm', x: 1 },
    ]) {
      const res = await post({ ...firstPost(), integrity });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/integrity/);
    }
    expect(await rows('sessions')).toBe(before);
  });
});

describe('POST /ingest/session: the request’s headers against the SDK’s claims', () => {
  const CHROME_HINTS = {
    brands: [
      { brand: 'Google Chrome', version: '142' },
      { brand: 'Chromium', version: '142' },
      { brand: 'Not_A Brand', version: '24' },
    ],
    mobile: false,
    platform: 'macOS',
  };
  const CHROME_HEADERS = {
    'sec-ch-ua': '"Chromium";v="142", "Google Chrome";v="142", "Not_A Brand";v="24"',
    'sec-ch-ua-mobile': '?0',
    'sec-ch-ua-platform': '"macOS"',
  };

  async function conditionsOf(body: IngestSession, headers: Record<string, string>): Promise<string[]> {
    expect((await post(bind(body, await issueChallenge(ctx)), headers)).status).toBe(200);
    return deviceDetails(body.session_id);
  }

  test('when the User-Agent header is not the user agent posted, then user_agent_header_mismatch', async () => {
    const body = firstPost();
    const headers = { ...browserHeaders(body), 'user-agent': 'python-requests/2.32.3' };
    expect(await conditionsOf(body, headers)).toEqual(['user_agent_header_mismatch']);
  });

  test('when a web post has no User-Agent header at all, then user_agent_header_mismatch', async () => {
    const body = firstPost();
    const res = await request(ctx.app)
      .post('/ingest/session')
      .set('x-project-id', ctx.project.project_id)
      .set('x-forwarded-for', '81.2.69.142')
      .set('accept-language', 'en-GB,en;q=0.9')
      .unset('user-agent')
      .send(bind(body, await issueChallenge(ctx)));
    expect(res.status).toBe(200);
    expect(await deviceDetails(body.session_id)).toEqual(['user_agent_header_mismatch']);
  });

  test('when the Sec-CH-UA headers agree with the posted client hints (in any order), then nothing', async () => {
    const body = firstPost({ client_hints: CHROME_HINTS });
    expect(await conditionsOf(body, { ...browserHeaders(body), ...CHROME_HEADERS })).toEqual([]);
  });

  test('when Sec-CH-UA names other brands than the posted hints, then client_hints_header_mismatch', async () => {
    const body = firstPost({ client_hints: CHROME_HINTS });
    const headers = {
      ...browserHeaders(body),
      ...CHROME_HEADERS,
      'sec-ch-ua': '"HeadlessChrome";v="142", "Chromium";v="142", "Not_A Brand";v="24"',
    };
    expect(await conditionsOf(body, headers)).toEqual(['client_hints_header_mismatch']);
  });

  test('when Sec-CH-UA-Platform or -Mobile contradict the posted hints, then client_hints_header_mismatch', async () => {
    const a = firstPost({ client_hints: CHROME_HINTS });
    expect(await conditionsOf(a, { ...browserHeaders(a), ...CHROME_HEADERS, 'sec-ch-ua-platform': '"Linux"' })).toEqual(
      ['client_hints_header_mismatch'],
    );
    const b = firstPost({ client_hints: CHROME_HINTS });
    expect(await conditionsOf(b, { ...browserHeaders(b), ...CHROME_HEADERS, 'sec-ch-ua-mobile': '?1' })).toEqual([
      'client_hints_header_mismatch',
    ]);
  });

  test('when the browser sends Sec-CH-UA but the post has no client hints, then client_hints_header_mismatch', async () => {
    const body = firstPost();
    expect(await conditionsOf(body, { ...browserHeaders(body), ...CHROME_HEADERS })).toEqual([
      'client_hints_header_mismatch',
    ]);
  });

  test('when Accept-Language prefers another language than the posted first one, then accept_language_mismatch', async () => {
    const body = firstPost({ languages: ['en-GB', 'en'] });
    const headers = { ...browserHeaders(body), 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' };
    expect(await conditionsOf(body, headers)).toEqual(['accept_language_mismatch']);
  });

  test('when Accept-Language puts the posted first language first by quality, then nothing', async () => {
    const body = firstPost({ languages: ['en-GB', 'en'] });
    const headers = { ...browserHeaders(body), 'accept-language': 'en;q=0.8,EN-gb' };
    expect(await conditionsOf(body, headers)).toEqual([]);
  });

  test('when a native app’s HTTP library sends its own user agent and languages, then no header condition', async () => {
    const android = firstPost({ source: 'android', source_version: '2.1.0', mobile: {} });
    expect((await post(android, { 'user-agent': 'okhttp/4.12.0', 'accept-language': 'fr-FR' })).status).toBe(200);
    const details = await deviceDetails(android.session_id);
    for (const name of [...HEADERS, ...INTEGRITY]) expect(details).not.toContain(name);
  });
});
