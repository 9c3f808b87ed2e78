/**
 * GET /account/{account_id}/verifications (the console's account page) and the audit of an
 * account's erasure, through HTTP on a real database: the account's verification sessions
 * newest first with their images as 5-minute signed URLs (fetched without credentials, refused
 * once expired or altered), other projects, bad input, media erased by retention; DELETE
 * /account writes `account.erased` (naming the operator, not the account), and only an
 * admin may erase. Response validation is on.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AccountVerifications, AuditEvents, ConsoleSession, OperatorRole } from '../../src/api-types';
import { CONSOLE_MEDIA_URL_LIFETIME_MS } from '../../src/storage/media';
import { TEST_NOW, type TestContext } from '../helpers/app';
import { fakeImage } from '../helpers/fake-analysis';
import { removeStoredMedia } from '../helpers/media';
import { verificationContext, type verificationFlow } from '../helpers/verification';

let ctx: TestContext;
let flow: ReturnType<typeof verificationFlow>;
let close: () => Promise<void>;
beforeAll(async () => ({ ctx, flow, close } = await verificationContext()));
afterAll(() => close());
beforeEach(() => ctx.clock.set(TEST_NOW));

const PASSWORD = 'correct horse battery staple';
const selfie = (person: string) => fakeImage({ faces: [{ person }] });

const list = (id: string, query = '', apiKey = ctx.project.api_key) =>
  request(ctx.app)
    .get(`/account/${encodeURIComponent(id)}/verifications${query}`)
    .set('x-api-key', apiKey);

/** An account signed in once, with a Face Match that succeeded; its verification session id. */
async function verifiedAccount(id: string): Promise<string> {
  await flow.sdk.signIn({ id });
  const s = await flow.create('face-match', { account_id: id });
  const done = await flow.complete(s, { selfie: selfie(id) });
  expect(done.body.status).toBe('success');
  return s.id;
}

/** Signs an operator of the test project in: the cookie and CSRF token to send. */
async function operator(role: OperatorRole) {
  const email = `${role}-${randomUUID()}@example.com`;
  const op = await ctx.services.operators.add({ projectId: ctx.project.project_id, email, role, password: PASSWORD });
  const res = await request(ctx.app)
    .post('/console/login')
    .set('x-forwarded-for', '90.1.2.3')
    .send({ email, password: PASSWORD });
  expect(res.status).toBe(200);
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
  return { id: op.id, cookie, csrf: (res.body as ConsoleSession).csrf_token };
}

describe('listAccountVerifications', () => {
  test('when the account has verifications, then they come newest first with each image as a URL valid for 5 minutes, fetched without credentials', async () => {
    const first = await verifiedAccount('av-ada');
    ctx.clock.advance(60_000);
    const second = await flow.create('face-match', { account_id: 'av-ada' });
    const res = await list('av-ada');
    expect(res.status).toBe(200);
    const body = res.body as AccountVerifications;
    expect(body.account_id).toBe('av-ada');
    expect(body.verifications.map((v) => v.session_id)).toEqual([second.id, first]);
    const [open, ended] = body.verifications as [
      AccountVerifications['verifications'][number],
      AccountVerifications['verifications'][number],
    ];
    expect(open).toMatchObject({ state: 'open', outcome: null, ended_at: null, images: [], media_erased: false });
    expect(ended).toMatchObject({
      type: 'face-match',
      state: 'ended',
      outcome: 'success',
      decision: expect.stringMatching(/^(Real|Fake|Suspicious)$/),
      media_erased: false,
    });
    expect(ended.images).toHaveLength(1);
    const image = ended.images[0]!;
    expect(image.kind).toBe('selfie');
    const expires = Date.parse(image.expires_at);
    expect(expires).toBeGreaterThan(Date.parse(TEST_NOW));
    expect(expires).toBeLessThanOrEqual(Date.parse(TEST_NOW) + 60_000 + CONSOLE_MEDIA_URL_LIFETIME_MS);
    const url = new URL(image.url);
    const fetched = await request(ctx.app).get(url.pathname + url.search);
    expect(fetched.status).toBe(200);
    expect(fetched.headers['content-type']).toMatch(/^image\//);
    expect(Buffer.compare(fetched.body as Buffer, selfie('av-ada'))).toBe(0);

    // Altered (another expiry, or another signature): refused.
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await request(ctx.app).get(later.pathname + later.search)).status).toBe(403);
    const forged = new URL(url);
    forged.searchParams.set('signature', 'A'.repeat(43));
    expect((await request(ctx.app).get(forged.pathname + forged.search)).status).toBe(403);
    // Expired: refused.
    ctx.clock.advance(CONSOLE_MEDIA_URL_LIFETIME_MS);
    expect((await request(ctx.app).get(url.pathname + url.search)).status).toBe(403);
  });

  test('when retention has erased the media, then media_erased is true, without images or result, and the old URL is refused', async () => {
    const id = await verifiedAccount('av-retained');
    const before = ((await list('av-retained')).body as AccountVerifications).verifications[0]!;
    const url = new URL(before.images[0]!.url);
    const repo = ctx.services.repos.verifications;
    const erased = await ctx.testDb.db.transaction((trx) => repo.eraseMedia([id], ctx.clock.now(), trx));
    // As retention does once its transaction has committed: the files go from the media store.
    for (const mediaId of erased.mediaIds) await removeStoredMedia(ctx, mediaId);
    const after = ((await list('av-retained')).body as AccountVerifications).verifications[0]!;
    expect(after).toMatchObject({ session_id: id, media_erased: true, images: [], risk_flags: [] });
    expect(after).not.toHaveProperty('decision');
    expect((await request(ctx.app).get(url.pathname + url.search)).status).toBe(403);
  });

  test("when another project's key asks, then 400 Account not found and nothing of the account", async () => {
    await verifiedAccount('av-private');
    const other = await ctx.services.projects.create({ name: `Other ${randomUUID()}` });
    const res = await list('av-private', '', other.api_key);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Account not found');
  });

  test.each([
    ['?limit=0', /limit/],
    ['?limit=101', /limit/],
    ['?limit=two', /limit/],
  ])('when the query is %s, then 400 naming the field', async (query, field) => {
    await flow.sdk.signIn({ id: 'av-bad-input' });
    const res = await list('av-bad-input', query);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(field);
  });

  test('when the account is unknown, then 400 Account not found', async () => {
    const res = await list('av-nobody');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Account not found');
  });

  test('when a viewer signed in to the console asks, then the list (a read)', async () => {
    await verifiedAccount('av-viewed');
    const viewer = await operator('viewer');
    const res = await request(ctx.app).get('/account/av-viewed/verifications').set('cookie', viewer.cookie);
    expect(res.status).toBe(200);
    expect((res.body as AccountVerifications).verifications).toHaveLength(1);
  });
});

describe('deleteAccount: the audit', () => {
  const audit = async () =>
    (await request(ctx.app).get('/audit').set('x-api-key', ctx.project.api_key)).body as AuditEvents;

  test('when an admin erases an account, then account.erased names the operator and the request, never the account, and the images are gone', async () => {
    await verifiedAccount('av-erased-person');
    const images = ((await list('av-erased-person')).body as AccountVerifications).verifications[0]!.images;
    const admin = await operator('admin');
    const res = await request(ctx.app)
      .delete('/account/av-erased-person')
      .set('cookie', admin.cookie)
      .set('x-csrf-token', admin.csrf);
    expect(res.status).toBe(200);
    const [event] = (await audit()).events;
    expect(event).toEqual({
      id: expect.any(String),
      actor: `operator:${admin.id}`,
      action: 'account.erased',
      request_id: res.body.request_id,
      changes: [],
      created_at: TEST_NOW,
    });
    expect(JSON.stringify(await ctx.testDb.db('audit_events'))).not.toContain('av-erased-person');
    for (const image of images) {
      const url = new URL(image.url);
      expect((await request(ctx.app).get(url.pathname + url.search)).status).toBe(403);
    }
    expect((await list('av-erased-person')).status).toBe(400);
  });

  test('when an analyst or a viewer tries to erase, then 403 and the account, its images and the audit stay as they were', async () => {
    await verifiedAccount('av-kept');
    const eventsBefore = (await audit()).events.length;
    for (const role of ['analyst', 'viewer'] as const) {
      const op = await operator(role);
      const res = await request(ctx.app)
        .delete('/account/av-kept')
        .set('cookie', op.cookie)
        .set('x-csrf-token', op.csrf);
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/deleteAccount needs the admin role/);
    }
    expect((await list('av-kept')).body.verifications[0].images).toHaveLength(1);
    expect((await audit()).events).toHaveLength(eventsBefore);
  });

  test('when the account is unknown, then 400 and no audit event', async () => {
    const eventsBefore = (await audit()).events.length;
    const res = await request(ctx.app).delete('/account/av-never').set('x-api-key', ctx.project.api_key);
    expect(res.status).toBe(400);
    expect((await audit()).events).toHaveLength(eventsBefore);
  });
});
