/**
 * The rows of the webhook outbox as statements: a queued webhook's insert (its body sealed), the
 * same insert on a condition, and PostgreSQL's announcement to the listening workers. Shared by
 * the outbox (webhooks/outbox.ts) and the evaluation's write, which queues its events in its own
 * transaction.
 */
import type { Knex } from 'knex';
import type { QueuedWebhook } from '../../domain/webhook-events';
import type { SecretBox } from '../../security/secrets';
import { statementOf, type Statement } from '../statements';

/** The PostgreSQL channel on which queued webhooks are announced (composition/listener.ts listens). */
export const WEBHOOK_CHANNEL = 'trustgate_webhooks';

export function makeWebhookRows(db: Knex, box: SecretBox) {
  const postgres = db.client.config.client === 'pg';
  /** A webhook's row, pending; its body sealed (bodies carry personal data). */
  const rowOf = (w: QueuedWebhook) => ({
    request_id: w.requestId,
    project_id: w.projectId,
    session_id: w.sessionId,
    event_type: w.eventType,
    body: box.encrypt(w.body),
    status: 'pending',
    attempts: 0,
    run_at: w.now.getTime(),
    created_at: w.now.getTime(),
  });
  const rows = {
    /** The insert of a webhook (nothing when its unique key, `session_id`, is taken). */
    insert: (trx: Knex, w: QueuedWebhook) => trx('webhooks').insert(rowOf(w)).onConflict('session_id').ignore(),

    /** Announces due webhooks to the listening workers when `trx` commits (PostgreSQL; nothing on SQLite). */
    notify: (trx: Knex) => trx.raw('SELECT pg_notify(?, ?)', [WEBHOOK_CHANNEL, '']),

    /** `insert` as a statement, for a transaction built as statements. */
    insertStatement: (w: QueuedWebhook): Statement => statementOf(rows.insert(db, w)),

    /**
     * The insert, made only if `when` (an SQL condition with its bindings) holds at that point of
     * the transaction: an event that reports what the next statement will change (a list
     * membership), decided by the rows, not by an earlier read.
     */
    insertWhenStatement(w: QueuedWebhook, when: Statement): Statement {
      const row = rowOf(w);
      // Typed placeholders: PostgreSQL cannot infer a bare parameter's type in a SELECT list.
      const values = Object.values(row).map((v) => (typeof v === 'number' ? 'CAST(? AS bigint)' : 'CAST(? AS text)'));
      return {
        sql:
          `INSERT INTO webhooks (${Object.keys(row).join(', ')}) ` +
          `SELECT ${values.join(', ')} WHERE ${when.sql} ON CONFLICT (session_id) DO NOTHING`,
        bindings: [...Object.values(row), ...when.bindings],
      };
    },

    /** What announces the rows a transaction built as statements queued: PostgreSQL's notification; none on SQLite. */
    notifyStatements: (): Statement[] => (postgres ? [statementOf(rows.notify(db))] : []),
  };
  return rows;
}

export type WebhookRows = ReturnType<typeof makeWebhookRows>;
