/** The outbox as the API and the console read it: one webhook, a page of them, its attempts. */
import {
  SUMMARY_COLUMNS,
  toRecord,
  toSummary,
  type AttemptRecord,
  type OutboxDeps,
  type WebhookCursor,
  type WebhookFilter,
  type WebhookRecord,
  type WebhookStatus,
  type WebhookSummary,
} from './records';

export async function find({ db, box }: OutboxDeps, requestId: string): Promise<WebhookRecord | undefined> {
  const row = await db('webhooks').where({ request_id: requestId }).first();
  return row && toRecord(row, box);
}

/** The project's webhook, or undefined when it has none with this id (another project's included). */
export async function findOf(
  { db, box }: OutboxDeps,
  projectId: string,
  requestId: string,
): Promise<WebhookRecord | undefined> {
  const row = await db('webhooks').where({ project_id: projectId, request_id: requestId }).first();
  return row && toRecord(row, box);
}

/**
 * A page of the project's webhooks, newest first (created_at, then request_id), after
 * `cursor`: one range of (project_id, created_at, request_id), or of (project_id, status,
 * created_at, request_id) with a status (migration 0032). Bodies are not read.
 */
export async function page(
  { db }: OutboxDeps,
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
}

export async function list(
  { db }: OutboxDeps,
  filter: { status?: WebhookStatus; limit?: number } = {},
): Promise<WebhookSummary[]> {
  const q = db('webhooks')
    .orderBy('created_at', 'desc')
    .limit(filter.limit ?? 100);
  if (filter.status) q.where({ status: filter.status });
  return (await q).map(toSummary);
}

export async function attempts({ db }: OutboxDeps, requestId: string): Promise<AttemptRecord[]> {
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
}
