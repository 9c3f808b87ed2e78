import type { Knex } from 'knex';

/** Marks the project that the /demo page uses, so it is never mistaken for a customer's. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.boolean('demo').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('demo');
  });
}
