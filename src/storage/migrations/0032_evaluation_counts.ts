import type { Knex } from 'knex';

/**
 * The overview's kept counts (getStats, docs/console.md): per project and UTC day, how many
 * evaluations were decided Real and Fake (`metric` `decision:Real`, `decision:Fake`) and how
 * many raised each risk signal (`signal:<name>`). Each evaluation adds one to its counts in its
 * process's memory, and the process adds them here with one upsert every few seconds
 * (usecases/stats-flusher.ts), so the overview reads one range of the primary key, a few rows a
 * day, never the sessions. No personal data: counts only. Days before this
 * migration are not counted (the sessions' JSON is not re-read here; the overview starts empty).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('evaluation_counts', (t) => {
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('day', 10).notNullable();
    t.string('metric', 64).notNullable();
    t.bigInteger('count').notNullable();
    t.primary(['project_id', 'day', 'metric']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('evaluation_counts');
}
