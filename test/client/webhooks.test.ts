/**
 * verifyWebhook, the customer's side of the webhook signature: every reason it refuses a webhook,
 * the header shapes Node and Express give, and a round trip through a real Express receiver.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import fc from 'fast-check';
import {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEnvelope,
  type WebhookVerificationReason,
} from '../../packages/client/src';
import { signWebhook, webhookHeaders } from '../../src/webhooks/signature';
import { example, validateWebhookBody } from '../helpers/spec';

const SECRET = 'whsec_8d4a4e7b9c1d2a5e';
const T = 1_773_933_769;
const AT_T = new Date(T * 1000);

let envelope: WebhookEnvelope;
let body: string;

beforeAll(async () => {
  envelope = await example<WebhookEnvelope>('FaceMatchCompletedError');
  expect(await validateWebhookBody(envelope)).toEqual([]);
  body = JSON.stringify(envelope);
});

/** The headers Trustgate sends for `raw`, signed at `t` with `secret`. */
function signed(
  raw: string | Buffer,
  { t = T, secret = SECRET } = {},
): Record<'content-type' | 'x-event-id' | 'x-event-type' | 'x-signature', string> {
  const headers = {
    'content-type': 'application/json',
    'x-event-id': envelope.request_id,
    'x-event-type': envelope.event_type,
  };
  return { ...headers, 'x-signature': signWebhook({ secret, timestamp: t, headers, rawBody: raw }) };
}

/** The error verifyWebhook throws (failing the test if it accepts or throws something else). */
function refusal(call: () => unknown): WebhookVerificationError {
  try {
    call();
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err;
    throw err;
  }
  throw new Error('verifyWebhook accepted the webhook');
}

function reasonOf(call: () => unknown): WebhookVerificationReason {
  return refusal(call).reason;
}

describe('verifyWebhook: acceptance', () => {
  it("when the signature scheme's test vector arrives at its t, then its signature is accepted and only its body is refused", () => {
    // The vector's body has no event_type (and its x-event-type is not one of webhooks.yaml's), so the
    // body check after the signature refuses it: malformed_body, not bad_signature or stale_timestamp.
    const headers = {
      'content-type': 'application/json',
      'x-event-id': '5ded1748-8c2f-4ef4-8276-32af793f62b0',
      'x-event-type': 'email.intelligence.completed',
      'x-signature':
        't=1773933769,h=content-type x-event-id x-event-type,v1=4b08cbaae08f137787bf8101ff39ac839475afc2aee33d893051ff90bb0c1e42',
    };
    const vectorBody = '{"request_id":"ffd7df51-0000-0000-0000-000000000000","status":"error"}';
    const error = refusal(() =>
      verifyWebhook(vectorBody, headers, '3f1b6c2e-8d4a-4e7b-9c1d-2a5e6f7b8c9d', {
        now: new Date(1773933769 * 1000),
        toleranceSeconds: 0,
      }),
    );
    expect(error.reason).toBe('malformed_body');
    expect(error.message).toBe('the body has no event_type string');
    // One changed digit of the vector's v1 is refused at the signature.
    const wrong = { ...headers, 'x-signature': headers['x-signature'].replace(/2$/, '3') };
    expect(
      reasonOf(() =>
        verifyWebhook(vectorBody, wrong, '3f1b6c2e-8d4a-4e7b-9c1d-2a5e6f7b8c9d', { now: new Date(1773933769 * 1000) }),
      ),
    ).toBe('bad_signature');
  });

  it('when a signed envelope arrives as a string or a Buffer, then the parsed envelope is returned, narrowable by event_type and status', () => {
    const fromString = verifyWebhook(body, signed(body), SECRET, { now: AT_T });
    const fromBuffer = verifyWebhook(Buffer.from(body), signed(body), SECRET, { now: AT_T });
    expect(fromString).toEqual(envelope);
    expect(fromBuffer).toEqual(envelope);
    // Type-level: the union narrows (checked by tsc).
    if (fromString.event_type === 'verification.face-match.completed' && fromString.status === 'error') {
      const code: string = fromString.error.code;
      expect(code).toBe('liveness_check_failed');
    } else {
      throw new Error('expected a Face Match error envelope');
    }
  });

  it('when each of the spec examples is signed, then each is accepted and returned unchanged', async () => {
    for (const name of [
      'FaceMatchCompletedSuccess',
      'FaceMatchCompletedError',
      'IdCheckCompletedSuccess',
      'IdCheckCompletedError',
      'ListAccountAdded',
      'ListAccountRemoved',
      'EvaluationRuleMatched',
    ]) {
      const event = await example<WebhookEnvelope>(name);
      const raw = JSON.stringify(event);
      const headers = {
        'content-type': 'application/json',
        'x-event-id': event.request_id,
        'x-event-type': event.event_type,
      };
      const signature = signWebhook({ secret: SECRET, timestamp: T, headers, rawBody: raw });
      expect(verifyWebhook(raw, { ...headers, 'x-signature': signature }, SECRET, { now: AT_T })).toEqual(event);
    }
  });

  it('when header names come in any case, then they are found', () => {
    const recase = (name: string, i: number) =>
      i % 2 ? name.toUpperCase() : name.replace(/^./, (c) => c.toUpperCase());
    const headers = Object.fromEntries(Object.entries(signed(body)).map(([k, v], i) => [recase(k, i), v]));
    expect(Object.keys(headers)).not.toContain('x-signature');
    expect(verifyWebhook(body, headers, SECRET, { now: AT_T })).toEqual(envelope);
  });

  it('when header values are string arrays, then the first value counts', () => {
    const headers = Object.fromEntries(Object.entries(signed(body)).map(([k, v]) => [k, [v, 'a later duplicate']]));
    expect(verifyWebhook(body, headers, SECRET, { now: AT_T })).toEqual(envelope);
  });

  it('when v1 is written in upper-case hex, then it is still accepted', () => {
    const headers = signed(body);
    headers['x-signature'] = headers['x-signature'].replace(
      /v1=([0-9a-f]+)$/,
      (_m, hex: string) => `v1=${hex.toUpperCase()}`,
    );
    expect(verifyWebhook(body, headers, SECRET, { now: AT_T })).toEqual(envelope);
  });

  it('when t is within the tolerance either way, then it is accepted, up to and including the limit', () => {
    for (const offset of [-300, -1, 0, 1, 300]) {
      expect(verifyWebhook(body, signed(body, { t: T + offset }), SECRET, { now: AT_T })).toEqual(envelope);
    }
    expect(verifyWebhook(body, signed(body, { t: T - 30 }), SECRET, { now: AT_T, toleranceSeconds: 30 })).toEqual(
      envelope,
    );
  });

  it('when now is given with milliseconds, then t is compared with its whole second', () => {
    expect(verifyWebhook(body, signed(body), SECRET, { now: new Date(T * 1000 + 999), toleranceSeconds: 0 })).toEqual(
      envelope,
    );
  });
});

describe('verifyWebhook: refusals', () => {
  it('when x-signature is missing or empty, then missing_header', () => {
    const { 'x-signature': _omitted, ...rest } = signed(body);
    const error = refusal(() => verifyWebhook(body, rest, SECRET, { now: AT_T }));
    expect(error).toMatchObject({
      name: 'WebhookVerificationError',
      reason: 'missing_header',
      message: 'the x-signature header is missing',
    });
    expect(error).toBeInstanceOf(Error);
    expect(reasonOf(() => verifyWebhook(body, { ...rest, 'x-signature': '' }, SECRET, { now: AT_T }))).toBe(
      'missing_header',
    );
    expect(reasonOf(() => verifyWebhook(body, { ...rest, 'x-signature': undefined }, SECRET, { now: AT_T }))).toBe(
      'missing_header',
    );
    expect(reasonOf(() => verifyWebhook(body, { ...rest, 'x-signature': [] }, SECRET, { now: AT_T }))).toBe(
      'missing_header',
    );
  });

  it.each([
    ['t', /^t=[0-9]+,/, ''],
    ['h', /,h=[a-z -]+,/, ','],
    ['v1', /,v1=[0-9a-f]+$/, ''],
  ])('when x-signature has no %s, then malformed_header naming it', (key, part, replacement) => {
    const headers = signed(body);
    headers['x-signature'] = headers['x-signature'].replace(part, replacement);
    const error = refusal(() => verifyWebhook(body, headers, SECRET, { now: AT_T }));
    expect(error.reason).toBe('malformed_header');
    expect(error.message).toBe(`x-signature has no ${key}=`);
  });

  it.each([
    ['not key=value', 'nonsense'],
    ['an empty t', 't=,h=content-type,v1=00'],
    ['a t that is not unix seconds', 't=-5,h=content-type,v1=00'],
    ['a t in milliseconds beyond 15 digits', 't=1773933769000000,h=content-type,v1=00'],
    ['an h in upper case', 't=1,h=Content-Type,v1=00'],
    ['an h with two spaces', 't=1,h=content-type  x-event-id,v1=00'],
    ['a v1 that is not hex', 't=1,h=content-type,v1=zz'],
    ['t twice', 't=1,t=2,h=content-type,v1=00'],
  ])('when x-signature has %s, then malformed_header', (_what, signature) => {
    expect(
      reasonOf(() => verifyWebhook(body, { ...signed(body), 'x-signature': signature }, SECRET, { now: AT_T })),
    ).toBe('malformed_header');
  });

  it('when x-signature carries an unknown key beside t, h and v1, then it is ignored', () => {
    const headers = signed(body);
    headers['x-signature'] += ',v2=abc';
    expect(verifyWebhook(body, headers, SECRET, { now: AT_T })).toEqual(envelope);
  });

  it.each(['content-type', 'x-event-id', 'x-event-type'])(
    'when the %s header named in h is absent, then missing_header naming it',
    (name) => {
      const headers: Record<string, string | undefined> = signed(body);
      delete headers[name];
      const error = refusal(() => verifyWebhook(body, headers, SECRET, { now: AT_T }));
      expect(error.reason).toBe('missing_header');
      expect(error.message).toBe(`the ${name} header, signed according to x-signature h, is missing`);
    },
  );

  it('when t is past the tolerance in the past or the future, then stale_timestamp saying which way', () => {
    const past = refusal(() => verifyWebhook(body, signed(body, { t: T - 301 }), SECRET, { now: AT_T }));
    expect(past).toMatchObject({
      reason: 'stale_timestamp',
      message: `x-signature t=${T - 301} is 301 s in the past, beyond the tolerance of 300 s`,
    });
    const future = refusal(() => verifyWebhook(body, signed(body, { t: T + 301 }), SECRET, { now: AT_T }));
    expect(future).toMatchObject({
      reason: 'stale_timestamp',
      message: `x-signature t=${T + 301} is 301 s in the future, beyond the tolerance of 300 s`,
    });
    expect(
      reasonOf(() => verifyWebhook(body, signed(body, { t: T - 31 }), SECRET, { now: AT_T, toleranceSeconds: 30 })),
    ).toBe('stale_timestamp');
  });

  it('when the tolerance is 0, then only the same second is accepted, never "no check"', () => {
    expect(verifyWebhook(body, signed(body), SECRET, { now: AT_T, toleranceSeconds: 0 })).toEqual(envelope);
    expect(
      reasonOf(() => verifyWebhook(body, signed(body, { t: T - 1 }), SECRET, { now: AT_T, toleranceSeconds: 0 })),
    ).toBe('stale_timestamp');
    expect(
      reasonOf(() => verifyWebhook(body, signed(body, { t: T + 1 }), SECRET, { now: AT_T, toleranceSeconds: 0 })),
    ).toBe('stale_timestamp');
    expect(
      reasonOf(() => verifyWebhook(body, signed(body, { t: 0 }), SECRET, { now: AT_T, toleranceSeconds: 0 })),
    ).toBe('stale_timestamp');
  });

  it('when the tolerance is negative, not finite or not a number, or now is invalid, then a TypeError', () => {
    for (const toleranceSeconds of [-1, Number.NaN, Number.POSITIVE_INFINITY, '300' as unknown as number]) {
      expect(() => verifyWebhook(body, signed(body), SECRET, { now: AT_T, toleranceSeconds })).toThrow(TypeError);
    }
    expect(() => verifyWebhook(body, signed(body), SECRET, { now: new Date('nonsense') })).toThrow(TypeError);
  });

  it('when the body is changed by one byte anywhere, then bad_signature', () => {
    const original = Buffer.from(body);
    fc.assert(
      fc.property(fc.nat({ max: original.length - 1 }), fc.integer({ min: 1, max: 255 }), (index, flip) => {
        const tampered = Buffer.from(original);
        tampered[index] = tampered[index]! ^ flip; // index < length
        expect(reasonOf(() => verifyWebhook(tampered, signed(original), SECRET, { now: AT_T }))).toBe('bad_signature');
      }),
      { numRuns: 200 },
    );
    // The same JSON re-serialised (here with a space) is not the signed bytes either.
    const reserialised = JSON.stringify(JSON.parse(body), null, 1);
    expect(reasonOf(() => verifyWebhook(reserialised, signed(body), SECRET, { now: AT_T }))).toBe('bad_signature');
  });

  it('when a signed header value is changed, then bad_signature', () => {
    const headers = { ...signed(body), 'x-event-type': 'verification.id-check.completed' };
    expect(reasonOf(() => verifyWebhook(body, headers, SECRET, { now: AT_T }))).toBe('bad_signature');
  });

  it('when the secret is wrong, then bad_signature, and the message reveals no signature', () => {
    const error = refusal(() =>
      verifyWebhook(body, signed(body, { secret: 'whsec_someone-else' }), SECRET, { now: AT_T }),
    );
    expect(error.reason).toBe('bad_signature');
    expect(error.message).not.toMatch(/[0-9a-f]{16}/);
    expect(error.message).not.toContain(SECRET);
  });

  it('when v1 is shorter or longer than a SHA-256 hex digest, then bad_signature and no RangeError', () => {
    const headers = signed(body);
    for (const signature of [
      headers['x-signature'].slice(0, -1),
      headers['x-signature'].slice(0, -2),
      headers['x-signature'] + '00',
      headers['x-signature'].replace(/v1=.*$/, 'v1=00'),
    ]) {
      expect(reasonOf(() => verifyWebhook(body, { ...headers, 'x-signature': signature }, SECRET, { now: AT_T }))).toBe(
        'bad_signature',
      );
    }
  });

  it('when a webhook is both forged and old, then the signature is what is refused', () => {
    expect(
      reasonOf(() => verifyWebhook(body, signed(body, { t: T - 3600, secret: 'whsec_other' }), SECRET, { now: AT_T })),
    ).toBe('bad_signature');
  });

  it.each([
    ['not JSON', 'not json', 'the body is not JSON: '],
    [
      'truncated JSON',
      '{"request_id":"r","event_type":"verification.face-match.completed","status":"error"',
      'the body is not JSON: ',
    ],
    ['not valid UTF-8', Buffer.from([0x7b, 0xff, 0x7d]), 'the body is not JSON: it is not valid UTF-8'],
    ['a JSON array', '[]', 'the body is not a JSON object'],
    ['JSON null', 'null', 'the body is not a JSON object'],
    [
      'an object without request_id',
      '{"event_type":"verification.face-match.completed","status":"error"}',
      'the body has no request_id string',
    ],
    [
      'an object without status',
      '{"request_id":"r","event_type":"verification.face-match.completed"}',
      'the body has no status string',
    ],
    [
      'an object with a numeric event_type',
      '{"request_id":"r","event_type":1,"status":"error"}',
      'the body has no event_type string',
    ],
  ])('when the correctly signed body is %s, then malformed_body', (_what, raw, message) => {
    const error = refusal(() => verifyWebhook(raw, signed(raw), SECRET, { now: AT_T }));
    expect(error.reason).toBe('malformed_body');
    expect(error.message.startsWith(message)).toBe(true);
  });

  it('when a correctly signed event has no status because its type has none (a list event, an event type added later), then it is returned', () => {
    for (const raw of [
      '{"request_id":"r","event_type":"list.account_added","project_id":"p","occurred_at":"2026-11-20T14:30:00.000Z","data":{}}',
      '{"request_id":"r","event_type":"evaluation.rule_matched"}',
    ]) {
      expect(verifyWebhook(raw, signed(raw), SECRET, { now: AT_T })).toEqual(JSON.parse(raw));
    }
  });

  it('when the body was already parsed by express.json(), or the secret is empty, then a TypeError that says what to do', () => {
    expect(() => verifyWebhook(envelope as unknown as string, signed(body), SECRET, { now: AT_T })).toThrow(
      /express\.raw/,
    );
    expect(() => verifyWebhook(body, signed(body), '', { now: AT_T })).toThrow(TypeError);
  });
});

describe('verifyWebhook behind a real Express receiver', () => {
  let server: Server;
  let url: string;
  const received: WebhookEnvelope[] = [];
  const seen = new Set<string>();

  beforeAll(async () => {
    const app = express();
    app.post('/trustgate', express.raw({ type: 'application/json' }), (req, res) => {
      let event: WebhookEnvelope;
      try {
        event = verifyWebhook(req.body as Buffer, req.headers, SECRET);
      } catch (err) {
        if (err instanceof WebhookVerificationError)
          return void res.status(400).json({ reason: err.reason, message: err.message });
        throw err;
      }
      const duplicate = seen.has(event.request_id);
      seen.add(event.request_id);
      if (!duplicate) received.push(event);
      res.status(200).json({ duplicate });
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/trustgate`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  async function deliver(event: WebhookEnvelope, now = new Date(), tamper?: (raw: string) => string) {
    const raw = JSON.stringify(event);
    const headers = webhookHeaders({
      secret: SECRET,
      requestId: event.request_id,
      eventType: event.event_type,
      rawBody: raw,
      now,
    });
    const response = await fetch(url, { method: 'POST', headers, body: tamper ? tamper(raw) : raw });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('when each spec example is POSTed with webhookHeaders, then the receiver verifies it, and a retry is de-duplicated', async () => {
    for (const name of [
      'FaceMatchCompletedSuccess',
      'FaceMatchCompletedError',
      'IdCheckCompletedSuccess',
      'IdCheckCompletedError',
      'ListAccountAdded',
      'ListAccountRemoved',
      'EvaluationRuleMatched',
    ]) {
      const event = await example<WebhookEnvelope>(name);
      expect(await validateWebhookBody(event)).toEqual([]);
      expect(await deliver(event)).toEqual({ status: 200, body: { duplicate: false } });
      expect(received.at(-1)).toEqual(event);
      // A retry: signed afresh with its own time, the same x-event-id.
      expect(await deliver(event, new Date(Date.now() + 2000))).toEqual({ status: 200, body: { duplicate: true } });
    }
    const detail = (e: WebhookEnvelope) =>
      'status' in e ? e.status : 'list_name' in e.data ? e.data.list_name : e.data.matched.join(' ');
    expect(received.map((e) => `${e.event_type} ${detail(e)}`)).toEqual([
      'verification.face-match.completed success',
      'verification.face-match.completed error',
      'verification.id-check.completed success',
      'verification.id-check.completed error',
      'list.account_added block',
      'list.account_removed allow',
      'evaluation.rule_matched disposable-email-on-datacenter',
    ]);
  });

  it('when a delivery is tampered with or signed too long ago, then the receiver answers 400 with the reason', async () => {
    const event = await example<WebhookEnvelope>('IdCheckCompletedError');
    event.request_id = 'tampered-1';
    const tampered = await deliver(event, new Date(), (raw) =>
      raw.replace('max_duration_exceeded', 'liveness_check_failed'),
    );
    expect(tampered).toMatchObject({ status: 400, body: { reason: 'bad_signature' } });
    const stale = await deliver(event, new Date(Date.now() - 10 * 60 * 1000));
    expect(stale).toMatchObject({ status: 400, body: { reason: 'stale_timestamp' } });
    expect(seen.has('tampered-1')).toBe(false);
  });
});

describe('verifyWebhook: a rotated secret (rotateWebhookSecret)', () => {
  const OLD = SECRET;
  const NEW = 'whsec_0f1e2d3c4b5a6978';
  /** A delivery during the grace period: one v1 per secret, the new one's first. */
  function duringGrace() {
    return webhookHeaders({
      secret: NEW,
      previousSecret: OLD,
      requestId: envelope.request_id,
      eventType: envelope.event_type,
      rawBody: body,
      now: AT_T,
    });
  }

  it('when a delivery carries two v1, then the old secret, the new one or a list of both accepts it', () => {
    const headers = duringGrace();
    expect(headers['x-signature'].split('v1=')).toHaveLength(3);
    for (const secret of [OLD, NEW, [NEW, OLD], [OLD, NEW], ['whsec_wrong', NEW]])
      expect(verifyWebhook(body, headers, secret, { now: AT_T })).toEqual(envelope);
  });

  it('when no secret of the list signed it, then bad_signature; after the grace period only the new secret passes', () => {
    expect(reasonOf(() => verifyWebhook(body, duringGrace(), ['whsec_a', 'whsec_b'], { now: AT_T }))).toBe(
      'bad_signature',
    );
    const after = webhookHeaders({
      secret: NEW,
      requestId: envelope.request_id,
      eventType: envelope.event_type,
      rawBody: body,
      now: AT_T,
    });
    expect(reasonOf(() => verifyWebhook(body, after, OLD, { now: AT_T }))).toBe('bad_signature');
    expect(verifyWebhook(body, after, [NEW, OLD], { now: AT_T })).toEqual(envelope);
  });

  it('when the list is empty or holds an empty secret, then a TypeError; more than four v1, malformed_header', () => {
    expect(() => verifyWebhook(body, duringGrace(), [], { now: AT_T })).toThrow(TypeError);
    expect(() => verifyWebhook(body, duringGrace(), [NEW, ''], { now: AT_T })).toThrow(TypeError);
    const headers = duringGrace();
    headers['x-signature'] += ',v1=00,v1=00,v1=00';
    expect(reasonOf(() => verifyWebhook(body, headers, NEW, { now: AT_T }))).toBe('malformed_header');
  });
});
