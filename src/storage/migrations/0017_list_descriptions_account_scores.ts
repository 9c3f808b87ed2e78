/**
 * What the Account and List APIs report in the published shapes and had nowhere to keep:
 *
 * - `lists.description`: the description given when a list is created (`list_description`).
 *   Null for the lists made before (and for the standard lists, whose description is the code's).
 * - `accounts.scores`: the four scores of the account's latest evaluated session, as JSON
 *   (`{"account_score","bot","multiple_accounts","risk_signals"}`), written with its
 *   `decision`. Null until the account's next evaluation: the scores of earlier evaluations
 *   were not kept.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('lists', (t) => {
    t.text('description').nullable();
  });
  await knex.schema.alterTable('accounts', (t) => {
    t.text('scores').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.dropColumn('scores');
  });
  await knex.schema.alterTable('lists', (t) => {
    t.dropColumn('description');
  });
}
