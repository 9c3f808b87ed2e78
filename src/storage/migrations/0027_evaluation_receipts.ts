import type { Knex } from 'knex';

/**
 * Receipts (`GET /evaluation/{request_id}`, docs/rules.md): one row per authenticate and
 * unauthenticated answer, keyed (project_id, request_id), with (project_id, created_at) indexed
 * so that a backtest reads a project's time range and a retention job deletes old ones in
 * batches, and (project_id, account_id) so that erasing an account deletes its receipts. Beside
 * the receipt, `rule_subject`: the fields rules can name, as the evaluation's rules read them
 * (domain/evaluation/rules.ts `replayableSubject`), so that `POST /rules/test` replays a draft
 * document exactly, without gathering facts again.
 *
 * The evaluation's write stays within its statement budget (docs/pipeline.md): the statement
 * that recorded the evaluation on the session (`UPDATE sessions …`) is now the receipt's
 * `INSERT`, and a trigger of this table records the evaluation on the session from the row
 * (decision, account_score, evaluated_at, risk_scores, rules_outcome), in the same statement and
 * transaction. One statement, two rows written, as before one statement and one row. SQLite
 * and PostgreSQL spell the trigger differently; it does the same on both.
 */
const RECORD = `UPDATE sessions SET decision = NEW.decision, account_score = NEW.account_score,
      evaluated_at = NEW.created_at, risk_scores = NEW.risk_scores, rules_outcome = NEW.rules_outcome
      WHERE id = NEW.session_id AND project_id = NEW.project_id`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('evaluation_receipts', (t) => {
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('request_id', 36).notNullable();
    t.string('session_id', 36).notNullable();
    t.string('account_id', 256).nullable();
    t.bigInteger('created_at').notNullable();
    t.string('decision', 8).notNullable();
    t.float('account_score').notNullable();
    t.text('risk_scores').notNullable();
    t.text('rules_outcome').nullable();
    t.text('receipt').notNullable();
    t.text('rule_subject').notNullable();
    t.primary(['project_id', 'request_id']);
    t.index(['project_id', 'created_at']);
    t.index(['project_id', 'account_id']);
  });
  if (knex.client.config.client === 'pg') {
    await knex.raw(`
      CREATE FUNCTION trustgate_receipt_records_session() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${RECORD};
        RETURN NULL;
      END
      $$`);
    await knex.raw(`CREATE TRIGGER evaluation_receipts_record_session AFTER INSERT ON evaluation_receipts
      FOR EACH ROW EXECUTE FUNCTION trustgate_receipt_records_session()`);
  } else {
    await knex.raw(`CREATE TRIGGER evaluation_receipts_record_session AFTER INSERT ON evaluation_receipts
      BEGIN ${RECORD}; END`);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('evaluation_receipts');
  if (knex.client.config.client === 'pg') await knex.raw('DROP FUNCTION IF EXISTS trustgate_receipt_records_session()');
}
