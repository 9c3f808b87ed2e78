/**
 * Verification results computed from real data, through HTTP on a real database with a
 * loopback receiver: every terminal path's single webhook, races, matches against the
 * project's accounts (face, browser, document number and name), lists and rules, the
 * referring session, document verdicts, URLs signed at sending, personal data sealed at rest
 * and erased with the account. The analysis engine is the deterministic fake
 * (test/helpers/fake-analysis.ts); the real engine has its own tests.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../../src/app';
import { makeServices } from '../../src/composition';
import { verifyWebhook } from '../../packages/client/src';
import { MEDIA_URL_LIFETIME_MS } from '../../src/storage/media';
import { TEST_NOW, type TestContext } from '../helpers/app';
import { LONDON_IP, personSession, US_IP } from '../helpers/evaluation';
import { fakeAnalysisEngine, fakeImage, type FakeFace, type FakeImage } from '../helpers/fake-analysis';
import { storedMediaIds } from '../helpers/media';
import { webhookReceiver, type Receiver } from '../helpers/receiver';
import { verificationContext, verificationFlow, type Started } from '../helpers/verification';

let ctx: TestContext;
let rx: Receiver;
let flow: ReturnType<typeof verificationFlow>;

let close: () => Promise<void>;
beforeAll(async () => ({ ctx, rx, flow, close } = await verificationContext()));
afterAll(() => close());
beforeEach(() => {
  ctx.clock.set(TEST_NOW);
});

const selfie = (person: string, extra: Omit<FakeFace, 'person'> = {}) => fakeImage({ faces: [{ person, ...extra }] });
const LICENCE = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dateOfBirth: '1990-12-10',
  dateOfExpiration: '2030-12-10',
  dateOfIssue: '2022-12-10',
  idNumber: 'D1234567',
  countryCode: 'GB',
  state: '',
  templateType: 'driver_license' as const,
  address: { street: '12 St James Square', city: 'London', state: '', postalCode: 'SW1Y 4JH', country: 'GB' },
};
/** The three captures of an ID Check: `person`'s selfie, a front with a portrait `similarity` alike, and a back with `fields`. */
const idCaptures = (
  person: string,
  fields: Partial<typeof LICENCE> | null = {},
  front: FakeImage = { faces: [{ person, similarity: 0.92 }] },
) => ({
  selfie: selfie(person),
  id_front: fakeImage({ edges: 'full', ...front }),
  id_back: fakeImage(fields === null ? { barcode: 'unreadable' } : { fields: { ...LICENCE, ...fields } }),
});

/** Where the tests' other accounts sign in: an address no capture comes from (but the ip_address test's). */
const SIGN_IN_IP = '81.2.69.160';

async function verified(
  type: 'face-match' | 'id-check',
  captures: Record<string, Buffer>,
  extra: Record<string, unknown> = {},
  device: Parameters<typeof flow.complete>[2] = {},
) {
  const s = await flow.create(type, extra);
  const res = await flow.complete(s, captures, device);
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('success');
  const hooks = await flow.delivered(s.id);
  expect(hooks).toHaveLength(1);
  const raw = hooks[0]!;
  return { s, hook: JSON.parse(raw.body), raw };
}

describe('every terminal path sends exactly one webhook', () => {
  const failed = fakeImage({ faces: [] });
  const paths: [string, 'face-match' | 'id-check', (s: Started) => Promise<unknown>, string | null][] = [
    ['a result', 'face-match', (s) => flow.complete(s, { selfie: selfie('path-fm') }), null],
    ['a result', 'id-check', (s) => flow.complete(s, idCaptures('path-id', { idNumber: 'PATH-1' })), null],
    [
      'three failed attempts',
      'face-match',
      async (s) => {
        for (let i = 0; i < 3; i++) await flow.complete(s, { selfie: failed });
      },
      'face_match_failed',
    ],
    [
      'the user cancelling',
      'id-check',
      (s) => request(ctx.app).post(`/liveness/${s.id}/cancel`).query({ token: s.token }),
      'liveness_check_failed',
    ],
    [
      'an unprocessable document',
      'id-check',
      (s) =>
        flow.complete(s, {
          selfie: selfie('path-x'),
          id_front: fakeImage({ unprocessable: true }),
          id_back: fakeImage({ unprocessable: true }),
        }),
      'failed_to_process_id_scan',
    ],
    [
      'no device data',
      'face-match',
      async (s) => {
        await flow.capture(s, 'selfie', selfie('path-nd'));
        return request(ctx.app).post(`/liveness/${s.id}/complete`).query({ token: s.token });
      },
      'failed_to_collect_device_data',
    ],
    [
      '30 days passing',
      'id-check',
      async () => {
        ctx.clock.advance(30 * 24 * 3_600_000);
        await ctx.services.verification.sweep();
      },
      'max_duration_exceeded',
    ],
  ];

  test.each(paths)(
    'when a session ends by %s (%s), then one webhook with the matching status and error code, conforming and signed',
    async (_what, type, end, code) => {
      const s = await flow.create(type);
      await end(s);
      // Whatever comes later changes nothing.
      await request(ctx.app).post(`/liveness/${s.id}/cancel`).query({ token: s.token });
      await ctx.services.verification.sweep();
      const hooks = await flow.delivered(s.id);
      expect(hooks).toHaveLength(1);
      const hook = hooks[0]!;
      const body = verifyWebhook(hook.body, hook.headers, ctx.project.webhook_secret, { now: ctx.clock.now() });
      if (body.event_type === 'webhook.test' || !('status' in body)) throw new Error('not the session’s event');
      expect(body.event_type).toBe(
        type === 'face-match' ? 'verification.face-match.completed' : 'verification.id-check.completed',
      );
      expect(hook.headers['x-event-type']).toBe(body.event_type);
      expect(hook.headers['x-event-id']).toBe(body.request_id);
      if (code === null) {
        expect(body).toMatchObject({ status: 'success', error: null });
        expect(body.data?.metadata.request_id).toBe(body.request_id);
      } else {
        expect(body).toMatchObject({ status: 'error', data: null, error: { code } });
      }
      expect(await ctx.testDb.db('webhooks').where({ session_id: s.id }).count({ n: '*' }).first()).toEqual({ n: 1 });
      const row = await ctx.testDb.db('verification_sessions').where({ id: s.id }).first();
      expect(row).toMatchObject({ state: 'ended', outcome: code ?? 'success', webhook_request_id: body.request_id });
    },
  );
});

describe('races end in one terminal state and one webhook', () => {
  test('when six completes of one session run at once, on two server instances, then one success and one webhook', async () => {
    const other = createApp({
      config: ctx.config,
      services: makeServices({ ...ctx.deps, analysis: fakeAnalysisEngine }),
      contract: ctx.contract,
    });
    const s = await flow.create();
    await flow.capture(s, 'selfie', selfie('racer'));
    const device = await flow.sdk.ingest(personSession());
    const answers = await Promise.all(
      [ctx.app, other, ctx.app, other, ctx.app, other].map((app) =>
        request(app).post(`/liveness/${s.id}/complete`).query({ token: s.token, device_session_id: device }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.status))).toEqual(new Set(['success']));
    expect(await flow.delivered(s.id)).toHaveLength(1);
  });

  test('when the hosted page is used after 30 days before the sweeper ran, then every step finds the session ended with max_duration_exceeded, one webhook', async () => {
    const s = await flow.create();
    ctx.clock.advance(30 * 24 * 3_600_000);
    const capture = await flow.capture(s, 'selfie', selfie('too-late'));
    expect(capture.status).toBe(400);
    expect(capture.body.message).toMatch(/has ended \(max_duration_exceeded\)/);
    const cancel = await request(ctx.app).post(`/liveness/${s.id}/cancel`).query({ token: s.token });
    expect(cancel.body).toMatchObject({ status: 'error', error_code: 'max_duration_exceeded' });
    const complete = await request(ctx.app).post(`/liveness/${s.id}/complete`).query({ token: s.token });
    expect(complete.body).toMatchObject({ status: 'error', error_code: 'max_duration_exceeded' });
    const hooks = await flow.delivered(s.id);
    expect(hooks.map((h) => JSON.parse(h.body).error.code)).toEqual(['max_duration_exceeded']);
  });

  test('when completes and the sweeper race at the 30-day mark, then one terminal state and one webhook', async () => {
    const s = await flow.create();
    await flow.capture(s, 'selfie', selfie('late'));
    const device = await flow.sdk.ingest(personSession());
    ctx.clock.advance(30 * 24 * 3_600_000);
    const complete = () =>
      request(ctx.app).post(`/liveness/${s.id}/complete`).query({ token: s.token, device_session_id: device });
    const [a, , b] = await Promise.all([
      complete(),
      ctx.services.verification.sweep(),
      complete(),
      ctx.services.verification.sweep(),
    ]);
    expect([a.body.error_code, b.body.error_code]).toEqual(['max_duration_exceeded', 'max_duration_exceeded']);
    const hooks = await flow.delivered(s.id);
    expect(hooks).toHaveLength(1);
    expect(JSON.parse(hooks[0]!.body).error.code).toBe('max_duration_exceeded');
  });
});

describe('Face Match results', () => {
  test('when a new face verifies, then Real with no flags and no matches; the same face on another account is a repeat face linked by face', async () => {
    const first = await verified('face-match', { selfie: selfie('carol') }, { account_id: 'fm-carol' });
    expect(first.hook.data).toMatchObject({
      decision: 'Real',
      risk_score: 0,
      risk_flags: [],
      matches: { num_accounts_linked: 0, accounts_linked: [] },
      rules: [],
      lists: [],
    });
    const again = await verified(
      'face-match',
      { selfie: selfie('carol', { similarity: 0.85 }) },
      { account_id: 'fm-carol-2' },
    );
    expect(again.hook.data.risk_flags).toEqual(['repeat_face']);
    expect(again.hook.data.matches).toEqual({
      num_accounts_linked: 1,
      accounts_linked: [{ account_id: 'fm-carol', match_types: ['face'] }],
    });
    expect(again.hook.data.risk_score).toBe(0.7);
    // The same account verifying again is not a repeat of itself.
    const self = await verified('face-match', { selfie: selfie('carol') }, { account_id: 'fm-carol' });
    expect(self.hook.data.matches.accounts_linked.map((a: { account_id: string }) => a.account_id)).toEqual([
      'fm-carol-2',
    ]);
    // A different person matches nobody.
    const dave = await verified('face-match', { selfie: selfie('dave') }, { account_id: 'fm-dave' });
    expect(dave.hook.data.matches.num_accounts_linked).toBe(0);
  });

  test('when the capture browser (its stored id) signed in to another account, then a browser match and repeat_device', async () => {
    const browser = randomUUID();
    await flow.sdk.signIn({ id: 'fm-browser-owner' }, { device_id: browser }, SIGN_IN_IP);
    const { hook } = await verified(
      'face-match',
      { selfie: selfie('erin') },
      { account_id: 'fm-erin' },
      { session: { device_id: browser } },
    );
    expect(hook.data.matches.accounts_linked).toEqual([{ account_id: 'fm-browser-owner', match_types: ['browser'] }]);
    expect(hook.data.risk_flags).toEqual(['repeat_device']);
  });

  test('when only the capture device (its hardware fingerprint) signed in to another account, then repeat_device but no browser match', async () => {
    const fingerprint = 'e'.repeat(32);
    await flow.sdk.signIn({ id: 'fm-device-owner' }, { browser_fingerprint: fingerprint }, SIGN_IN_IP);
    const { hook } = await verified(
      'face-match',
      { selfie: selfie('fiona') },
      { account_id: 'fm-fiona' },
      { session: { browser_fingerprint: fingerprint } },
    );
    expect(hook.data.matches.accounts_linked).toEqual([]);
    expect(hook.data.risk_flags).toEqual(['repeat_device']);
  });

  test('when the capture comes from an address another account signed in from within a day, then an ip_address match (no flag); two days later, none', async () => {
    const address = '81.2.69.170';
    await flow.sdk.signIn({ id: 'ip-owner' }, {}, address);
    const face = await verified('face-match', { selfie: selfie('ivan') }, { account_id: 'ip-ivan' }, { ip: address });
    expect(face.hook.data.matches).toEqual({
      num_accounts_linked: 1,
      accounts_linked: [{ account_id: 'ip-owner', match_types: ['ip_address'] }],
    });
    expect(face.hook.data.risk_flags).toEqual([]);
    const id = await verified(
      'id-check',
      idCaptures('ivy', { idNumber: 'IP-1', firstName: 'Ivy' }),
      {},
      { ip: address },
    );
    // An ID Check from the same address (the hosted page's own session is not signed in to an account).
    expect(id.hook.data.matches.accounts_linked).toEqual([{ account_id: 'ip-owner', match_types: ['ip_address'] }]);
    ctx.clock.set(new Date(new Date(TEST_NOW).getTime() + 2 * 86_400_000));
    const later = await verified('face-match', { selfie: selfie('iris') }, { account_id: 'ip-iris' }, { ip: address });
    expect(later.hook.data.matches.num_accounts_linked).toBe(0);
  });

  test('when the account is on the block list, then Fake by the block_list rule and the list is named; a liveness failure alone is Fake by the threshold', async () => {
    await flow.sdk.signIn({ id: 'fm-blocked' }, {}, SIGN_IN_IP);
    expect(
      (await request(ctx.app).post('/list/block/account/fm-blocked').set('x-api-key', ctx.project.api_key)).status,
    ).toBeLessThan(300);
    const blocked = await verified('face-match', { selfie: selfie('frank') }, { account_id: 'fm-blocked' });
    expect(blocked.hook.data).toMatchObject({ decision: 'Fake', lists: ['block'], rules: [{ name: 'block_list' }] });
    const spoof = await verified('face-match', { selfie: selfie('gina', { liveness: 0.1 }) });
    expect(spoof.hook.data).toMatchObject({
      decision: 'Fake',
      risk_flags: ['liveness_failed'],
      risk_score: 0.9,
      rules: [{ name: 'risk_threshold' }],
    });
  });

  test('when the referring session was in London and the capture comes minutes later from California on a phone, then every referring signal is 1; without one, all 0', async () => {
    const referring = await flow.sdk.ingest(personSession(), LONDON_IP);
    ctx.clock.advance(5 * 60_000);
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
    const { hook } = await verified(
      'face-match',
      { selfie: selfie('hank') },
      { referring_session_id: referring },
      {
        ip: US_IP,
        session: { user_agent: iphone, timezone: 'America/Los_Angeles', screen: { width: 390, height: 844 } },
      },
    );
    expect(hook.data.metadata.referring_session_id).toBe(referring);
    expect(hook.data.referring_session_signals).toEqual({
      impossible_travel: 1,
      ip_mismatch: 1,
      user_agent_mismatch: 1,
      device_timezone_mismatch: 1,
      ip_timezone_mismatch: 1,
    });
    const none = await verified('face-match', { selfie: selfie('ivan') });
    expect(none.hook.data.referring_session_signals).toEqual({
      impossible_travel: 0,
      ip_mismatch: 0,
      user_agent_mismatch: 0,
      device_timezone_mismatch: 0,
      ip_timezone_mismatch: 0,
    });
  });
});

describe('ID Check results', () => {
  test('when a licence is read, then its data in MM/DD/YYYY, the age and the face match score; the same number on another account is repeat_id', async () => {
    const { hook } = await verified('id-check', idCaptures('jane', { idNumber: 'GB-JANE-1' }), {
      account_id: 'id-jane',
    });
    expect(hook.data.document_data.user_data).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      date_of_birth: '12/10/1990',
      date_of_expiration: '12/10/2030',
      date_of_issue: '12/10/2022',
      id_number: 'GB-JANE-1',
      id_number2: null,
      address: { street: '12 St James Square', city: 'London', state: '', postal_code: 'SW1Y 4JH', country: 'GB' },
    });
    expect(hook.data.document_data.template_info).toEqual({
      document_country_code: 'GB',
      document_country: 'United Kingdom',
      document_state: '',
      template_type: 'driver_license',
    });
    expect(hook.data.document_signals).toEqual({
      id_age: 35,
      face_age_estimate: 'over30',
      id_face_match_score: 0.92,
      id_barcode_status: 'success',
      id_face_status: 'ocr_template_does_not_support_detection',
      id_text_status: 'likely_original_text',
      is_id_digital_spoof: 'could_not_confidently_determine_physical_id_user_needs_to_retry',
      is_full_id_captured: 'full_id_detected',
      id_validity: 'likely_authentic_id',
    });
    expect(hook.data).toMatchObject({ decision: 'Real', risk_flags: [] });
    expect(hook.data.device_network_signals.ip_document_country_mismatch).toBe(false);

    const copy = await verified('id-check', idCaptures('kate', { idNumber: 'gb jane 1', firstName: 'Kate' }), {
      account_id: 'id-kate',
    });
    expect(copy.hook.data.matches.accounts_linked).toEqual([
      { account_id: 'id-jane', match_types: ['document_number'] },
    ]);
    expect(copy.hook.data.risk_flags).toContain('repeat_id');
    // Same holder (name and date of birth) on a new document number.
    const renewed = await verified('id-check', idCaptures('jane', { idNumber: 'GB-JANE-2' }), {
      account_id: 'id-jane-2',
    });
    expect(renewed.hook.data.matches.accounts_linked).toEqual([
      { account_id: 'id-jane', match_types: ['document_name', 'face'] },
    ]);
  });

  test('when the document is expired, then id_expired; when the birth date is in the future, then likely_fake_id, as validity and flag; under 16, then id_age_below_16', async () => {
    const expired = await verified(
      'id-check',
      idCaptures('liam', { idNumber: 'EXP-1', dateOfExpiration: '2025-01-31' }),
    );
    expect(expired.hook.data.risk_flags).toContain('id_expired');
    expect(expired.hook.data.document_signals.id_validity).toBe('likely_authentic_id');
    const future = await verified('id-check', idCaptures('mona', { idNumber: 'FUT-1', dateOfBirth: '2031-01-01' }));
    expect(future.hook.data.document_signals).toMatchObject({
      // No age from a birth date in the future: 0, never null (clients parse an integer).
      id_age: 0,
      id_validity: 'likely_fake_id',
      id_text_status: 'cannot_confirm_id_is_authentic',
    });
    expect(future.hook.data.risk_flags).toContain('likely_fake_id');
    expect(future.hook.data.decision).toBe('Fake');
    const young = await verified(
      'id-check',
      idCaptures('ned', { idNumber: 'YNG-1', dateOfBirth: '2012-06-01', dateOfIssue: '2024-06-01' }),
    );
    expect(young.hook.data.document_signals.id_age).toBe(14);
    expect(young.hook.data.risk_flags).toContain('id_age_below_16');
    expect(future.hook.data.risk_flags).not.toContain('id_age_below_16');
  });

  test('when the portrait matches poorly or moderately, or is missing, then the flags and score say so', async () => {
    const low = await verified(
      'id-check',
      idCaptures('olga', { idNumber: 'LOW-1' }, { faces: [{ person: 'olga', similarity: 0.3 }] }),
    );
    expect(low.hook.data.document_signals.id_face_match_score).toBe(0.3);
    expect(low.hook.data.risk_flags).toContain('low_id_face_match_score');
    const moderate = await verified(
      'id-check',
      idCaptures('pete', { idNumber: 'MOD-1' }, { faces: [{ person: 'pete', similarity: 0.5 }] }),
    );
    expect(moderate.hook.data.risk_flags).toContain('moderate_id_face_match_score');
    const none = await verified('id-check', idCaptures('quin', { idNumber: 'NOF-1' }, { faces: [], edges: 'partial' }));
    expect(none.hook.data.document_signals).toMatchObject({
      // No portrait: 0, never null (clients parse a number), and no face-match flag from it.
      id_face_match_score: 0,
      id_face_status: 'not_available',
      is_full_id_captured: 'could_not_confidently_determine_full_id_user_needs_to_retry',
    });
    expect(none.hook.data.risk_flags).not.toContain('low_id_face_match_score');
  });

  test('when the barcode cannot be read, then barcode_requested_but_error_reading, text not_available, validity cannot be confirmed and empty data, never a made-up pass', async () => {
    const { hook } = await verified('id-check', idCaptures('rosa', null));
    expect(hook.data.document_signals).toMatchObject({
      id_barcode_status: 'barcode_requested_but_error_reading',
      id_text_status: 'not_available',
      id_validity: 'cannot_confirm_id_is_authentic',
      id_age: 0,
    });
    expect(hook.data.risk_flags).not.toContain('likely_fake_id');
    expect(hook.data.risk_flags).not.toContain('cannot_confirm_id_is_authentic');
    expect(hook.data.document_data.user_data.first_name).toBe('');
    expect(hook.data.document_data.template_info.template_type).toBe('unknown');
  });

  test('when a US licence is captured from a London address, then ip_document_country_mismatch', async () => {
    const { hook } = await verified(
      'id-check',
      idCaptures('sam', { idNumber: 'US-1', countryCode: 'US', state: 'CA' }),
    );
    expect(hook.data.device_network_signals.ip_document_country_mismatch).toBe(true);
    expect(hook.data.risk_flags).toContain('ip_document_country_mismatch');
    expect(hook.data.document_data.template_info).toMatchObject({
      document_country_code: 'US',
      document_country: 'United States',
      document_state: 'CA',
    });
  });

  test('when the capture browser is automated, then high_device_risk (the published name); a person, none', async () => {
    const automated = await verified(
      'face-match',
      { selfie: selfie('tess') },
      {},
      {
        session: { automation: { webdriver: true, signals: [] } },
      },
    );
    expect(automated.hook.data.device_network_signals.device_risk).toBeGreaterThan(0.5);
    expect(automated.hook.data.risk_flags).toContain('high_device_risk');
    const person = await verified('face-match', { selfie: selfie('ugo') });
    expect(person.hook.data.risk_flags).not.toContain('high_device_risk');
  });
});

describe('verify-id before the ID Check is complete', () => {
  test('when an ID Check has only the selfie, then id_scan_not_complete; with both sides, session_not_complete; a malformed id is a validation error without a code', async () => {
    const s = await flow.create('id-check');
    const upload = (kind: string) => flow.capture(s, kind, fakeImage({ faces: [{ person: 'zoe' }] }));
    const verify = (path: string, id: string) =>
      request(ctx.app).post(path).set('x-api-key', ctx.project.api_key).send({ session_id: id });
    expect((await upload('selfie')).status).toBe(200);
    expect((await verify('/liveness/verify-id', s.id)).body.error).toBe('id_scan_not_complete');
    expect((await upload('id_front')).status).toBe(200);
    expect((await verify('/liveness/verify-id', s.id)).body.error).toBe('id_scan_not_complete');
    expect((await upload('id_back')).status).toBe(200);
    expect((await verify('/liveness/verify-id', s.id)).body.error).toBe('session_not_complete');
    const malformed = await verify('/liveness/verify-id', 'not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ statusCode: 400, message: expect.stringMatching(/^session_id /) });
  });
});

describe('media URLs are signed when sent', () => {
  test('when the first delivery fails and the retry goes out two hours later, then the retry carries URLs valid for 60 minutes from then; verify-face signs afresh too', async () => {
    const failing = await webhookReceiver([500]);
    const p = await ctx.services.projects.create({ name: 'late delivery' });
    await ctx.services.projects.setWebhook(p.project_id, failing.url);
    try {
      const res = await request(ctx.app)
        .post('/liveness/session')
        .set('x-api-key', p.api_key)
        .send({ type: 'face-match' });
      const s = { id: res.body.session_id, token: new URL(res.body.url).searchParams.get('token')! };
      await request(ctx.app)
        .post(`/liveness/${s.id}/capture`)
        .query({ token: s.token, kind: 'selfie' })
        .set('content-type', 'image/jpeg')
        .send(selfie('tess'));
      const body = personSession();
      await request(ctx.app)
        .post('/ingest/session')
        .set('x-project-id', p.project_id)
        .set('x-forwarded-for', LONDON_IP)
        .send(body);
      expect(
        (
          await request(ctx.app)
            .post(`/liveness/${s.id}/complete`)
            .query({ token: s.token, device_session_id: body.session_id })
        ).body.status,
      ).toBe('success');
      const frx = verificationFlow(ctx, failing);
      await frx.delivered(s.id);
      ctx.clock.advance(2 * 3_600_000);
      await frx.delivered(s.id);
      expect(failing.received).toHaveLength(2);
      // Two of each, as toHaveLength(2) says.
      const [first, second] = failing.received.map((r) => new URL(JSON.parse(r.body).data.photo_urls.face)) as [
        URL,
        URL,
      ];
      expect(JSON.parse(failing.received[0]!.body).request_id).toBe(JSON.parse(failing.received[1]!.body).request_id);
      expect(Number(second.searchParams.get('expires')) - Number(first.searchParams.get('expires'))).toBe(2 * 3600);
      const get = (u: URL) => request(ctx.app).get(u.pathname + u.search);
      expect((await get(first)).status).toBe(403);
      expect((await get(second)).status).toBe(200);
      ctx.clock.advance(MEDIA_URL_LIFETIME_MS);
      expect((await get(second)).status).toBe(403);
      const verify = await request(ctx.app)
        .post('/liveness/verify-face')
        .set('x-api-key', p.api_key)
        .send({ session_id: s.id });
      expect((await get(new URL(verify.body.photo_urls.face))).status).toBe(200);
    } finally {
      await failing.close();
    }
  });
});

describe('personal data', () => {
  test('when an ID Check is stored, then the result and the webhook body are sealed at rest; deleting the account erases results, images, face and document', async () => {
    const { s, hook } = await verified(
      'id-check',
      idCaptures('uma', { idNumber: 'SECRET-ID-77', lastName: 'Zwicky' }),
      { account_id: 'id-uma' },
    );
    const session = await ctx.testDb.db('verification_sessions').where({ id: s.id }).first();
    const webhook = await ctx.testDb.db('webhooks').where({ session_id: s.id }).first();
    for (const stored of [session.result, webhook.body]) {
      expect(stored).not.toContain('Zwicky');
      expect(stored).not.toContain('SECRET-ID-77');
    }
    const face = await ctx.testDb.db('verification_faces').where({ session_id: s.id }).first();
    expect(face.account_id).toBe('id-uma');
    const mediaIds = (await ctx.testDb
      .db('verification_captures')
      .where({ session_id: s.id })
      .pluck('media_id')) as string[];
    expect(mediaIds).toHaveLength(3);
    expect(await storedMediaIds(ctx)).toEqual(expect.arrayContaining(mediaIds));

    expect((await request(ctx.app).delete('/account/id-uma').set('x-api-key', ctx.project.api_key)).status).toBe(200);
    expect((await ctx.testDb.db('verification_sessions').where({ id: s.id }).first()).result).toBeNull();
    expect(await ctx.testDb.db('verification_captures').where({ session_id: s.id })).toEqual([]);
    expect(await ctx.testDb.db('verification_faces').where({ session_id: s.id })).toEqual([]);
    expect(await ctx.testDb.db('verification_documents').where({ session_id: s.id })).toEqual([]);
    expect(await ctx.testDb.db('webhooks').where({ session_id: s.id })).toEqual([]);
    const kept = await storedMediaIds(ctx);
    for (const id of mediaIds) expect(kept).not.toContain(id);
    expect(hook.data.photo_urls).toBeUndefined();
    const url = new URL(hook.data.document_data.photo_urls.face);
    expect((await request(ctx.app).get(url.pathname + url.search)).status).toBe(403);
    const verify = await request(ctx.app)
      .post('/liveness/verify-id')
      .set('x-api-key', ctx.project.api_key)
      .send({ session_id: s.id });
    expect(verify.status).toBe(400);
    expect(verify.body.message).toMatch(/erased/);
  });
});
