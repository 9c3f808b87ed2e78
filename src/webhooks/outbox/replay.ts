import type { Knex } from 'knex';
import { SUMMARY_COLUMNS, toSummary, type OutboxDeps, type WebhookStatus, type WebhookSummary } from './records';

/**
 * Sends a webhook again (same request_id and body) as soon as a dispatcher runs, whatever
 * its status; only the project's when `projectId` is given. Answers its status before and the
 * webhook as queued (without its body), or nothing when there is none. In the caller's
 * transaction when given one.
 */
export async function replay(
  { db, postgres, rows }: OutboxDeps,
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
}
