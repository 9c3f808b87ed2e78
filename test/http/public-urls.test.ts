/**
 * Every absolute URL the service makes (the hosted page's, media URLs in results and webhooks)
 * is made on the configured public base URL, whatever Host, X-Forwarded-Host and
 * X-Forwarded-Proto the request carries, with TRUST_PROXY on: the person completing a
 * verification must not choose where the customer's reviewers and backend fetch images from.
 * Through HTTP on a real database, with a real loopback receiver.
 */
import request from 'supertest';
import { TEST_BASE_URL, type TestContext } from '../helpers/app';
import { at } from '../helpers/defined';
import { LONDON_IP, personSession } from '../helpers/evaluation';
import { fakeImage } from '../helpers/fake-analysis';
import type { Receiver } from '../helpers/receiver';
import { verificationContext, type verificationFlow } from '../helpers/verification';

/** What an attacker's client sends with each of its requests. */
const FORGED = { host: 'attacker.invalid', 'x-forwarded-host': 'attacker.invalid', 'x-forwarded-proto': 'javascript' };

let ctx: TestContext;
let rx: Receiver;
let flow: ReturnType<typeof verificationFlow>;
let close: () => Promise<void>;
// TRUST_PROXY on: X-Forwarded-Proto and X-Forwarded-Host are believed where Express uses them.
beforeAll(async () => ({ ctx, rx, flow, close } = await verificationContext()));
afterAll(() => close());

/** Every string in a JSON value that looks like an absolute URL. */
function urlsIn(value: unknown): string[] {
  if (typeof value === 'string') return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(urlsIn);
  return [];
}

describe('POST /liveness/session', () => {
  test('when the request carries a forged Host and forwarded headers, then the hosted page URL is on the configured base', async () => {
    const res = await request(ctx.app)
      .post('/liveness/session')
      .set(FORGED)
      .set('x-api-key', ctx.project.api_key)
      .send({ type: 'face-match' });
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(
      new RegExp(`^${TEST_BASE_URL.replace(/\./g, '\\.')}/liveness/${res.body.session_id}\\?token=[A-Za-z0-9_-]{43}$`),
    );
  });
});

describe('POST /liveness/{session_id}/complete', () => {
  test.each(['face-match', 'id-check'] as const)(
    'when a %s session is completed with a forged Host and forwarded headers, then the result, the verify call and the webhook carry media URLs on the configured base only',
    async (type) => {
      const s = await flow.create(type);
      const person = fakeImage({ faces: [{ person: `forged-host-${type}` }] });
      const captures: Record<string, Buffer> =
        type === 'face-match'
          ? { selfie: person }
          : {
              selfie: person,
              id_front: fakeImage({ edges: 'full', faces: [{ person: `forged-host-${type}`, similarity: 0.92 }] }),
              id_back: fakeImage({
                fields: { firstName: 'Ada', lastName: 'Lovelace', idNumber: 'HOST-1', countryCode: 'GB' },
              }),
            };
      for (const [kind, body] of Object.entries(captures)) {
        expect((await flow.capture(s, kind, body).set(FORGED)).status).toBe(200);
      }
      const deviceSessionId = await flow.sdk.ingest(personSession(), LONDON_IP);
      const completed = await request(ctx.app)
        .post(`/liveness/${s.id}/complete`)
        .set(FORGED)
        .query({ token: s.token, device_session_id: deviceSessionId });
      expect(completed.status).toBe(200);
      expect(completed.body.status).toBe('success');

      const verify = await request(ctx.app)
        .post(type === 'face-match' ? '/liveness/verify-face' : '/liveness/verify-id')
        .set(FORGED)
        .set('x-api-key', ctx.project.api_key)
        .send({ session_id: s.id });
      expect(verify.status).toBe(200);
      const hook = at(await flow.delivered(s.id), 0);
      const urls = [...urlsIn(verify.body), ...urlsIn(JSON.parse(hook.body).data)];
      expect(urls.length).toBeGreaterThanOrEqual(type === 'face-match' ? 2 : 6);
      for (const url of urls)
        expect(url).toMatch(
          new RegExp(`^${TEST_BASE_URL.replace(/\./g, '\\.')}/media/[0-9a-f-]{36}\\?expires=\\d+&signature=`),
        );
      expect(JSON.stringify([completed.body, verify.body, hook.body])).not.toMatch(/attacker|javascript/);
    },
  );

  test('when a stored media URL carries another host (one written before the base URL was configured), then it is signed on the configured base', async () => {
    const id = '0b5f6c1e-3d2a-4c8b-9e7f-1a2b3c4d5e6f';
    expect(await ctx.services.mediaUrls.sign(`http://attacker.invalid/media/${id}`)).toMatch(
      new RegExp(`^${TEST_BASE_URL.replace(/\./g, '\\.')}/media/${id}\\?expires=`),
    );
  });
});
