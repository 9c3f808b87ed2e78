import type { Knex } from 'knex';

/**
 * The audit of changes to a project's settings (PATCH /project, `trustgate project set`): who
 * (`api_key:<12 hex digits of the key's SHA-256>` or `cli`), when (milliseconds since the
 * epoch, the service's clock), and each changed setting before and after (JSON). Written in the
 * transaction of the change. `seq` orders the events and is the cursor of GET /audit.
 * `projects.settings_version` counts the changes: a change is written only over the version it
 * was decided on (no lost update between two concurrent changes). On PostgreSQL,
 * `decision_threshold` becomes a double precision as it is on SQLite (REAL): a real (4 bytes)
 * does not keep the threshold that was set (0.7 became 0.699999988) and refuses numbers below
 * 1e-38 that JSON allows.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg')
    await knex.raw('ALTER TABLE projects ALTER COLUMN decision_threshold TYPE double precision');
  await knex.schema.alterTable('projects', (t) => {
    t.integer('settings_version').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('audit_events', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 36).notNullable().unique();
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('actor', 64).notNullable();
    t.string('action', 64).notNullable();
    t.string('request_id', 64).nullable();
    t.text('changes').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['project_id', 'seq'], 'audit_events_project_seq');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('audit_events');
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('settings_version');
  });
  if (knex.client.config.client === 'pg')
    await knex.raw('ALTER TABLE projects ALTER COLUMN decision_threshold TYPE real');
}
