/** The outbox's part of retention: delivered webhooks past their time, and their removal. */
import type { Knex } from 'knex';
import type { OutboxDeps } from './records';

/**
 * The project's delivered webhooks created before `before`, oldest first, at most `limit` (a
 * range of `(project_id, created_at)`; pending and failed ones are never due).
 */
export async function deliveredBefore(
  { db }: OutboxDeps,
  projectId: string,
  before: Date,
  limit: number,
  trx: Knex = db,
): Promise<string[]> {
  return trx('webhooks')
    .where({ project_id: projectId, status: 'delivered' })
    .where('created_at', '<', before.getTime())
    .orderBy('created_at')
    .limit(limit)
    .pluck('request_id');
}

/** Removes these webhooks, if still delivered, with their attempts; how many went. */
export async function deleteDelivered(
  { db }: OutboxDeps,
  requestIds: readonly string[],
  trx: Knex = db,
): Promise<number> {
  if (requestIds.length === 0) return 0;
  // Read first, then deleted by key (a row settled otherwise meanwhile is left alone).
  const delivered: string[] = await trx('webhooks')
    .whereIn('request_id', [...requestIds])
    .where({ status: 'delivered' })
    .pluck('request_id');
  if (delivered.length === 0) return 0;
  await trx('webhook_attempts').whereIn('request_id', delivered).delete();
  return trx('webhooks').whereIn('request_id', delivered).delete();
}
