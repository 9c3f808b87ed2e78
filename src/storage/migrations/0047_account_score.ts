/**
 * `accounts.account_score`: the account score of the account's latest evaluation (the
 * `account_score` of its `scores` JSON), in a column of its own, and the index
 * (project_id, account_score, id) that `GET /accounts?sort=score` pages backwards: riskiest
 * first, a page one range of it after the cursor's (score, id), as id order is one range of the
 * primary key (docs/api-search.md). The evaluation writes the column with the scores, in the
 * same statement; the score range filters read it instead of the JSON.
 *
 * The existing accounts are filled from their JSON here, once (every evaluated row is
 * rewritten). Unevaluated accounts keep null, which the score order leaves out.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.double('account_score');
  });
  const pg = knex.client.config.client === 'pg';
  await knex.raw(
    pg
      ? `UPDATE accounts SET account_score = (scores::jsonb ->> 'account_score')::float8 WHERE scores IS NOT NULL`
      : `UPDATE accounts SET account_score = json_extract(scores, '$.account_score') WHERE scores IS NOT NULL`,
  );
  await knex.raw('CREATE INDEX accounts_search_score ON accounts (project_id, account_score, id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX accounts_search_score');
  // In place on both engines (knex's SQLite dropColumn copies the table, which the triggers on
  // accounts' dependants refuse; see 0043).
  await knex.raw('ALTER TABLE accounts DROP COLUMN account_score');
}
