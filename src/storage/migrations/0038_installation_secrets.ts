/**
 * `installation_secrets`: the installation's own keys (the keyed digest's, the media URLs'), each
 * sealed with the secret key, kept in the database so that every node of one database uses the
 * same ones, and a node whose secret key cannot open them knows it is not one of them.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('installation_secrets', (t) => {
    t.string('name', 64).primary();
    t.text('sealed').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('installation_secrets');
}
