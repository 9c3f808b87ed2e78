/**
 * The webhook outbox: one row per webhook, written in the same transaction as the
 * verification session's terminal transition, claimed by dispatchers with a lease.
 * The claim is one statement (PostgreSQL: FOR UPDATE SKIP LOCKED, so dispatchers never take the
 * same row; SQLite has one writer), attempts are counted at claim, settlement touches only rows
 * the dispatcher still holds, and a crashed dispatcher's lease expires.
 *
 * Waking dispatchers: on PostgreSQL, queueing a webhook also sends `NOTIFY` on
 * WEBHOOK_CHANNEL in the queueing transaction, which PostgreSQL delivers to every listening
 * worker when (and only if) it commits. A dispatcher in the same process is woken by the caller
 * once its transaction has committed (see wake.ts): only the transaction's owner knows when that is.
 */
import type { Knex } from 'knex';
import type { SecretBox } from '../security/secrets';
import type { QueuedWebhook } from '../domain/webhook-events';
import { makeWebhookRows, WEBHOOK_CHANNEL } from '../storage/repositories/webhook-rows';

export type WebhookStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookRecord {
  requestId: string;
  projectId: string;
  /** The webhook's unique key: the verification session's id (one webhook each); other events: their request_id. */
  sessionId: string;
  eventType: string;
  body: string;
  status: WebhookStatus;
  attempts: number;
  runAt: Date;
  lockedBy?: string;
  lastError?: string;
  firstAttemptAt?: Date;
  deliveredAt?: Date;
  createdAt: Date;
}

export interface AttemptRecord {
  attempt: number;
  at: Date;
  worker: string;
  statusCode?: number;
  latencyMs: number;
  error?: string;
  /** The first ANSWER_KEPT_BYTES of the receiver's answer body (getWebhookDelivery). */
  answer?: string;
}

/** How much of a receiver's answer each attempt keeps. */
export const ANSWER_KEPT_BYTES = 512;

/** Which of a project's webhooks a page lists (listWebhookDeliveries). */
export interface WebhookFilter {
  status?: WebhookStatus;
  eventType?: string;
  /** Queued at or after. */
  from?: Date;
  /** Queued before. */
  to?: Date;
}

/** Where a page starts: after this webhook, in the order newest first (created_at, request_id). */
export interface WebhookCursor {
  createdAt: number;
  requestId: string;
}

export { WEBHOOK_CHANNEL };

/** What one attempt ended in, as the dispatcher settles it. */
export interface Outcome {
  status: WebhookStatus;
  /** The next attempt's time, when rescheduled (status pending). */
  runAt?: Date;
  error?: string;
}

/** A claimed row's settlement: its attempt (when one was made) and its outcome. */
export interface Settlement {
  requestId: string;
  attempt?: AttemptRecord;
  outcome: Outcome;
}

const date = (v: unknown) => (v === null || v === undefined ? undefined : new Date(Number(v)));

/** The columns of a webhook but its body. */
const SUMMARY_COLUMNS = [
  'request_id',
  'project_id',
  'session_id',
  'event_type',
  'status',
  'attempts',
  'run_at',
  'locked_by',
  'last_error',
  'first_attempt_at',
  'delivered_at',
  'created_at',
];

/** A webhook without its body (listing never opens the sealed bodies). */
export type WebhookSummary = Omit<WebhookRecord, 'body'>;

function toSummary(r: Record<string, unknown>): WebhookSummary {
  return {
    requestId: String(r.request_id),
    projectId: String(r.project_id),
    sessionId: String(r.session_id),
    eventType: String(r.event_type),
    status: r.status as WebhookStatus,
    attempts: Number(r.attempts),
    runAt: new Date(Number(r.run_at)),
    lockedBy: (r.locked_by as string | null) ?? undefined,
    lastError: (r.last_error as string | null) ?? undefined,
    firstAttemptAt: date(r.first_attempt_at),
    deliveredAt: date(r.delivered_at),
    createdAt: new Date(Number(r.created_at)),
  };
}

function toRecord(r: Record<string, unknown>, box: SecretBox): WebhookRecord {
  // Bodies carry personal data (an ID Check's document data): sealed at rest.
  return { ...toSummary(r), body: box.decrypt(String(r.body)) };
}

export type { QueuedWebhook };

export function makeOutbox(db: Knex, box: SecretBox) {
  const postgres = db.client.config.client === 'pg';
  const rows = makeWebhookRows(db, box);

  return {
    /**
     * Queues the session's webhook (a list event: its own, keyed by its request_id); false when
     * the session already has one (the unique key holds).
     * On PostgreSQL the listening workers are notified when `trx` commits; the caller wakes its
     * own process's dispatcher after the commit.
     */
    async enqueue(w: QueuedWebhook, trx: Knex = db): Promise<boolean> {
      const inserted = await rows.insert(trx, w).returning('request_id');
      if (inserted.length === 0) return false;
      if (postgres) await rows.notify(trx);
      return true;
    },

    /** Takes up to `limit` due rows (pending, run_at passed, no live lease) for `worker`. */
    async claim(worker: string, now: Date, leaseMs: number, limit: number): Promise<WebhookRecord[]> {
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
      const rows: Record<string, unknown>[] = postgres ? result.rows : result;
      return rows.map((r: Record<string, unknown>) => toRecord(r, box));
    },

    /**
     * Records the attempts and settles the rows `worker` still holds, all in one transaction;
     * returns the request_ids it settled (a row whose lease was lost, taken over by another
     * dispatcher, is not touched; its attempt is still recorded: it was made).
     */
    async settle(worker: string, at: Date, settlements: Settlement[]): Promise<Set<string>> {
      if (settlements.length === 0) return new Set();
      const attempts = settlements.flatMap(({ requestId, attempt: a }) =>
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
      const delivered = settlements.filter((s) => s.outcome.status === 'delivered').map((s) => s.requestId);
      const others = settlements.filter((s) => s.outcome.status !== 'delivered');
      const held = (trx: Knex, ids: string[]) =>
        trx('webhooks').whereIn('request_id', ids).where({ locked_by: worker });
      const unlocked = { locked_by: null, locked_at: null };
      return db.transaction(async (trx) => {
        if (attempts.length)
          await trx('webhook_attempts').insert(attempts).onConflict(['request_id', 'attempt']).ignore();
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
    },

    /**
     * When the soonest pending webhook no dispatcher holds is due (undefined when there is none).
     * Held rows are left out: a lease that expires is found by the poll.
     */
    async nextRunAt(): Promise<Date | undefined> {
      const row = await db('webhooks')
        .where({ status: 'pending' })
        .whereNull('locked_at')
        .orderBy('run_at')
        .first('run_at');
      return row ? new Date(Number(row.run_at)) : undefined;
    },

    /** How many webhooks wait to be delivered (pending, held or not): GET /metrics, at each scrape. */
    async depth(): Promise<number> {
      const row = await db('webhooks').where({ status: 'pending' }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    async find(requestId: string): Promise<WebhookRecord | undefined> {
      const row = await db('webhooks').where({ request_id: requestId }).first();
      return row && toRecord(row, box);
    },

    /** The project's webhook, or undefined when it has none with this id (another project's included). */
    async findOf(projectId: string, requestId: string): Promise<WebhookRecord | undefined> {
      const row = await db('webhooks').where({ project_id: projectId, request_id: requestId }).first();
      return row && toRecord(row, box);
    },

    /**
     * A page of the project's webhooks, newest first (created_at, then request_id), after
     * `cursor`: one range of (project_id, created_at, request_id), or of (project_id, status,
     * created_at, request_id) with a status (migration 0032). Bodies are not read.
     */
    async page(
      projectId: string,
      filter: WebhookFilter,
      limit: number,
      cursor?: WebhookCursor,
    ): Promise<WebhookSummary[]> {
      const q = db('webhooks')
        .where({ project_id: projectId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'request_id', order: 'desc' },
        ])
        .limit(limit)
        .select(SUMMARY_COLUMNS);
      if (filter.status) q.where({ status: filter.status });
      if (filter.eventType) q.where({ event_type: filter.eventType });
      if (filter.from) q.where('created_at', '>=', filter.from.getTime());
      if (filter.to) q.where('created_at', '<', filter.to.getTime());
      if (cursor) q.whereRaw('(created_at, request_id) < (?, ?)', [cursor.createdAt, cursor.requestId]);
      return (await q).map(toSummary);
    },

    async list(filter: { status?: WebhookStatus; limit?: number } = {}): Promise<WebhookSummary[]> {
      const q = db('webhooks')
        .orderBy('created_at', 'desc')
        .limit(filter.limit ?? 100);
      if (filter.status) q.where({ status: filter.status });
      return (await q).map(toSummary);
    },

    async attempts(requestId: string): Promise<AttemptRecord[]> {
      const rows = await db('webhook_attempts').where({ request_id: requestId }).orderBy('attempt');
      return rows.map((r: Record<string, unknown>) => ({
        attempt: Number(r.attempt),
        at: new Date(Number(r.at)),
        worker: String(r.worker),
        statusCode: r.status_code === null ? undefined : Number(r.status_code),
        latencyMs: Number(r.latency_ms),
        error: (r.error as string | null) ?? undefined,
        answer: (r.answer as string | null) ?? undefined,
      }));
    },

    /**
     * Retention: the project's delivered webhooks created before `before`, oldest first, at most
     * `limit` (a range of `(project_id, created_at)`; pending and failed ones are never due).
     */
    async deliveredBefore(projectId: string, before: Date, limit: number, trx: Knex = db): Promise<string[]> {
      return trx('webhooks')
        .where({ project_id: projectId, status: 'delivered' })
        .where('created_at', '<', before.getTime())
        .orderBy('created_at')
        .limit(limit)
        .pluck('request_id');
    },

    /** Retention: removes these webhooks, if still delivered, with their attempts; how many went. */
    async deleteDelivered(requestIds: readonly string[], trx: Knex = db): Promise<number> {
      if (requestIds.length === 0) return 0;
      // Read first, then deleted by key (a row settled otherwise meanwhile is left alone).
      const delivered: string[] = await trx('webhooks')
        .whereIn('request_id', [...requestIds])
        .where({ status: 'delivered' })
        .pluck('request_id');
      if (delivered.length === 0) return 0;
      await trx('webhook_attempts').whereIn('request_id', delivered).delete();
      return trx('webhooks').whereIn('request_id', delivered).delete();
    },

    /**
     * Sends a webhook again (same request_id and body) as soon as a dispatcher runs, whatever
     * its status; only the project's when `projectId` is given. Answers its status before and the
     * webhook as queued (without its body), or nothing when there is none. In the caller's
     * transaction when given one.
     */
    async replay(
      requestId: string,
      now: Date,
      projectId?: string,
      trx?: Knex,
    ): Promise<{ before: WebhookStatus; queued: WebhookSummary } | undefined> {
      const run = async (t: Knex) => {
        const found = t('webhooks').where({
          request_id: requestId,
          ...(projectId !== undefined ? { project_id: projectId } : {}),
        });
        // Locked until the transaction ends, so that a dispatcher's settlement does not slip in
        // between (SQLite's write transactions take the database's lock at their start: db.ts).
        if (postgres) found.forUpdate();
        const row = (await found.first(SUMMARY_COLUMNS)) as Record<string, unknown> | undefined;
        if (!row) return undefined;
        const queued = { status: 'pending', run_at: now.getTime(), locked_by: null, locked_at: null };
        await t('webhooks').where({ request_id: requestId }).update(queued);
        if (postgres) await rows.notify(t);
        return { before: row.status as WebhookStatus, queued: toSummary({ ...row, ...queued }) };
      };
      return trx ? run(trx) : db.transaction(run);
    },
  };
}

export type Outbox = ReturnType<typeof makeOutbox>;
