/**
 * The webhook dispatcher: claims due webhooks, posts each one signed afresh (webhooks.yaml's `x-signature`) and
 * settles them: delivered on a 2xx, otherwise rescheduled on the retry policy, or failed when
 * the policy runs out or the transport refuses the target (transport.ts: a private address the
 * operator did not allow, a metadata service). A claimed batch is posted concurrently and
 * settled, attempts included, in one transaction.
 * `runOnce()` drains what is due now (tests call it); `drain()` is the worker's pass, which
 * also says when the soonest pending webhook is due: the worker (worker.ts) sleeps until then,
 * until it is woken (a webhook was queued: wake.ts), or for its poll at most.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import { nextAttemptAt, parseRetryAfter, REFERENCE_RETRY_POLICY, type RetryPolicy } from './backoff';
import { ANSWER_KEPT_BYTES, type Outbox, type Outcome, type Settlement, type WebhookRecord } from './outbox';
import { webhookHeaders } from './signature';
import { describePostError, RefusedTargetError, type PostWebhook } from './transport';
import type { EventType } from '../api-types';
import type { WebhookMetrics } from '../telemetry/metrics';

export interface WebhookTarget {
  url: string | null;
  secret: string;
  /** The secret being rotated out, while its grace period lasts (deliveries are signed with both). */
  previousSecret?: string;
}

export interface DispatcherDeps {
  outbox: Outbox;
  clock: Clock;
  random: () => number;
  logger: Logger;
  /** Posts to the receiver, connected only to addresses its policy allows (transport.ts). */
  post: PostWebhook;
  /** The project's webhook URL and secret (decrypted), at delivery time. */
  target: (projectId: string) => Promise<WebhookTarget>;
  /** The body as sent at this attempt (the service signs media URLs from the moment of sending); the stored body when absent. */
  render?: (row: WebhookRecord) => Promise<string>;
  policy?: RetryPolicy;
  /** How long a claim holds before another dispatcher may take the row over. */
  leaseMs?: number;
  /** The whole request's time limit. */
  timeoutMs?: number;
  workerId?: string;
  /** How many webhooks one claim takes, posted concurrently. */
  batch?: number;
  /** Each attempt's outcome, number and time (GET /metrics). */
  metrics?: WebhookMetrics;
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

export function makeDispatcher(deps: DispatcherDeps) {
  const policy = deps.policy ?? REFERENCE_RETRY_POLICY;
  const leaseMs = deps.leaseMs ?? 60_000;
  const timeoutMs = deps.timeoutMs ?? 15_000;
  const worker = deps.workerId ?? `dispatcher-${randomUUID()}`;
  const batch = deps.batch ?? 64;
  const { outbox, clock, logger } = deps;

  function retry(row: WebhookRecord, now: Date, error: string, retryAfterMs?: number): Outcome {
    const runAt = nextAttemptAt(policy, {
      failedAttempts: row.attempts,
      firstAttemptAt: row.firstAttemptAt ?? now,
      now,
      retryAfterMs,
      random: deps.random,
    });
    return runAt ? { status: 'pending', runAt, error } : { status: 'failed', error: `${error}; no retries left` };
  }

  /** Posts one claimed webhook; the attempt and its outcome, for the batch's settlement. */
  async function deliver(
    row: WebhookRecord,
    targetOf: (projectId: string) => Promise<WebhookTarget>,
  ): Promise<Settlement> {
    const now = clock.now();
    const started = process.hrtime.bigint();
    /** The attempt as made (its error as it happened) and what follows from it. */
    const settle = (
      outcome: Outcome,
      attempt: { statusCode?: number; error?: string; answer?: string },
    ): Settlement => ({
      requestId: row.requestId,
      attempt: {
        attempt: row.attempts,
        at: now,
        worker,
        ...attempt,
        latencyMs: Number(process.hrtime.bigint() - started) / 1e6,
      },
      outcome,
    });
    const failed = (error: string, statusCode?: number, retryAfterMs?: number, answer?: string) =>
      settle(retry(row, now, error, retryAfterMs), { statusCode, error, ...(answer !== undefined ? { answer } : {}) });

    let target: WebhookTarget;
    try {
      target = await targetOf(row.projectId);
      if (!target.url) return failed('the project has no webhook URL');
    } catch (err) {
      return failed(`target: ${(err as Error).message}`);
    }

    let body: string;
    try {
      body = deps.render ? await deps.render(row) : row.body;
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
      const response = await deps.post(target.url, {
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
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
      return failed(describePostError(err, timeoutMs));
    }
  }

  async function runOnce(): Promise<number> {
    let sent = 0;
    for (;;) {
      const rows = await outbox.claim(worker, clock.now(), leaseMs, batch);
      if (rows.length === 0) return sent;
      // One look-up per project and batch (the project row and its decrypted secret).
      const targets = new Map<string, Promise<WebhookTarget>>();
      const targetOf = (projectId: string) => {
        if (!targets.has(projectId)) targets.set(projectId, deps.target(projectId));
        return targets.get(projectId)!;
      };
      const settlements = await Promise.all(rows.map((row) => deliver(row, targetOf)));
      const settled = await outbox.settle(worker, clock.now(), settlements);
      rows.forEach((row, i) => {
        const { outcome, attempt } = settlements[i]!; // settlements is rows.map(…): one per row
        const { status, error } = outcome;
        if (attempt)
          deps.metrics?.attempted(status === 'pending' ? 'retry' : status, row.attempts, attempt.latencyMs / 1000);
        logger.info(
          {
            requestId: row.requestId,
            eventType: row.eventType,
            attempt: row.attempts,
            status,
            error,
            settled: settled.has(row.requestId),
          },
          'webhook attempt',
        );
      });
      sent += rows.length;
    }
  }

  return {
    worker,
    runOnce,
    /**
     * The worker's dispatch pass (worker.ts sleeps between passes): drains what is due now;
     * resolves to the milliseconds until the soonest pending webhook (a retry) is due, if any.
     */
    async drain(): Promise<number | undefined> {
      await runOnce();
      const next = await outbox.nextRunAt();
      return next ? next.getTime() - clock.now().getTime() : undefined;
    },
  };
}

export type Dispatcher = ReturnType<typeof makeDispatcher>;
