/**
 * `projects.link_score_floor`: the confidence a link must reach to be a linked account (the
 * project's own, 0.1 until it chooses: domain/linking DEFAULT_LINK_SCORE_FLOOR). A double
 * precision on PostgreSQL (REAL on SQLite), so the value read back is the one written.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.double('link_score_floor').notNullable().defaultTo(0.1);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('link_score_floor');
  });
}
