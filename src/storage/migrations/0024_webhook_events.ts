import type { Knex } from 'knex';

/**
 * The webhook events a project subscribes to (`webhook_events` of GET/PATCH /project): a JSON
 * array of event types, null for the default (the two verification events, what every project
 * was sent before), so existing projects behave as before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.text('webhook_events').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('webhook_events');
  });
}
