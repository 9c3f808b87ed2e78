/**
 * The real analysis engine end to end through the hosted page's capture endpoints: real face
 * photos (cut from images shipped in npm packages) and synthesised licences (AAMVA PDF417 by
 * bwip-js on a card composed with sharp), a real database and a loopback receiver. Nothing is
 * faked between the upload and the webhook.
 */
import { makeLocalAnalysisEngine, type LocalAnalysisEngine } from '../../src/analysis/engine';
import { buildAamva, CALIFORNIA, type AamvaSpec } from '../analysis/fixtures/aamva';
import { cardBack, cardFront, pdf417Png, photograph } from '../analysis/fixtures/documents';
import { facePhotos, variations, type FacePhoto } from '../analysis/fixtures/faces';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { webhookReceiver, type Receiver } from '../helpers/receiver';
import { verificationFlow } from '../helpers/verification';

let ctx: TestContext;
let rx: Receiver;
let flow: ReturnType<typeof verificationFlow>;
let engine: LocalAnalysisEngine;
let photos: FacePhoto[];
const person = (name: string) => photos.find((p) => p.name === name)!.png;

beforeAll(async () => {
  engine = makeLocalAnalysisEngine();
  await engine.warmUp();
  photos = await facePhotos();
  ctx = await makeTestContext({ trustProxy: true, demo: false }, { analysis: engine, media: true });
  rx = await webhookReceiver();
  await ctx.services.projects.setWebhook(ctx.project.project_id, rx.url);
  flow = verificationFlow(ctx, rx);
}, 120_000);
afterAll(async () => {
  await rx.close();
  await ctx.close();
  await engine.close();
});
beforeEach(() => ctx.clock.set(TEST_NOW));

async function verified(
  type: 'face-match' | 'id-check',
  captures: Record<string, Buffer>,
  extra: Record<string, unknown> = {},
) {
  const s = await flow.create(type, extra);
  const res = await flow.complete(s, captures);
  expect(res.body).toMatchObject({ status: 'success' });
  const hooks = await flow.delivered(s.id);
  expect(hooks).toHaveLength(1);
  return JSON.parse(hooks[0]!.body).data;
}

/** A licence of `portrait` with the California sample's data and `elements` changed, photographed slightly tilted. */
async function licence(portrait: Buffer, elements: Record<string, string> = {}) {
  const spec: AamvaSpec = { ...CALIFORNIA, elements: { ...CALIFORNIA.elements, ...elements } };
  return {
    id_front: await photograph(await cardFront(portrait), { rotate: 2, noise: 6, jpeg: true }),
    id_back: await photograph(await cardBack(await pdf417Png(buildAamva(spec))), { rotate: -3, noise: 6, jpeg: true }),
  };
}

describe('Face Match with the real engine', () => {
  test('when a person verifies, then success; the same person on a second account is a repeat face linked by face; another person is not', async () => {
    const a = person('sample3#0');
    const first = await verified('face-match', { selfie: a }, { account_id: 'real-a' });
    expect(first.risk_flags).not.toContain('repeat_face');
    expect(first.matches.num_accounts_linked).toBe(0);

    const again = await verified('face-match', { selfie: (await variations(a)).brighter }, { account_id: 'real-a-2' });
    expect(again.risk_flags).toContain('repeat_face');
    expect(again.matches.accounts_linked).toEqual([{ account_id: 'real-a', match_types: ['face'] }]);

    const other = await verified('face-match', { selfie: person('sample5#0') }, { account_id: 'real-b' });
    expect(other.risk_flags).not.toContain('repeat_face');
    expect(other.matches.num_accounts_linked).toBe(0);
  }, 60_000);

  test('when the selfie shows no face, then a retry saying what to do, and the attempt is counted', async () => {
    const s = await flow.create('face-match');
    const card = (await licence(person('sample4#1'))).id_back;
    const res = await flow.complete(s, { selfie: card });
    expect(res.body).toMatchObject({
      status: 'retry',
      attempts_remaining: 2,
      message: expect.stringMatching(/^No face was found/),
    });
  }, 60_000);
});

describe('ID Check with the real engine', () => {
  test("when a synthesised California licence is photographed, then the barcode's fields, the age and a high face match score", async () => {
    const c = person('sample6#2');
    const data = await verified(
      'id-check',
      { selfie: (await variations(c)).rotated_10deg, ...(await licence(c)) },
      { account_id: 'real-licence' },
    );
    expect(data.document_data.user_data).toMatchObject({
      first_name: 'ALEXANDRA',
      last_name: 'SAMPLE',
      date_of_birth: '08/31/1990',
      date_of_expiration: '08/31/2029',
      date_of_issue: '08/31/2021',
      id_number: 'I1234568',
      address: { street: '2570 24TH STREET', city: 'ANYTOWN', state: 'CA', postal_code: '95822' },
    });
    expect(data.document_data.template_info).toMatchObject({
      document_country_code: 'US',
      document_state: 'CA',
      template_type: 'driver_license',
    });
    expect(data.document_signals).toMatchObject({
      id_age: 36,
      id_barcode_status: 'success',
      is_full_id_captured: 'full_id_detected',
      id_validity: 'likely_authentic_id',
    });
    expect(data.document_signals.id_face_match_score).toBeGreaterThan(0.7);
    // A face is found, so some band is estimated (the response validator checks it is one of the spec's).
    expect(data.document_signals.face_age_estimate).toEqual(expect.stringMatching(/^(under|over)\d+$/));
    expect(data.risk_flags).not.toContain('low_id_face_match_score');
  }, 60_000);

  test('when the licence carries another person’s portrait, then a low face match score is flagged', async () => {
    const data = await verified('id-check', {
      selfie: person('sample3#1'),
      ...(await licence(person('sample5#2'), { DAQ: 'I7654321' })),
    });
    expect(data.document_signals.id_face_match_score).toBeLessThan(0.6);
    expect(
      data.risk_flags.some((f: string) => f === 'low_id_face_match_score' || f === 'moderate_id_face_match_score'),
    ).toBe(true);
  }, 60_000);

  test('when the licence has expired, then id_expired; when its birth date is in the future, then likely_fake_id, as validity and flag', async () => {
    const d = person('sample4#2');
    const expired = await verified('id-check', {
      selfie: d,
      ...(await licence(d, { DAQ: 'E0000001', DBA: '08312025' })),
    });
    expect(expired.document_data.user_data.date_of_expiration).toBe('08/31/2025');
    expect(expired.risk_flags).toContain('id_expired');
    const future = await verified('id-check', {
      selfie: d,
      ...(await licence(d, { DAQ: 'F0000001', DBB: '01012031' })),
    });
    expect(future.document_signals).toMatchObject({ id_age: 0, id_validity: 'likely_fake_id' });
    expect(future.risk_flags).toContain('likely_fake_id');
    expect(future.decision).toBe('Fake');
  }, 120_000);
});
