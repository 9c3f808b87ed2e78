/**
 * The outbox's part of an account's erasure: the stored events that name the account keep the
 * event but no longer its id (GET /webhooks/deliveries/{request_id} shows the redaction, a
 * pending one is sent so), and their attempts no longer keep a receiver's answer that quoted it.
 */
import type { Knex } from 'knex';
import { withoutAccounts } from '../../domain/webhook-events';
import type { OutboxDeps } from './records';

/** Webhooks read per statement. */
const PAGE = 500;

/**
 * Redacts the project's stored events that name any of `accountIds`, in `trx` (the erasure's
 * transaction); how many it changed. The bodies are sealed, so none can be found by a query:
 * each of the project's is opened, in pages of its `(project_id, created_at, request_id)` index.
 * An erasure therefore reads the project's outbox once, which retention keeps to its period.
 */
export async function redactAccounts(
  { db, box }: OutboxDeps,
  projectId: string,
  accountIds: readonly string[],
  trx: Knex = db,
): Promise<number> {
  if (accountIds.length === 0) return 0;
  const ids = new Set(accountIds);
  let changed = 0;
  let after: { created_at: number; request_id: string } | undefined;
  for (;;) {
    const q = trx('webhooks')
      .where({ project_id: projectId })
      .orderBy(['created_at', 'request_id'])
      .limit(PAGE)
      .select('request_id', 'created_at', 'body');
    if (after) q.whereRaw('(created_at, request_id) > (?, ?)', [after.created_at, after.request_id]);
    const rows = (await q) as { request_id: string; created_at: number; body: string }[];
    for (const row of rows) {
      const body = withoutAccounts(box.decrypt(row.body), ids);
      if (body === undefined) continue;
      await trx('webhooks')
        .where({ request_id: row.request_id })
        .update({ body: box.encrypt(body) });
      await forgetQuotingAnswers(trx, row.request_id, ids);
      changed++;
    }
    if (rows.length < PAGE) return changed;
    after = rows[rows.length - 1]!;
  }
}

/** The attempts' kept answers (ANSWER_KEPT_BYTES of the receiver's) that quote one of the ids, emptied. */
async function forgetQuotingAnswers(trx: Knex, requestId: string, ids: ReadonlySet<string>): Promise<void> {
  const answers = (await trx('webhook_attempts')
    .where({ request_id: requestId })
    .whereNotNull('answer')
    .select('attempt', 'answer')) as { attempt: number; answer: string }[];
  for (const a of answers)
    if ([...ids].some((id) => a.answer.includes(id)))
      await trx('webhook_attempts').where({ request_id: requestId, attempt: a.attempt }).update({ answer: null });
}
