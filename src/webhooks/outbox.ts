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
 *
 * Each operation is a function of its own in outbox/, taking the outbox's deps: the dispatchers'
 * side (delivery.ts), the reads of the API and the console (reads.ts), retention's (retention.ts)
 * replay (replay.ts) and an account's erasure (erasure.ts); `makeOutbox` gives them their deps.
 */
import type { Knex } from 'knex';
import type { SecretBox } from '../security/secrets';
import { withDeps } from '../with-deps';
import { makeWebhookRows, WEBHOOK_CHANNEL } from '../storage/repositories/webhook-rows';
import { claim, depth, enqueue, nextRunAt, settle } from './outbox/delivery';
import { attempts, find, findOf, list, page } from './outbox/reads';
import type { OutboxDeps } from './outbox/records';
import { redactAccounts } from './outbox/erasure';
import { replay } from './outbox/replay';
import { deleteDelivered, deliveredBefore } from './outbox/retention';

export type { QueuedWebhook } from '../domain/webhook-events';
export {
  ANSWER_KEPT_BYTES,
  type AttemptRecord,
  type Outcome,
  type Settlement,
  type WebhookCursor,
  type WebhookFilter,
  type WebhookRecord,
  type WebhookStatus,
  type WebhookSummary,
} from './outbox/records';
export { WEBHOOK_CHANNEL };

export function makeOutbox(db: Knex, box: SecretBox) {
  const deps: OutboxDeps = { db, box, postgres: db.client.config.client === 'pg', rows: makeWebhookRows(db, box) };
  const given = withDeps(deps);
  return {
    enqueue: given(enqueue),
    claim: given(claim),
    settle: given(settle),
    nextRunAt: given(nextRunAt),
    depth: given(depth),
    find: given(find),
    findOf: given(findOf),
    page: given(page),
    list: given(list),
    attempts: given(attempts),
    deliveredBefore: given(deliveredBefore),
    deleteDelivered: given(deleteDelivered),
    replay: given(replay),
    redactAccounts: given(redactAccounts),
  };
}

export type Outbox = ReturnType<typeof makeOutbox>;
