/**
 * The server side of the webhook signature: the scheme's test vector (from the product's brief,
 * which is not in this repository: the vector is kept here), an independent implementation of the
 * scheme written from webhooks.yaml's `x-signature` text, and the headers of one attempt.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { SIGNED_HEADERS, signWebhook, webhookHeaders } from '../../src/webhooks/signature';
import { verifyWebhook } from '../../packages/client/src';

/** The scheme's test vector (the product's brief, "Webhook signature (`x-signature`)"): the project must reproduce it exactly. */
const VECTOR = {
  secret: '3f1b6c2e-8d4a-4e7b-9c1d-2a5e6f7b8c9d',
  t: 1773933769,
  h: 'content-type x-event-id x-event-type',
  headers: {
    'content-type': 'application/json',
    'x-event-id': '5ded1748-8c2f-4ef4-8276-32af793f62b0',
    'x-event-type': 'email.intelligence.completed',
  },
  body: '{"request_id":"ffd7df51-0000-0000-0000-000000000000","status":"error"}',
  v1: '4b08cbaae08f137787bf8101ff39ac839475afc2aee33d893051ff90bb0c1e42',
};

/**
 * webhooks.yaml's `x-signature` text, implemented again without looking at src/: "`h` lists the
 * signed header names in lower case, sorted and separated by spaces, and v1 = hex(HMAC-SHA256(secret,
 * "{t}.{h}.{the values of the headers in h, joined by '.'}.{raw body}")) keyed with the project's
 * webhook secret as a UTF-8 string".
 */
function referenceSignature(secret: string, t: number, headers: Record<string, string>, body: Buffer): string {
  const names = Object.keys(headers)
    .map((n) => n.toLowerCase())
    .sort();
  const values = names.map((n) => headers[n]);
  const signed = Buffer.concat([Buffer.from(`${t}.${names.join(' ')}.${values.join('.')}.`, 'utf8'), body]);
  const v1 = createHmac('sha256', Buffer.from(secret, 'utf8')).update(signed).digest('hex');
  return `t=${t},h=${names.join(' ')},v1=${v1}`;
}

describe('signWebhook', () => {
  it("when the scheme's test vector is signed, then the x-signature is exactly the vector's", () => {
    const signature = signWebhook({
      secret: VECTOR.secret,
      timestamp: VECTOR.t,
      headers: VECTOR.headers,
      rawBody: VECTOR.body,
    });
    expect(signature).toBe(`t=${VECTOR.t},h=${VECTOR.h},v1=${VECTOR.v1}`);
    expect(
      signWebhook({
        secret: VECTOR.secret,
        timestamp: VECTOR.t,
        headers: VECTOR.headers,
        rawBody: Buffer.from(VECTOR.body),
      }),
    ).toBe(signature);
    expect(referenceSignature(VECTOR.secret, VECTOR.t, VECTOR.headers, Buffer.from(VECTOR.body))).toBe(signature);
  });

  it('when the signed headers are listed, then they are lower-case and already sorted', () => {
    expect(SIGNED_HEADERS).toEqual(['content-type', 'x-event-id', 'x-event-type']);
    expect([...SIGNED_HEADERS].sort()).toEqual([...SIGNED_HEADERS]);
  });

  it('when random secrets, times, header values and bodies are signed, then the independent implementation agrees', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: 'grapheme' }),
        fc.oneof(fc.string({ unit: 'grapheme' }), fc.uint8Array()),
        (secret, t, contentType, eventId, eventType, body) => {
          const headers = { 'x-event-type': eventType, 'content-type': contentType, 'x-event-id': eventId };
          const rawBody = typeof body === 'string' ? body : Buffer.from(body);
          const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
          expect(signWebhook({ secret, timestamp: t, headers, rawBody })).toBe(
            referenceSignature(secret, t, headers, bytes),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('when a signed header is missing, or the timestamp is not unix seconds, or the secret is empty, then it throws a TypeError', () => {
    const { 'x-event-type': _omitted, ...partial } = VECTOR.headers;
    const base = { secret: VECTOR.secret, timestamp: VECTOR.t, headers: VECTOR.headers, rawBody: VECTOR.body };
    expect(() => signWebhook({ ...base, headers: partial })).toThrow(
      new TypeError('signWebhook: header x-event-type is required'),
    );
    expect(() => signWebhook({ ...base, timestamp: 1773933769.5 })).toThrow(TypeError);
    expect(() => signWebhook({ ...base, timestamp: -1 })).toThrow(TypeError);
    expect(() => signWebhook({ ...base, secret: '' })).toThrow(TypeError);
  });
});

describe('webhookHeaders', () => {
  const body = JSON.stringify({ request_id: 'req-1', event_type: 'verification.id-check.completed', status: 'error' });
  const input = {
    secret: 'whsec_test',
    requestId: 'req-1',
    eventType: 'verification.id-check.completed' as const,
    rawBody: body,
  };

  it('when the headers of an attempt are made, then they are the four headers, signed at the whole second of that attempt', () => {
    const now = new Date('2026-11-20T14:09:52.918Z');
    const headers = webhookHeaders({ ...input, now });
    const t = Math.floor(now.getTime() / 1000);
    expect(Object.keys(headers).sort()).toEqual(['content-type', 'x-event-id', 'x-event-type', 'x-signature']);
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'x-event-id': 'req-1',
      'x-event-type': 'verification.id-check.completed',
    });
    expect(headers['x-signature']).toMatch(/^t=[0-9]+,h=[a-z0-9 -]+,v1=[0-9a-f]{64}$/); // webhooks.yaml's pattern
    const { 'x-signature': signature, ...signed } = headers;
    expect(signature).toBe(referenceSignature('whsec_test', t, signed, Buffer.from(body)));
    expect(verifyWebhook(body, headers, 'whsec_test', { now, toleranceSeconds: 0 })).toMatchObject({
      request_id: 'req-1',
    });
  });

  it('when a webhook is retried later, then the retry is signed afresh with its own time and the same event id', () => {
    const first = webhookHeaders({ ...input, now: new Date('2026-11-20T14:00:00Z') });
    const retryAt = new Date('2026-11-20T17:00:03Z'); // after the 3 s, 10 s, 3 min, 30 min, 1 h backoff steps and more
    const retry = webhookHeaders({ ...input, now: retryAt });
    expect(retry['x-event-id']).toBe(first['x-event-id']);
    expect(retry['x-signature']).not.toBe(first['x-signature']);
    expect(retry['x-signature']).toMatch(new RegExp(`^t=${retryAt.getTime() / 1000},`));
    expect(() => verifyWebhook(body, first, 'whsec_test', { now: retryAt })).toThrow(
      expect.objectContaining({ reason: 'stale_timestamp' }),
    );
    expect(verifyWebhook(body, retry, 'whsec_test', { now: retryAt })).toMatchObject({ request_id: 'req-1' });
  });

  it('when the secret is signed with, then it appears in no header', () => {
    const headers = webhookHeaders({ ...input, secret: 'whsec_do-not-leak', now: new Date() });
    expect(JSON.stringify(headers)).not.toContain('whsec_do-not-leak');
  });

  it('when now is not a valid Date, then it throws a TypeError', () => {
    expect(() => webhookHeaders({ ...input, now: new Date('nonsense') })).toThrow(TypeError);
  });
});
