import type { Knex } from 'knex';

/**
 * Rules as code (docs/rules.md): every version of a project's rules document is kept
 * (`project_rules`, one row per version, never changed: what an evaluation's `rules.version`
 * names stays readable, for a backtest), and `projects.rules_version` names the current one.
 * `PUT /rules` counts it up only over the version it read (no lost update) and inserts the
 * new row, with its audit event, in one transaction. The API key's project is read with its
 * current document in one statement (a join on the primary key), so the rules come with the
 * cached project and an evaluation reads nothing more. Sessions keep what the rules did to
 * their latest evaluation (`rules_outcome`, JSON: version, matched, decided_by, tags).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.integer('rules_version').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('project_rules', (t) => {
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.text('document').notNullable();
    t.string('actor', 64).notNullable();
    t.bigInteger('created_at').notNullable();
    t.primary(['project_id', 'version']);
  });
  await knex.schema.alterTable('sessions', (t) => {
    t.text('rules_outcome').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.dropColumn('rules_outcome');
  });
  await knex.schema.dropTableIfExists('project_rules');
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('rules_version');
  });
}
