/**
 * The dispatchers' side of the outbox: queueing a webhook, claiming due ones with a lease,
 * settling the ones still held, and when the next one is due.
 */
import type { Knex } from 'knex';
import type { QueuedWebhook } from '../../domain/webhook-events';
import { toRecord, type OutboxDeps, type Settlement, type WebhookRecord } from './records';

/**
 * Queues the session's webhook (a list event: its own, keyed by its request_id); false when
 * the session already has one (the unique key holds).
 * On PostgreSQL the listening workers are notified when `trx` commits; the caller wakes its
 * own process's dispatcher after the commit.
 */
export async function enqueue({ db, postgres, rows }: OutboxDeps, w: QueuedWebhook, trx: Knex = db): Promise<boolean> {
  const inserted = await rows.insert(trx, w).returning('request_id');
  if (inserted.length === 0) return false;
  if (postgres) await rows.notify(trx);
  return true;
}

/** Takes up to `limit` due rows (pending, run_at passed, no live lease) for `worker`. */
export async function claim(
  { db, box, postgres }: OutboxDeps,
  worker: string,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<WebhookRecord[]> {
  const t = now.getTime();
  const result = await db.raw(
    `UPDATE webhooks
            SET locked_by = ?, locked_at = ?, attempts = attempts + 1, first_attempt_at = COALESCE(first_attempt_at, ?)
          WHERE request_id IN (
                SELECT request_id FROM webhooks
                 WHERE status = 'pending' AND run_at <= ? AND (locked_at IS NULL OR locked_at < ?)
                 ORDER BY run_at LIMIT ?${postgres ? ' FOR UPDATE SKIP LOCKED' : ''})
      RETURNING *`,
    [worker, t, t, t, t - leaseMs, limit],
  );
  const claimed: Record<string, unknown>[] = postgres ? result.rows : result;
  return claimed.map((r: Record<string, unknown>) => toRecord(r, box));
}

/** The attempts' rows (a settlement without an attempt has none). */
function attemptRows(settlements: Settlement[]) {
  return settlements.flatMap(({ requestId, attempt: a }) =>
    a
      ? [
          {
            request_id: requestId,
            attempt: a.attempt,
            at: a.at.getTime(),
            worker: a.worker,
            status_code: a.statusCode ?? null,
            latency_ms: Math.round(a.latencyMs),
            error: a.error ?? null,
            answer: a.answer ?? null,
          },
        ]
      : [],
  );
}

/**
 * Records the attempts and settles the rows `worker` still holds, all in one transaction;
 * returns the request_ids it settled (a row whose lease was lost, taken over by another
 * dispatcher, is not touched; its attempt is still recorded: it was made).
 */
export async function settle(
  { db }: OutboxDeps,
  worker: string,
  at: Date,
  settlements: Settlement[],
): Promise<Set<string>> {
  if (settlements.length === 0) return new Set();
  const attempts = attemptRows(settlements);
  const delivered = settlements.filter((s) => s.outcome.status === 'delivered').map((s) => s.requestId);
  const others = settlements.filter((s) => s.outcome.status !== 'delivered');
  const held = (trx: Knex, ids: string[]) => trx('webhooks').whereIn('request_id', ids).where({ locked_by: worker });
  const unlocked = { locked_by: null, locked_at: null };
  return db.transaction(async (trx) => {
    if (attempts.length) await trx('webhook_attempts').insert(attempts).onConflict(['request_id', 'attempt']).ignore();
    const settled: { request_id: string }[] = [];
    if (delivered.length) {
      settled.push(
        ...(await held(trx, delivered)
          .update({ ...unlocked, status: 'delivered', last_error: null, delivered_at: at.getTime() })
          .returning('request_id')),
      );
    }
    for (const { requestId, outcome } of others) {
      const update = {
        ...unlocked,
        status: outcome.status,
        last_error: outcome.error ?? null,
        ...(outcome.runAt ? { run_at: outcome.runAt.getTime() } : {}),
      };
      settled.push(...(await held(trx, [requestId]).update(update).returning('request_id')));
    }
    return new Set(settled.map((r) => r.request_id));
  });
}

/**
 * When the soonest pending webhook no dispatcher holds is due (undefined when there is none).
 * Held rows are left out: a lease that expires is found by the poll.
 */
export async function nextRunAt({ db }: OutboxDeps): Promise<Date | undefined> {
  const row = await db('webhooks')
    .where({ status: 'pending' })
    .whereNull('locked_at')
    .orderBy('run_at')
    .first('run_at');
  return row ? new Date(Number(row.run_at)) : undefined;
}

/** How many webhooks wait to be delivered (pending, held or not): GET /metrics, at each scrape. */
export async function depth({ db }: OutboxDeps): Promise<number> {
  const row = await db('webhooks').where({ status: 'pending' }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}
