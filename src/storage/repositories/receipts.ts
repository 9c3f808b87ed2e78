/**
 * Evaluations' receipts (migration 0027), one row per authenticate and unauthenticated answer.
 * Written by the evaluation's own write (`receiptStatement`, in evaluation-writes.ts): the
 * receipt's INSERT also records the evaluation on the session (the table's trigger), so the
 * receipt costs the write no statement. Read by request id within the project; deleted with
 * the account they were made for (erasure).
 */
import type { Knex } from 'knex';
import type { EvaluationReceipt, LabelValue } from '../../api-types';
import type { ReplayableSubject } from '../../domain/evaluation/rules';
import type { Statement } from '../statements';
import { evaluationValues, type SessionEvaluation } from './sessions';

/** The statement that keeps the receipt and (its trigger) records the evaluation on its session. */
export function receiptStatement(
  receipt: EvaluationReceipt,
  subject: ReplayableSubject,
  evaluation: SessionEvaluation,
): Statement {
  return {
    sql: `INSERT INTO evaluation_receipts (decision, account_score, created_at, risk_scores, rules_outcome, project_id, request_id, session_id, account_id, receipt, rule_subject) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    bindings: [
      ...evaluationValues(evaluation),
      receipt.project_id,
      receipt.request_id,
      receipt.session_id,
      receipt.account_id,
      JSON.stringify(receipt),
      JSON.stringify(subject),
    ],
  };
}

/** A receipt with what the rules read: what a backtest replays; and its account's current label, if any. */
export interface StoredReceipt {
  receipt: EvaluationReceipt;
  subject: ReplayableSubject;
  label?: LabelValue;
}

export function makeReceiptRepository(db: Knex) {
  return {
    /** The project's receipt of this request; another project's is not found. */
    async find(projectId: string, requestId: string, trx: Knex = db): Promise<EvaluationReceipt | undefined> {
      const row: { receipt: string } | undefined = await trx('evaluation_receipts')
        .select('receipt')
        .where({ project_id: projectId, request_id: requestId })
        .first();
      return row && (JSON.parse(row.receipt) as EvaluationReceipt);
    },

    /** The project's receipts made in [from, to), newest first, at most `limit`, each with its account's current label. */
    async inRange(projectId: string, from: Date, to: Date, limit: number, trx: Knex = db): Promise<StoredReceipt[]> {
      const rows: { receipt: string; rule_subject: string; label: string | null }[] = await trx(
        'evaluation_receipts as r',
      )
        // The account's one current label (labels_one_current), by primary key of the index.
        .leftJoin('labels as l', function () {
          this.on('l.project_id', '=', 'r.project_id')
            .andOn('l.account_id', '=', 'r.account_id')
            .andOnVal('l.current', '=', true);
        })
        .select('r.receipt', 'r.rule_subject', 'l.label')
        .where('r.project_id', projectId)
        .where('r.created_at', '>=', from.getTime())
        .where('r.created_at', '<', to.getTime())
        .orderBy('r.created_at', 'desc')
        .limit(limit);
      return rows.map((r) => ({
        receipt: JSON.parse(r.receipt) as EvaluationReceipt,
        subject: JSON.parse(r.rule_subject) as ReplayableSubject,
        ...(r.label ? { label: r.label as LabelValue } : {}),
      }));
    },

    /** Deletes the receipts of the account's authenticates (erasure); how many. */
    async deleteForAccount(projectId: string, accountId: string, trx: Knex = db): Promise<number> {
      return trx('evaluation_receipts').where({ project_id: projectId, account_id: accountId }).delete();
    },
  };
}

export type ReceiptRepository = ReturnType<typeof makeReceiptRepository>;
