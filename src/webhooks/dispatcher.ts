/**
 * The webhook dispatcher: claims due webhooks, posts each one signed afresh (webhooks.yaml's
 * `x-signature`; attempt.ts) and settles them: delivered on a 2xx, otherwise rescheduled on the
 * retry policy, or failed when the policy runs out or the transport refuses the target
 * (transport.ts: a private address the operator did not allow, a metadata service). A claimed
 * batch is posted concurrently and settled, attempts included, in one transaction.
 * `runOnce()` drains what is due now (tests call it); `drain()` is the worker's pass, which
 * also says when the soonest pending webhook is due: the worker (worker.ts) sleeps until then,
 * until it is woken (a webhook was queued: wake.ts), or for its poll at most.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import { deliver, type AttemptContext, type WebhookTarget } from './attempt';
import { REFERENCE_RETRY_POLICY, type RetryPolicy } from './backoff';
import type { Outbox, Settlement, WebhookRecord } from './outbox';
import type { PostWebhook } from './transport';
import type { WebhookMetrics } from '../telemetry/metrics';

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

/** The project's target, looked up once per project and batch (the project row and its decrypted secret). */
function oncePerProject(target: DispatcherDeps['target']): DispatcherDeps['target'] {
  const targets = new Map<string, Promise<WebhookTarget>>();
  return (projectId) => {
    if (!targets.has(projectId)) targets.set(projectId, target(projectId));
    return targets.get(projectId)!;
  };
}

/** Each attempt of a batch, counted and logged, with whether its row was settled (its lease held). */
function report(
  { metrics, logger }: DispatcherDeps,
  rows: WebhookRecord[],
  settlements: Settlement[],
  settled: Set<string>,
): void {
  rows.forEach((row, i) => {
    const { outcome, attempt } = settlements[i]!; // settlements is rows.map(…): one per row
    const { status, error } = outcome;
    if (attempt) metrics?.attempted(status === 'pending' ? 'retry' : status, row.attempts, attempt.latencyMs / 1000);
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
}

export function makeDispatcher(deps: DispatcherDeps) {
  const leaseMs = deps.leaseMs ?? 60_000;
  const batch = deps.batch ?? 64;
  const { outbox, clock, logger } = deps;
  const attempt: AttemptContext = {
    worker: deps.workerId ?? `dispatcher-${randomUUID()}`,
    policy: deps.policy ?? REFERENCE_RETRY_POLICY,
    timeoutMs: deps.timeoutMs ?? 15_000,
    clock,
    random: deps.random,
    post: deps.post,
    render: deps.render,
  };
  const { worker } = attempt;

  async function runOnce(): Promise<number> {
    let sent = 0;
    for (;;) {
      const rows = await outbox.claim(worker, clock.now(), leaseMs, batch);
      if (rows.length === 0) return sent;
      const targetOf = oncePerProject(deps.target);
      const settlements = await Promise.all(rows.map((row) => deliver(attempt, row, targetOf)));
      const settled = await outbox.settle(worker, clock.now(), settlements);
      report(deps, rows, settlements, settled);
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
