/**
 * The `x-signature` of outgoing webhooks: the scheme webhooks.yaml describes for that header (Hook0's "v1").
 *
 *   x-signature: t=<unix seconds>,h=<signed header names, sorted, space-separated>,v1=<hex>
 *   v1 = hex(HMAC-SHA256(secret, "{t}.{h}.{values of the headers in h, joined by '.'}.{raw body}"))
 *
 * During a webhook secret's grace period (rotateWebhookSecret) the header carries one `v1` per
 * secret, the current one's first: `t=…,h=…,v1=<current>,v1=<previous>`.
 *
 * Pure: the time comes in as an argument, nothing is logged. Every delivery attempt calls
 * `webhookHeaders` with its own time, so a retried webhook is signed afresh and never fails the
 * receiver's tolerance. The receiving side is `verifyWebhook` in packages/client/src/webhooks.ts.
 */
import { createHmac } from 'node:crypto';
import type { EventType } from '../api-types';

/** The headers covered by the signature, lower-case and sorted: the `h` of every `x-signature`. */
export const SIGNED_HEADERS = ['content-type', 'x-event-id', 'x-event-type'] as const;

export interface SignWebhookInput {
  /** The subscription's webhook secret; the HMAC key is its UTF-8 string. */
  secret: string;
  /** Unix seconds of this delivery attempt. */
  timestamp: number;
  /** The values of the signed headers, by lower-case name. */
  headers: Record<string, string>;
  /** The exact bytes that will be sent as the body. */
  rawBody: string | Buffer;
}

/** The full `x-signature` value, `t=…,h=…,v1=…`. */
export function signWebhook({ secret, timestamp, headers, rawBody }: SignWebhookInput): string {
  if (typeof secret !== 'string' || secret.length === 0)
    throw new TypeError('signWebhook: secret must be a non-empty string');
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError(
      `signWebhook: timestamp must be a non-negative integer of unix seconds, got ${String(timestamp)}`,
    );
  }
  if (typeof rawBody !== 'string' && !Buffer.isBuffer(rawBody))
    throw new TypeError('signWebhook: rawBody must be a string or a Buffer');
  const byName = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const names = [...SIGNED_HEADERS].sort();
  const values = names.map((name) => {
    const value = byName.get(name);
    if (typeof value !== 'string') throw new TypeError(`signWebhook: header ${name} is required`);
    return value;
  });
  const h = names.join(' ');
  const v1 = createHmac('sha256', secret)
    .update(`${timestamp}.${h}.${values.join('.')}.`, 'utf8')
    .update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
    .digest('hex');
  return `t=${timestamp},h=${h},v1=${v1}`;
}

export interface WebhookHeadersInput {
  secret: string;
  /** The envelope's `request_id`, sent as `x-event-id` (the same on every attempt). */
  requestId: string;
  /** The envelope's `event_type`, sent as `x-event-type`. */
  eventType: EventType;
  /** The exact bytes that will be sent as the body. */
  rawBody: string | Buffer;
  /** The time of this delivery attempt. */
  now: Date;
  /** The secret being rotated out, while its grace period lasts: signed with as well (a second `v1`). */
  previousSecret?: string;
}

/** A type alias (not an interface) so that it is assignable to `Record<string, string>` and fetch's `HeadersInit`. */
export type WebhookHeaders = {
  'content-type': 'application/json';
  'x-event-id': string;
  'x-event-type': EventType;
  'x-signature': string;
};

/** The four headers of one delivery attempt, signed with that attempt's time. */
export function webhookHeaders({
  secret,
  requestId,
  eventType,
  rawBody,
  now,
  previousSecret,
}: WebhookHeadersInput): WebhookHeaders {
  const ms = now instanceof Date ? now.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw new TypeError('webhookHeaders: now must be a valid Date');
  const headers = {
    'content-type': 'application/json',
    'x-event-id': requestId,
    'x-event-type': eventType,
  } as const;
  const timestamp = Math.floor(ms / 1000);
  let signature = signWebhook({ secret, timestamp, headers, rawBody });
  if (previousSecret) {
    const previous = signWebhook({ secret: previousSecret, timestamp, headers, rawBody });
    signature += `,v1=${previous.slice(previous.lastIndexOf('v1=') + 3)}`;
  }
  return { ...headers, 'x-signature': signature };
}
