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
  // Both engines drop a column in place. knex's SQLite dropColumn copies the table and renames
  // it back, which the triggers on accounts' dependants (list_members) refuse.
  for (const column of ['last_request_id', 'last_evaluated_at'])
    await knex.raw(`ALTER TABLE accounts DROP COLUMN ${column}`);
}
