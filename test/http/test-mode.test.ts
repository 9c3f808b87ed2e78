/**
 * Test projects through the real app (docs/test-mode.md): their keys, the outcomes documented
 * account ids force in authenticate, unauthenticated and verification sessions (each error code
 * and a success arriving as a signed webhook at a loopback receiver), the same ids being
 * ordinary in a live project, and a test project's data never reaching a live project's
 * evaluation. Response validation is on, so every forced answer is also checked against the spec.
 * The app has no analysis engine: forced verifications never need one.
 */
import request from 'supertest';
import type { AuthenticateResponse, EvaluatedRiskSignals } from '../../src/api-types';
import { verifyWebhook } from '../../packages/client/src';
import { FORCED_BOT, TEST_SIGNALS, TEST_VERIFICATION_ERRORS } from '../../src/domain/test-mode';
import { BOT_WEIGHTS, RISK_SIGNAL_WEIGHTS } from '../../src/domain/scoring';
import type { ProjectCredentials } from '../../src/usecases/projects';
import { makeTestContext, type TestContext } from '../helpers/app';
import { personSession, scenario } from '../helpers/evaluation';
import { fakeImage } from '../helpers/fake-analysis';
import { webhookReceiver, type Receiver } from '../helpers/receiver';
import { verificationFlow } from '../helpers/verification';

/** A headless browser: what a developer's automated test run looks like. */
const HEADLESS = {
  automation: { webdriver: true, signals: ['headless_chrome'] },
  events: { mouse: 0, click: 0, keyboard: 0, touch: 0, clipboard: 0 },
};
const GB_IP = '81.2.69.142';

let ctx: TestContext;
let testProject: ProjectCredentials;
let rx: Receiver;

beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback', demo: false }, { media: true });
  testProject = await ctx.services.projects.create({ name: 'Integration tests', test: true });
  rx = await webhookReceiver();
  await ctx.services.projects.setWebhook(testProject.project_id, rx.url);
});
afterAll(async () => {
  await rx.close();
  await ctx.close();
});

/** A fresh test project for each test: a test project keeps its history like any other (docs/test-mode.md). */
let projects = 0;
async function freshTest() {
  const p = await ctx.services.projects.create({ name: `test ${++projects}`, test: true });
  return scenario(ctx, p.api_key, p.project_id);
}
const inTest = () => scenario(ctx, testProject.api_key, testProject.project_id);
const inLive = () => scenario(ctx);

describe('test projects', () => {
  it('when a test project is created, then its key starts tg_test_ and the project list marks it', async () => {
    expect(testProject.api_key).toMatch(/^tg_test_[A-Za-z0-9_-]{43}$/);
    expect(ctx.project.api_key).toMatch(/^tg_(?!test_)/);
    const listed = await ctx.services.projects.list();
    expect(listed.find((p) => p.project_id === testProject.project_id)).toMatchObject({
      test: true,
      api_keys: [`${testProject.api_key.slice(0, 14)}…`],
    });
    expect(listed.find((p) => p.project_id === ctx.project.project_id)).toMatchObject({ test: false });
    const rotated = await ctx.services.projects.rotateKey(testProject.project_id);
    expect(rotated.api_key).toMatch(/^tg_test_/);
    testProject = { ...testProject, api_key: rotated.api_key };
  });
});

describe('POST /session/authenticate in a test project', () => {
  it('when the account id starts test_fake, then a person’s session is Fake with a bot score of 0.99 and the scores following', async () => {
    const r = await inTest().signIn({ id: 'test_fake_1' }, {}, GB_IP);
    expect(r.decision).toBe('Fake');
    expect(r.bot).toBe(FORCED_BOT);
    expect(r.account_score).toBeGreaterThanOrEqual(FORCED_BOT);
    expect(r.account.account.id).toBe('test_fake_1');
  });

  it('when the account id starts test_real, then a headless browser’s session is Real with no risk signal', async () => {
    const r = await inTest().signIn({ id: 'test_real_1' }, HEADLESS, GB_IP);
    expect(r.decision).toBe('Real');
    expect(r.bot).toBe(BOT_WEIGHTS.base);
    expect(r.risk_signals).toBe(0);
    expect(r.multiple_accounts).toBe(0);
    expect(Object.values(r.session.risk_signals).every((on) => on === false)).toBe(true);
    expect(r.session.risk_signal_details).toEqual({ network: [], device: [] });
    expect(r.account.risk_signal_average.device_risk).toBe(0);
  });

  it.each(TEST_SIGNALS)(
    'when the account id is test_signal_%s, then that signal is on and the scores follow from it',
    async (signal) => {
      const r: AuthenticateResponse = await (await freshTest()).signIn({ id: `test_signal_${signal}:a` }, {}, GB_IP);
      const on = Object.entries(r.session.risk_signals).filter(([, v]) => v);
      expect(on).toEqual([[signal, true]]);
      if (signal !== 'spoofed_ip') expect(r.session.risk_signal_scores[signal]).toBe(1);
      // A person's session otherwise clean: the one signal alone makes risk_signals its weight.
      expect(r.risk_signals).toBeCloseTo(RISK_SIGNAL_WEIGHTS[signal], 2);
      expect(r.decision).toBe(r.account_score >= 0.8 ? 'Fake' : 'Real');
    },
  );

  it('when a session used by test_fake is evaluated unauthenticated, then it is Fake too', async () => {
    const s = inTest();
    const id = await s.ingest(personSession(), GB_IP);
    await s.authenticated(id, { id: 'test_fake_unauth' });
    const r = await s.unauthenticated(id);
    expect(r.decision).toBe('Fake');
    expect(r.bot).toBe(FORCED_BOT);
  });

  it('when the account id only looks like one (test_signal_unknown), then nothing is forced', async () => {
    const r = await (await freshTest()).signIn({ id: 'test_signal_unknown' }, {}, GB_IP);
    expect(r.decision).toBe('Real');
    expect(Object.values(r.session.risk_signals).some((on) => on)).toBe(false);
  });
});

describe('the same account ids in a live project', () => {
  it('when a live project authenticates test_fake and test_signal_tor with a person’s session, then they are ordinary accounts', async () => {
    const fake = await inLive().signIn({ id: 'test_fake_live' }, {}, GB_IP);
    expect(fake.decision).toBe('Real');
    expect(fake.bot).toBeLessThan(0.5);
    const tor = await inLive().signIn({ id: 'test_signal_tor' }, {}, GB_IP);
    expect(tor.session.risk_signals.tor).toBe(false);
    const real = await inLive().signIn({ id: 'test_real_live' }, HEADLESS, GB_IP);
    expect(real.decision).toBe('Fake');
  });
});

describe('test data never mixes with live data', () => {
  it('when a test session from an address is judged Fake, then a live session from the same address has no recent fraud and no linked account', async () => {
    const shared = { device_id: 'shared-dev-machine', browser_fingerprint: 'shared-dev-fingerprint' };
    const ip = '73.162.0.1'; // a block no other test of the file uses
    const t = await freshTest();
    const fake = await t.signIn({ id: 'test_fake_isolation', email: 'dev@shop.example' }, shared, ip, true);
    expect(fake.decision).toBe('Fake');
    // In the test project itself the fraud is a fact: its next session from the address shows it.
    const next = await t.signIn({ id: 'test_isolation_other' }, shared, ip, true);
    const signals: EvaluatedRiskSignals = next.session.risk_signals;
    expect(signals.recent_fraud_ip).toBe(true);
    expect(next.accounts_linked).toBe(1);

    const live = await inLive().signIn({ id: 'live-customer', email: 'dev@shop.example' }, shared, ip, true);
    expect(live.session.risk_signals.recent_fraud_ip).toBe(false);
    expect(live.session.risk_signal_scores.recent_fraud_ip).toBe(0);
    expect(live.accounts_linked).toBe(0);
    expect(live.linked_accounts).toEqual([]);
    expect(live.account.email?.num_account_from_domain ?? 0).toBe(0);
    expect(live.decision).toBe('Real');
  });
});

describe('verification sessions in a test project', () => {
  const flow = () => verificationFlow({ ...ctx, project: testProject }, rx);
  /** The one webhook of the session, checked against webhooks.yaml and its signature. */
  async function webhookOf(sessionId: string) {
    const hooks = await flow().delivered(sessionId);
    expect(hooks).toHaveLength(1);
    const event = verifyWebhook(hooks[0]!.body, hooks[0]!.headers, testProject.webhook_secret, {
      now: ctx.clock.now(),
    });
    if (!('status' in event)) throw new Error(`not a verification event: ${event.event_type}`);
    return event;
  }

  /** What verify-face / verify-id answer for each forced ending (completed without a capture). */
  const VERIFY_ERROR: Record<(typeof TEST_VERIFICATION_ERRORS)[number], string> = {
    liveness_check_failed: 'liveness_check_failed',
    face_match_failed: 'liveness_check_failed',
    failed_to_process_id_scan: 'id_scan_failed',
    failed_to_collect_device_data: 'liveness_check_failed',
    max_duration_exceeded: 'session_not_started',
  };

  it.each(
    TEST_VERIFICATION_ERRORS.map(
      (code) => [code, code === 'failed_to_process_id_scan' ? 'id-check' : 'face-match'] as const,
    ),
  )(
    'when a session for test_verification_%s is completed, then it ends with that error and its signed webhook arrives',
    async (code, type) => {
      const s = await flow().create(type, { account_id: `test_verification_${code}` });
      // No capture and no analysis engine: the forced error needs neither.
      const done = await request(ctx.app).post(`/liveness/${s.id}/complete`).query({ token: s.token });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ status: 'error', error_code: code });
      expect(new URL(done.body.redirect_url).searchParams.get('error_message')).toBe(code);
      const event = await webhookOf(s.id);
      expect(event).toMatchObject({ status: 'error', data: null, error: { code } });
      if (event.status === 'error') expect(event.error.message).toContain(`test_verification_${code}`);
      // verify-face / verify-id answer the code clients branch on (docs/test-mode.md's table).
      const verify = await request(ctx.app)
        .post(type === 'face-match' ? '/liveness/verify-face' : '/liveness/verify-id')
        .set('x-api-key', testProject.api_key)
        .send({ session_id: s.id });
      expect(verify.status).toBe(400);
      expect(verify.body).toMatchObject({ success: false, error: VERIFY_ERROR[code] });
    },
  );

  it.each(['face-match', 'id-check'] as const)(
    'when a %s session for test_verification_success is completed, then it ends with a Real result in its webhook',
    async (type) => {
      const s = await flow().create(type, { account_id: `test_verification_success:${type}` });
      const image = fakeImage({});
      const captures: Record<string, Buffer> =
        type === 'face-match' ? { selfie: image } : { selfie: image, id_front: image, id_back: image };
      const done = await flow().complete(s, captures, { ip: GB_IP });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ status: 'success' });
      const event = await webhookOf(s.id);
      expect(event).toMatchObject({ status: 'success', error: null });
      if (event.status !== 'success' || event.event_type === 'webhook.test') throw new Error('no result');
      expect(event.data).toMatchObject({ decision: 'Real', risk_flags: [] });
      const verify = await request(ctx.app)
        .post(type === 'face-match' ? '/liveness/verify-face' : '/liveness/verify-id')
        .set('x-api-key', testProject.api_key)
        .send({ session_id: s.id });
      expect(verify.status).toBe(200);
      expect(verify.body.decision).toBe('Real');
    },
  );

  it('when failed_to_process_id_scan is asked of a Face Match session, then 400 naming the rule', async () => {
    const res = await request(ctx.app)
      .post('/liveness/session')
      .set('x-api-key', testProject.api_key)
      .send({ type: 'face-match', account_id: 'test_verification_failed_to_process_id_scan' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/account_id .* type must be id-check/);
  });

  it('when a live project’s session is for test_verification_face_match_failed, then completing it is ordinary (captures needed)', async () => {
    const live = verificationFlow(ctx, rx);
    const s = await live.create('face-match', { account_id: 'test_verification_face_match_failed' });
    const done = await request(ctx.app).post(`/liveness/${s.id}/complete`).query({ token: s.token });
    expect(done.status).toBe(400);
    expect(done.body.message).toMatch(/captures missing: selfie/);
  });
});
