import type { Knex } from 'knex';

/**
 * Receipts and backtests (`GET /evaluation/{request_id}`, `POST /rules/test`; docs/rules.md)
 * without a row of their own: a session's latest evaluation already lives on its row (decision,
 * account_score, evaluated_at, risk_scores, rules_outcome), written by one `UPDATE sessions`.
 * The same statement now also writes
 * - `evaluation_request_id`: the evaluation's request id, indexed with the project, so that a
 *   receipt is found by it;
 * - `evaluation_inputs`: what the scores weighed that nothing else keeps, as one compact JSON
 *   array (domain/evaluation/receipt.ts `storedInputs`, 60–200 bytes), from which the receipt
 *   and a backtest rebuild the evaluation's scores exactly.
 * No statement, trigger or table more; sessions evaluated before this migration have no receipt.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.string('evaluation_request_id', 64).nullable();
    t.text('evaluation_inputs').nullable();
    t.index(['project_id', 'evaluation_request_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.dropIndex(['project_id', 'evaluation_request_id']);
    t.dropColumn('evaluation_request_id');
    t.dropColumn('evaluation_inputs');
  });
}
