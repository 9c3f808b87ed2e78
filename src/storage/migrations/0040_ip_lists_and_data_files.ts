/**
 * What several nodes of one database share of the network data:
 * - `ip_list_texts`: the operator's and the synced IP lists, one text per list and source, with
 *   a version every write moves (a node polls the versions and reads again what changed; an
 *   edit writes over the version it read);
 * - `node_data_files`: the digest of each IP data file (GeoIP city, ASN, hosting ASNs) each
 *   node loaded, with when it last said so, for telling nodes that loaded different files.
 * Created on SQLite too (one schema); only PostgreSQL installations use them.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ip_list_texts', (t) => {
    t.string('list', 32).notNullable();
    t.string('source', 16).notNullable();
    t.text('text').notNullable();
    t.integer('version').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.primary(['list', 'source']);
  });
  await knex.schema.createTable('node_data_files', (t) => {
    t.string('node', 200).notNullable();
    t.string('file', 32).notNullable();
    t.string('sha256', 64).notNullable();
    t.bigInteger('seen_at').notNullable();
    t.primary(['node', 'file']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('node_data_files');
  await knex.schema.dropTable('ip_list_texts');
}
