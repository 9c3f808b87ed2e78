/**
 * `accounts.last_request_id` and `accounts.last_evaluated_at`: which evaluation gave the account
 * its `decision` and `scores`, and when (epoch milliseconds), so that the account can say what
 * decided it and its receipt can be read. Null for accounts last evaluated before they were kept.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.text('last_request_id');
    t.bigInteger('last_evaluated_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.dropColumn('last_request_id');
    t.dropColumn('last_evaluated_at');
  });
}
