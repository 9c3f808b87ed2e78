/**
 * The hosted page's capture endpoints through HTTP: uploads checked by their magic bytes and
 * stored encrypted, completion through the AnalysisEngine (a deterministic fake here; the
 * server's default wiring has only the "not installed" engine), attempts, and signed media URLs.
 */
import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../src/app';
import { makeServices, type Services } from '../../src/composition';
import type { ProjectCredentials } from '../../src/usecases/projects';
import { MEDIA_URL_LIFETIME_MS } from '../../src/storage/media';
import { TEST_NOW, type TestContext } from '../helpers/app';
import { fakeImage } from '../helpers/fake-analysis';
import { personSession } from '../helpers/evaluation';
import { storedMedia } from '../helpers/media';
import type { Receiver } from '../helpers/receiver';
import { validateWebhookBody } from '../helpers/spec';
import { deliverDue, verificationContext } from '../helpers/verification';

/** A tiny valid JPEG header and body (the fake engine never decodes it). */
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0'),
  randomBytes(200),
  Buffer.from([0xff, 0xd9]),
]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x40, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  randomBytes(64),
]);

/** A selfie in which the fake engine finds one live face. */
const SELFIE = fakeImage({ faces: [{ person: 'ada' }] });

let ctx: TestContext;
let app: Express;
let defaultApp: Express;
let services: Services;
let project: ProjectCredentials;
let rx: Receiver;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ ctx, rx, close } = await verificationContext());
  ({ app, services, project } = ctx);
  // The server's default wiring on the same database and media: no engine given.
  defaultApp = createApp({ config: ctx.config, services: makeServices(ctx.deps), contract: ctx.contract });
});
afterAll(() => close());
beforeEach(() => {
  rx.received.length = 0;
  ctx.clock.set(TEST_NOW);
});

async function create(type: 'face-match' | 'id-check' = 'face-match') {
  const res = await request(app)
    .post('/liveness/session')
    .set('x-api-key', project.api_key)
    .send({ type, redirect_url: 'https://shop.example.com/done' });
  expect(res.status).toBe(200);
  return { id: res.body.session_id as string, token: new URL(res.body.url).searchParams.get('token')! };
}

const capture = (s: { id: string; token: string }, kind: string, body: Buffer, type = 'image/jpeg', on = app) =>
  request(on).post(`/liveness/${s.id}/capture`).query({ token: s.token, kind }).set('content-type', type).send(body);

/** The web SDK's session on the hosted page, posted as the SDK posts it. */
async function deviceSession(): Promise<string> {
  const body = personSession();
  const res = await request(app)
    .post('/ingest/session')
    .set('x-project-id', project.project_id)
    .set('x-forwarded-for', '81.2.69.142')
    .send(body);
  expect(res.status).toBe(200);
  return body.session_id;
}

const complete = async (s: { id: string; token: string }, on = app) =>
  request(on)
    .post(`/liveness/${s.id}/complete`)
    .query({ token: s.token, device_session_id: await deviceSession() });

async function delivered(sessionId: string) {
  await deliverDue(ctx);
  const mine = rx.received.map((d) => JSON.parse(d.body)).filter((b) => b.session_id === sessionId);
  for (const body of mine) expect(await validateWebhookBody(body)).toEqual([]);
  return mine;
}

describe('POST /liveness/{session_id}/capture', () => {
  test('when JPEG, PNG and WebP images are sent, then each is stored with the type read from its bytes, whatever the header says', async () => {
    const s = await create('id-check');
    expect((await capture(s, 'selfie', JPEG)).body).toEqual({
      session_id: s.id,
      kind: 'selfie',
      content_type: 'image/jpeg',
      size: JPEG.length,
    });
    expect((await capture(s, 'id_front', PNG, 'image/jpeg')).body.content_type).toBe('image/png');
    expect((await capture(s, 'id_back', WEBP, 'image/png')).body.content_type).toBe('image/webp');
  });

  test('when the bytes are not an image, then 415; when the header is not an image type, then 415; when kind is unknown, then 400 naming kind', async () => {
    const s = await create();
    const text = await capture(s, 'selfie', Buffer.from('GIF89a not allowed'));
    expect(text.status).toBe(415);
    expect(text.body.message).toMatch(/^body is not a JPEG, PNG or WebP image/);
    expect((await capture(s, 'selfie', JPEG, 'text/plain')).status).toBe(415);
    const kind = await capture(s, 'passport', JPEG);
    expect(kind.status).toBe(400);
    expect(kind.body.message).toMatch(/kind/);
  });

  test('when the image is larger than 8 MB, then 413', async () => {
    const s = await create();
    const big = Buffer.concat([JPEG, Buffer.alloc(8 * 1024 * 1024)]);
    expect((await capture(s, 'selfie', big)).status).toBe(413);
  });

  test('when the token is wrong, then 403', async () => {
    const s = await create();
    const res = await capture({ id: s.id, token: 'x'.repeat(43) }, 'selfie', JPEG);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, message: 'The capture token is not valid for this session' });
  });

  test('when a capture is stored, then the image at rest (file or row) is encrypted (neither the image nor its type in the clear)', async () => {
    const s = await create();
    const marker = Buffer.concat([JPEG.subarray(0, 6), Buffer.from('PERSONAL-DATA-MARKER')]);
    expect((await capture(s, 'selfie', marker)).status).toBe(200);
    const row = await ctx.testDb.db('verification_captures').where({ session_id: s.id }).first();
    const file = Buffer.from((await storedMedia(ctx, row.media_id as string))!, 'utf8');
    expect(file.includes(Buffer.from('PERSONAL-DATA-MARKER'))).toBe(false);
    expect(file.includes(Buffer.from('PERSONAL-DATA-MARKER').toString('base64'))).toBe(false);
    expect(file.toString('utf8')).not.toContain('image/jpeg');
  });

  test('when the session has ended, then a capture is refused with 400', async () => {
    const s = await create();
    await request(app).post(`/liveness/${s.id}/cancel`).query({ token: s.token });
    const res = await capture(s, 'selfie', JPEG);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/has ended/);
  });
});

describe('POST /liveness/{session_id}/complete', () => {
  test('when the fake engine passes a Face Match, then exactly one success webhook whose data verify-face returns unchanged', async () => {
    const s = await create();
    await capture(s, 'selfie', SELFIE);
    const res = await complete(s);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      session_id: s.id,
      status: 'success',
      redirect_url: `https://shop.example.com/done?session_id=${s.id}&success=true`,
    });
    expect((await complete(s)).body.status).toBe('success'); // again: nothing more
    const hooks = await delivered(s.id);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatchObject({ status: 'success', error: null, event_type: 'verification.face-match.completed' });
    expect(hooks[0].request_id).toBe(hooks[0].data.metadata.request_id);
    expect(hooks[0].data.session_data.location.country_code).toBe('GB');
    const verify = await request(app)
      .post('/liveness/verify-face')
      .set('x-api-key', project.api_key)
      .send({ session_id: s.id });
    expect(verify.status).toBe(200);
    expect(verify.body).toEqual(hooks[0].data);
  });

  test('when an ID Check passes, then the webhook carries the document and three signed photo URLs', async () => {
    const s = await create('id-check');
    await capture(s, 'selfie', SELFIE);
    await capture(s, 'id_front', fakeImage({ faces: [{ person: 'ada', similarity: 0.9 }], edges: 'full' }));
    await capture(
      s,
      'id_back',
      fakeImage({
        fields: {
          firstName: 'Ada',
          lastName: 'Lovelace',
          dateOfBirth: '1990-12-10',
          dateOfExpiration: '2030-12-10',
          dateOfIssue: '2020-12-10',
          idNumber: 'LOVEL912100A99XY',
          countryCode: 'GB',
          templateType: 'driver_license',
        },
      }),
    );
    expect((await complete(s)).body.status).toBe('success');
    const [hook] = await delivered(s.id);
    expect(hook.data.device_network_signals.ip_document_country_mismatch).toBe(false);
    expect(hook.data.document_data.user_data).toMatchObject({
      first_name: 'Ada',
      date_of_birth: '12/10/1990',
      id_number: 'LOVEL912100A99XY',
    });
    expect(hook.data.document_signals).toMatchObject({
      id_face_match_score: 0.9,
      id_barcode_status: 'success',
      is_full_id_captured: 'full_id_detected',
    });
    expect(Object.keys(hook.data.document_data.photo_urls).sort()).toEqual(['face', 'id_scan_back', 'id_scan_front']);
  });

  test('when the selfie is missing, then 400 naming it', async () => {
    const s = await create();
    const res = await complete(s);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^captures missing: selfie/);
  });

  test('when three attempts fail, then retry, retry, and the session ends with face_match_failed', async () => {
    const s = await create();
    await capture(s, 'selfie', fakeImage({ faces: [] }));
    expect((await complete(s)).body).toMatchObject({ status: 'retry', attempts_remaining: 2 });
    expect((await complete(s)).body).toMatchObject({ status: 'retry', attempts_remaining: 1 });
    const last = await complete(s);
    expect(last.body).toMatchObject({ status: 'error', error_code: 'face_match_failed' });
    const hooks = await delivered(s.id);
    expect(hooks).toHaveLength(1);
    expect(hooks[0].error.code).toBe('face_match_failed');
  });

  test('when an ID document cannot be read, then the session ends with failed_to_process_id_scan', async () => {
    const s = await create('id-check');
    await capture(s, 'selfie', SELFIE);
    await capture(s, 'id_front', fakeImage({ unprocessable: true }));
    await capture(s, 'id_back', fakeImage({ unprocessable: true }));
    expect((await complete(s)).body).toMatchObject({ status: 'error', error_code: 'failed_to_process_id_scan' });
    expect((await delivered(s.id))[0].error.code).toBe('failed_to_process_id_scan');
  });

  test('when the web SDK data never arrived, then the session ends with failed_to_collect_device_data', async () => {
    const s = await create();
    await capture(s, 'selfie', SELFIE);
    const res = await request(app).post(`/liveness/${s.id}/complete`).query({ token: s.token });
    expect(res.body).toMatchObject({ status: 'error', error_code: 'failed_to_collect_device_data' });
  });

  test('when the server runs with its default wiring (no engine installed), then 503 and the session stays open', async () => {
    const s = await create();
    expect((await capture(s, 'selfie', JPEG, 'image/jpeg', defaultApp)).status).toBe(200);
    const res = await complete(s, defaultApp);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      statusCode: 503,
      message: 'The analysis engine is not installed on this server; the session stays open',
    });
    expect((await ctx.testDb.db('verification_sessions').where({ id: s.id }).first()).state).toBe('open');
  });
});

describe('GET /media/{id} (signed URLs)', () => {
  test('when the photo URL is fresh, then the image; after 60 minutes or altered, then 403', async () => {
    const s = await create();
    await capture(s, 'selfie', SELFIE);
    await complete(s);
    const [hook] = await delivered(s.id);
    const url = new URL(hook.data.photo_urls.face);
    const get = (u: URL) =>
      request(app)
        .get(u.pathname + u.search)
        .buffer(true)
        .parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => cb(null, Buffer.concat(chunks)));
        });
    const ok = await get(url);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(ok.body as Buffer, SELFIE)).toBe(0);
    const altered = new URL(url);
    altered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 60));
    expect((await get(altered)).status).toBe(403);
    const otherSig = new URL(url);
    otherSig.searchParams.set('signature', 'A'.repeat(43));
    expect((await get(otherSig)).status).toBe(403);
    ctx.clock.advance(MEDIA_URL_LIFETIME_MS - 1000);
    expect((await get(url)).status).toBe(200);
    ctx.clock.advance(1000);
    const expired = await get(url);
    expect(expired.status).toBe(403);
  });
});

describe('GET /liveness/{session_id} (the hosted page)', () => {
  test('when the link is valid, then an accessible page with the project name, the steps in order, the SDK tag, a Cancel button and a live region', async () => {
    const s = await create('id-check');
    const res = await request(app).get(`/liveness/${s.id}`).query({ token: s.token });
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<script src="/sdk.js" data-project-id="${project.project_id}"></script>`);
    expect(res.text).toContain('<p class="project" id="project-name">Test project</p>');
    expect([...res.text.matchAll(/<section class="step" data-kind="(\w+)"/g)].map((m) => m[1])).toEqual([
      'id_front',
      'id_back',
      'selfie',
    ]);
    expect(res.text).toMatch(/<button type="button" id="cancel" class="link">Cancel verification<\/button>/);
    expect(res.text).toContain('aria-live="polite"');
    expect(res.text).toContain('accept="image/*" capture="user"');
    expect(res.text).toContain('accept="image/*" capture="environment"');
  });

  test("when the page is served, then its CSP runs only this origin's scripts and the page's own by hash, and no request leaves the origin", async () => {
    const s = await create();
    const res = await request(app).get(`/liveness/${s.id}`).query({ token: s.token });
    const csp = Object.fromEntries(
      String(res.headers['content-security-policy'])
        .split('; ')
        .map((d) => [d.split(' ')[0], d.split(' ').slice(1)]),
    );
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(csp['script-src']).toEqual(["'self'", expect.stringMatching(/^'sha256-[A-Za-z0-9+/]{43}='$/)]);
    expect(csp['style-src']).toEqual([expect.stringMatching(/^'sha256-[A-Za-z0-9+/]{43}='$/)]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.text).not.toMatch(/https?:\/\//);
  });

  test('when the session is unknown, then session_id_not_found; when the token is wrong, then invalid_session_id with the redirect', async () => {
    const unknown = await request(app)
      .get('/liveness/00000000-0000-4000-8000-000000000000')
      .query({ token: 'x'.repeat(43) });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('session_id_not_found');
    const s = await create();
    const bad = await request(app)
      .get(`/liveness/${s.id}`)
      .query({ token: 'y'.repeat(43) });
    expect(bad.status).toBe(403);
    expect(bad.text).not.toContain('Test project');
    expect(bad.text).toContain(
      `https://shop.example.com/done?session_id=${s.id}&#38;success=false&#38;error_message=invalid_session_id`,
    );
  });
});
