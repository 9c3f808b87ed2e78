/**
 * The webhook dispatcher: claims due webhooks, posts each one signed afresh (reference.md),
 * records the attempt and settles it: delivered on a 2xx, otherwise rescheduled on the retry
 * policy, or failed when the policy runs out or the target is a private address the operator
 * did not allow. `runOnce()` drains what is due now (tests call it); `start(signal)` polls
 * until the signal aborts (the server and `trustgate worker` run it).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { isPublicIp } from '../domain/enrichment/ip';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import { nextAttemptAt, parseRetryAfter, REFERENCE_RETRY_POLICY, type RetryPolicy } from './backoff';
import type { Outbox, WebhookRecord } from './outbox';
import { webhookHeaders } from './signature';
import type { EventType } from '../api-types';

export interface WebhookTarget {
  url: string | null;
  secret: string;
}

export interface DispatcherDeps {
  outbox: Outbox;
  clock: Clock;
  random: () => number;
  logger: Logger;
  fetch: typeof fetch;
  /** The addresses a host name resolves to (dns.lookup with all: true, at the edge). */
  resolve: (host: string) => Promise<string[]>;
  /** The project's webhook URL and secret (decrypted), at delivery time. */
  target: (projectId: string) => Promise<WebhookTarget>;
  /** The body as sent at this attempt (the service signs media URLs from the moment of sending); the stored body when absent. */
  render?: (row: WebhookRecord) => Promise<string>;
  policy?: RetryPolicy;
  /** How long a claim holds before another dispatcher may take the row over. */
  leaseMs?: number;
  /** The whole request's time limit. */
  timeoutMs?: number;
  /** WEBHOOK_ALLOW_PRIVATE: deliver to private, loopback and link-local addresses. */
  allowPrivate?: boolean;
  workerId?: string;
  batch?: number;
}

type Outcome = { status: 'delivered' | 'pending' | 'failed'; runAt?: Date; error?: string };

export function makeDispatcher(deps: DispatcherDeps) {
  const policy = deps.policy ?? REFERENCE_RETRY_POLICY;
  const leaseMs = deps.leaseMs ?? 60_000;
  const timeoutMs = deps.timeoutMs ?? 15_000;
  const worker = deps.workerId ?? `dispatcher-${randomUUID()}`;
  const { outbox, clock, logger } = deps;

  /** Whether the URL's host is an address we may post to. */
  async function refusedTarget(url: string): Promise<string | undefined> {
    if (deps.allowPrivate) return undefined;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    const addresses = await deps.resolve(host);
    const private_ = addresses.find((a) => !isPublicIp(a));
    return private_ ? `refused: ${host} resolves to ${private_}, a private, loopback or link-local address (set WEBHOOK_ALLOW_PRIVATE=1 to allow)` : undefined;
  }

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

  async function deliver(row: WebhookRecord): Promise<Outcome> {
    const now = clock.now();
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
    const record = (statusCode: number | undefined, error: string | undefined) =>
      outbox.recordAttempt(row.requestId, { attempt: row.attempts, at: now, worker, statusCode, latencyMs: elapsed(), error });

    let target: WebhookTarget;
    try {
      target = await deps.target(row.projectId);
      if (!target.url) {
        await record(undefined, 'the project has no webhook URL');
        return retry(row, now, 'the project has no webhook URL');
      }
      const refused = await refusedTarget(target.url);
      if (refused) {
        await record(undefined, refused);
        return { status: 'failed', error: refused };
      }
    } catch (err) {
      const message = `target: ${(err as Error).message}`;
      await record(undefined, message);
      return retry(row, now, message);
    }

    let body: string;
    try {
      body = deps.render ? await deps.render(row) : row.body;
    } catch (err) {
      const message = `render: ${(err as Error).message}`;
      await record(undefined, message);
      return retry(row, now, message);
    }
    const headers = webhookHeaders({ secret: target.secret, requestId: row.requestId, eventType: row.eventType as EventType, rawBody: body, now });
    try {
      const response = await deps.fetch(target.url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      await response.arrayBuffer().catch(() => undefined);
      await record(response.status, response.ok ? undefined : `HTTP ${response.status}`);
      if (response.ok) return { status: 'delivered' };
      const retryAfter = response.status === 429 ? parseRetryAfter(response.headers.get('retry-after'), now) : undefined;
      return retry(row, now, `HTTP ${response.status}`, retryAfter);
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      const message = e.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : `${e.message}${e.cause?.code ? ` (${e.cause.code})` : ''}`;
      await record(undefined, message);
      return retry(row, now, message);
    }
  }

  async function runOnce(): Promise<number> {
    let sent = 0;
    for (;;) {
      const rows = await outbox.claim(worker, clock.now(), leaseMs, deps.batch ?? 32);
      if (rows.length === 0) return sent;
      await Promise.all(
        rows.map(async (row) => {
          const outcome = await deliver(row);
          const settled = await outbox.settle(row.requestId, worker, { ...outcome, at: clock.now() });
          logger.info(
            { requestId: row.requestId, eventType: row.eventType, attempt: row.attempts, status: outcome.status, error: outcome.error, settled },
            'webhook attempt',
          );
          sent++;
        }),
      );
    }
  }

  return {
    worker,
    runOnce,
    /** Polls every `pollMs` until `signal` aborts; errors are logged, never thrown. */
    async start(signal: AbortSignal, pollMs = 1000): Promise<void> {
      while (!signal.aborted) {
        try {
          await runOnce();
        } catch (err) {
          logger.error({ err: (err as Error).message }, 'webhook dispatcher failed; retrying');
        }
        // Ends early when the signal aborts; the listener goes with the timer (no listener piles up).
        await sleep(pollMs, undefined, { signal }).catch(() => undefined);
      }
    },
  };
}

export type Dispatcher = ReturnType<typeof makeDispatcher>;
