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
  // The console's webhooks page (listWebhookDeliveries, getWebhookDelivery): a project's
  // deliveries newest first, a page at a time from a keyset cursor (created_at, request_id),
  // all of them or those of one status; and the first 512 bytes of each attempt's answer.
  await knex.schema.alterTable('webhooks', (t) => {
    t.index(['project_id', 'created_at', 'request_id'], 'webhooks_project_page');
    t.index(['project_id', 'status', 'created_at', 'request_id'], 'webhooks_project_status_page');
  });
  await knex.schema.alterTable('webhook_attempts', (t) => {
    t.text('answer').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_attempts', (t) => {
    t.dropColumn('answer');
  });
  await knex.schema.alterTable('webhooks', (t) => {
    t.dropIndex([], 'webhooks_project_status_page');
    t.dropIndex([], 'webhooks_project_page');
  });
  await knex.schema.dropTable('evaluation_counts');
}
