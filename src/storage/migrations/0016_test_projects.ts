/**
 * Live and test projects (docs/test-mode.md). A test project's API keys start `tg_test_`, and in
 * it documented account ids force an evaluation's or a verification's outcome; its data is its
 * own, like every project's. Every project made before this migration is live: the column's
 * default fills them in, on both engines.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.boolean('test').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('test');
  });
}
