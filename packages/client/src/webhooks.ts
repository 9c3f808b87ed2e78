/**
 * Checking Trustgate webhooks in a customer's backend: one call, on the RAW body.
 *
 *   app.post('/trustgate', express.raw({ type: 'application/json' }), (req, res) => {
 *     const event = verifyWebhook(req.body, req.headers, process.env.TRUSTGATE_WEBHOOK_SECRET!);
 *     ...
 *   });
 *
 * The `x-signature` scheme (webhooks.yaml): `t=<unix seconds>,h=<signed header
 * names>,v1=<hex>`, `v1 = hex(HMAC-SHA256(secret, "{t}.{h}.{header values joined by '.'}.{raw body}"))`.
 * `secret` may be a list, and a webhook signed with any of its secrets passes: one endpoint that
 * receives several projects' webhooks (a live project and its test project, each with a secret of
 * its own) passes them all; while a rotated-out secret's grace period lasts, the header carries
 * one `v1` per secret, so `[newSecret, oldSecret]` passes either while switching.
 *
 * Self-contained on purpose: it runs in customers' processes, so it imports nothing of the server,
 * only `node:crypto` and (erased at compile time) the generated types.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEnvelope } from './types.js';

/** Why a webhook was refused, for code to branch on; the error's message says it for people. */
export type WebhookVerificationReason =
  'missing_header' | 'malformed_header' | 'stale_timestamp' | 'bad_signature' | 'malformed_body';

/** The one error `verifyWebhook` throws for a webhook it refuses. Answer it with a 4xx. */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

export interface VerifyWebhookOptions {
  /**
   * How far, in seconds, the signature's `t` may be from `now`, in either direction (default 300).
   * 0 means "the same second as now", never "no check"; a negative or non-finite value is a TypeError.
   */
  toleranceSeconds?: number;
  /** When the webhook was received (default: the current time). Tests pass a fixed time. */
  now?: Date;
}

/** Request headers as Node and Express give them (`req.headers`); names in any case. */
export type WebhookRequestHeaders = Record<string, string | string[] | undefined>;

export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

const SIGNATURE_HEADER = 'x-signature';
const T_PATTERN = /^[0-9]{1,15}$/;
const H_PATTERN = /^[a-z0-9-]+( [a-z0-9-]+)*$/;
const V1_PATTERN = /^[0-9a-fA-F]+$/;

/**
 * Checks a webhook's `x-signature` against the raw body and returns the parsed envelope, typed as
 * the generated union (narrow it on `event_type` and `status`). `secret` is one webhook secret or
 * a list of them, and a signature by any of them passes: every project that posts to the endpoint
 * (a live project and its test project each sign with their own), and while a secret is rotated,
 * the new one and the old. Throws `WebhookVerificationError`
 * (with a `reason`) for a webhook to refuse, and `TypeError` for a wrong call (a parsed body, an
 * empty secret, a negative tolerance).
 *
 * The order: parse `x-signature` (t, h, v1 required) → the headers named in `h` present →
 * the HMAC over the raw bytes, compared in constant time → the age of `t` → only then JSON.parse.
 * A `stale_timestamp` therefore always concerns an authentic webhook (a replay or a skewed clock).
 * An unknown `event_type` passes (new event types may be added): keep a `default` branch.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookRequestHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookEnvelope {
  const body = rawBytes(rawBody);
  if (typeof headers !== 'object' || headers === null)
    throw new TypeError('verifyWebhook: headers must be the request headers object');
  const secrets: readonly unknown[] = Array.isArray(secret) ? secret : [secret];
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s.length === 0))
    throw new TypeError('verifyWebhook: secret must be a non-empty string, or a non-empty list of them');
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError(`verifyWebhook: toleranceSeconds must be a finite number >= 0, got ${String(tolerance)}`);
  }
  const now = options.now ?? new Date();
  const nowMs = now instanceof Date ? now.getTime() : Number.NaN;
  if (!Number.isFinite(nowMs)) throw new TypeError('verifyWebhook: now must be a valid Date');

  const byName = lowerCaseHeaders(headers);
  const signature = byName.get(SIGNATURE_HEADER);
  if (signature === undefined || signature.trim() === '') {
    throw new WebhookVerificationError('missing_header', 'the x-signature header is missing');
  }
  const { t, h, v1s } = parseSignature(signature);
  const names = h.split(' ');
  const values = names.map((name) => {
    const value = byName.get(name);
    if (value === undefined) {
      throw new WebhookVerificationError(
        'missing_header',
        `the ${name} header, signed according to x-signature h, is missing`,
      );
    }
    return value;
  });
  const givens = v1s.map((v1) => Buffer.from(v1.toLowerCase(), 'utf8'));
  let matched = false;
  // Every secret against every v1, each compared in constant time (no early exit on a match).
  for (const key of secrets as readonly string[]) {
    const expected = Buffer.from(
      createHmac('sha256', key)
        .update(`${t}.${h}.${values.join('.')}.`, 'utf8')
        .update(body)
        .digest('hex'),
      'utf8',
    );
    for (const given of givens) {
      // timingSafeEqual throws a RangeError on unequal lengths; a length is no secret, so check it first.
      if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
    }
  }
  if (!matched) {
    throw new WebhookVerificationError(
      'bad_signature',
      'no x-signature v1 matches the body and signed headers (wrong secret, or the body was altered or re-serialised)',
    );
  }
  const age = Math.floor(nowMs / 1000) - Number(t);
  if (Math.abs(age) > tolerance) {
    throw new WebhookVerificationError(
      'stale_timestamp',
      `x-signature t=${t} is ${Math.abs(age)} s ${age > 0 ? 'in the past' : 'in the future'}, beyond the tolerance of ${tolerance} s`,
    );
  }

  return parseEnvelope(body);
}

function rawBytes(rawBody: unknown): Uint8Array {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (rawBody instanceof Uint8Array) return rawBody;
  throw new TypeError(
    'verifyWebhook: rawBody must be the raw request body as a string or a Buffer, not a parsed object ' +
      "(mount express.raw({ type: 'application/json' }) on the webhook route instead of express.json())",
  );
}

/** Header values by lower-case name; a repeated header (`string[]`) counts by its first value. */
function lowerCaseHeaders(headers: WebhookRequestHeaders): Map<string, string> {
  const byName = new Map<string, string>();
  for (const [name, raw] of Object.entries(headers)) {
    const value = Array.isArray(raw) ? raw[0] : raw;
    const key = name.toLowerCase();
    if (typeof value === 'string' && !byName.has(key)) byName.set(key, value);
  }
  return byName;
}

/** The most `v1` one header may carry: one per secret of a rotation (two), with room to spare. */
const MAX_V1 = 4;

function parseSignature(signature: string): { t: string; h: string; v1s: string[] } {
  const fields = new Map<string, string>();
  const v1s: string[] = [];
  for (const part of signature.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0)
      throw new WebhookVerificationError('malformed_header', 'x-signature is not a list of key=value separated by ","');
    const key = part.slice(0, eq).trim();
    // One v1 per signing secret: two while a rotated-out secret's grace period lasts.
    if (key === 'v1') {
      v1s.push(part.slice(eq + 1).trim());
      if (v1s.length > MAX_V1)
        throw new WebhookVerificationError('malformed_header', `x-signature has more than ${MAX_V1} v1`);
      continue;
    }
    if (fields.has(key))
      throw new WebhookVerificationError('malformed_header', `x-signature has ${key} more than once`);
    fields.set(key, part.slice(eq + 1).trim());
  }
  // Unknown keys are ignored, so that a later scheme (v2=…) can be sent beside v1.
  const t = fields.get('t');
  const h = fields.get('h');
  const v1 = v1s.length > 0 && v1s.every((v) => v !== '') ? v1s[0] : undefined;
  for (const [key, value] of [
    ['t', t],
    ['h', h],
    ['v1', v1],
  ] as const) {
    if (!value) throw new WebhookVerificationError('malformed_header', `x-signature has no ${key}=`);
  }
  if (!T_PATTERN.test(t!)) throw new WebhookVerificationError('malformed_header', 'x-signature t is not unix seconds');
  if (!H_PATTERN.test(h!)) {
    throw new WebhookVerificationError(
      'malformed_header',
      'x-signature h is not lower-case header names separated by single spaces',
    );
  }
  if (!v1s.every((v) => V1_PATTERN.test(v)))
    throw new WebhookVerificationError('malformed_header', 'x-signature v1 is not hexadecimal');
  return { t: t!, h: h!, v1s };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** The members every event has; the verification events and the test event also carry a `status`. */
const EVENT_MEMBERS = ['request_id', 'event_type'] as const;
const ENVELOPE_MEMBERS = [...EVENT_MEMBERS, 'status'] as const;
const STATUS_EVENTS: ReadonlySet<unknown> = new Set([
  'verification.face-match.completed',
  'verification.id-check.completed',
  'webhook.test',
]);

function parseEnvelope(body: Uint8Array): WebhookEnvelope {
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8.decode(body));
  } catch (err) {
    const detail = err instanceof SyntaxError ? err.message : 'it is not valid UTF-8';
    throw new WebhookVerificationError('malformed_body', `the body is not JSON: ${detail}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new WebhookVerificationError('malformed_body', 'the body is not a JSON object');
  }
  const envelope = parsed as Record<string, unknown>;
  const members = STATUS_EVENTS.has(envelope.event_type) ? ENVELOPE_MEMBERS : EVENT_MEMBERS;
  for (const member of members) {
    const value = envelope[member];
    if (typeof value !== 'string' || value === '') {
      throw new WebhookVerificationError('malformed_body', `the body has no ${member} string`);
    }
  }
  return parsed as WebhookEnvelope;
}
