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
 * and replay (replay.ts); `makeOutbox` gives them their deps.
 */
import type { Knex } from 'knex';
import type { SecretBox } from '../security/secrets';
import { makeWebhookRows, WEBHOOK_CHANNEL } from '../storage/repositories/webhook-rows';
import { claim, depth, enqueue, nextRunAt, settle } from './outbox/delivery';
import { attempts, find, findOf, list, page } from './outbox/reads';
import type { OutboxDeps } from './outbox/records';
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
  const withDeps =
    <A extends unknown[], R>(operation: (deps: OutboxDeps, ...args: A) => R) =>
    (...args: A): R =>
      operation(deps, ...args);
  return {
    enqueue: withDeps(enqueue),
    claim: withDeps(claim),
    settle: withDeps(settle),
    nextRunAt: withDeps(nextRunAt),
    depth: withDeps(depth),
    find: withDeps(find),
    findOf: withDeps(findOf),
    page: withDeps(page),
    list: withDeps(list),
    attempts: withDeps(attempts),
    deliveredBefore: withDeps(deliveredBefore),
    deleteDelivered: withDeps(deleteDelivered),
    replay: withDeps(replay),
  };
}

export type Outbox = ReturnType<typeof makeOutbox>;
