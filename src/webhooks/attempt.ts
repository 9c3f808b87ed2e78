/**
 * One delivery attempt of a claimed webhook: its target and body, signed afresh (webhooks.yaml's
 * `x-signature`), posted, and what follows: delivered on a 2xx, otherwise rescheduled on the
 * retry policy, or failed when the policy runs out or the transport refuses the target.
 */
import type { EventType } from '../api-types';
import type { Clock } from '../clock';
import { nextAttemptAt, parseRetryAfter, type RetryPolicy } from './backoff';
import { ANSWER_KEPT_BYTES, type Outcome, type Settlement, type WebhookRecord } from './outbox';
import { webhookHeaders } from './signature';
import { describePostError, RefusedTargetError, type PostWebhook } from './transport';

export interface WebhookTarget {
  url: string | null;
  secret: string;
  /** The secret being rotated out, while its grace period lasts (deliveries are signed with both). */
  previousSecret?: string;
}

/** What an attempt runs with: the dispatcher's settings, defaults filled in (makeDispatcher). */
export interface AttemptContext {
  worker: string;
  policy: RetryPolicy;
  timeoutMs: number;
  clock: Clock;
  random: () => number;
  post: PostWebhook;
  render?: (row: WebhookRecord) => Promise<string>;
}

/**
 * The receiver's answer as an attempt keeps it: its first ANSWER_KEPT_BYTES (the transport
 * reads no more), without NUL characters (PostgreSQL text refuses them) and without a broken
 * last character; undefined when empty.
 */
export function answerOf(body: string | undefined): string | undefined {
  const kept = body
    ?.replace(/\u0000/g, '')
    .replace(/\uFFFD$/, '')
    .slice(0, ANSWER_KEPT_BYTES);
  return kept ? kept : undefined;
}

/** A failed attempt's outcome: the next attempt's time on the policy, or failed when it has run out. */
function retry(ctx: AttemptContext, row: WebhookRecord, now: Date, error: string, retryAfterMs?: number): Outcome {
  const runAt = nextAttemptAt(ctx.policy, {
    failedAttempts: row.attempts,
    firstAttemptAt: row.firstAttemptAt ?? now,
    now,
    retryAfterMs,
    random: ctx.random,
  });
  return runAt ? { status: 'pending', runAt, error } : { status: 'failed', error: `${error}; no retries left` };
}

/** Posts one claimed webhook; the attempt and its outcome, for the batch's settlement. */
export async function deliver(
  ctx: AttemptContext,
  row: WebhookRecord,
  targetOf: (projectId: string) => Promise<WebhookTarget>,
): Promise<Settlement> {
  const now = ctx.clock.now();
  const started = process.hrtime.bigint();
  /** The attempt as made (its error as it happened) and what follows from it. */
  const settle = (outcome: Outcome, attempt: { statusCode?: number; error?: string; answer?: string }): Settlement => ({
    requestId: row.requestId,
    attempt: {
      attempt: row.attempts,
      at: now,
      worker: ctx.worker,
      ...attempt,
      latencyMs: Number(process.hrtime.bigint() - started) / 1e6,
    },
    outcome,
  });
  const failed = (error: string, statusCode?: number, retryAfterMs?: number, answer?: string) =>
    settle(retry(ctx, row, now, error, retryAfterMs), {
      statusCode,
      error,
      ...(answer !== undefined ? { answer } : {}),
    });

  let target: WebhookTarget;
  try {
    target = await targetOf(row.projectId);
    if (!target.url) return failed('the project has no webhook URL');
  } catch (err) {
    return failed(`target: ${(err as Error).message}`);
  }

  let body: string;
  try {
    body = ctx.render ? await ctx.render(row) : row.body;
  } catch (err) {
    return failed(`render: ${(err as Error).message}`);
  }
  const headers = webhookHeaders({
    secret: target.secret,
    previousSecret: target.previousSecret,
    requestId: row.requestId,
    eventType: row.eventType as EventType,
    rawBody: body,
    now,
  });
  try {
    const response = await ctx.post(target.url, {
      headers,
      body,
      signal: AbortSignal.timeout(ctx.timeoutMs),
      keepBody: ANSWER_KEPT_BYTES,
    });
    const answer = answerOf(response.body);
    if (response.status >= 200 && response.status < 300)
      return settle({ status: 'delivered' }, { statusCode: response.status, ...(answer ? { answer } : {}) });
    const retryAfter = response.status === 429 ? parseRetryAfter(response.retryAfter, now) : undefined;
    return failed(`HTTP ${response.status}`, response.status, retryAfter, answer);
  } catch (err) {
    // Refused by the policy: failed now, no request made, no retry (the address will not become allowed).
    if (err instanceof RefusedTargetError)
      return settle({ status: 'failed', error: err.message }, { error: err.message });
    return failed(describePostError(err, ctx.timeoutMs));
  }
}
