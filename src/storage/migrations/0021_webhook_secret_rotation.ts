import type { Knex } from 'knex';

/**
 * A rotated webhook secret (rotateWebhookSecret) keeps signing deliveries, beside the new one,
 * until `webhook_secret_previous_until` (milliseconds since the epoch, the service's clock).
 * Its own migration: 0020 was already merged without these columns.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    /** The webhook secret being rotated out (encrypted, as webhook_secret_encrypted). */
    t.text('webhook_secret_previous_encrypted').nullable();
    t.bigInteger('webhook_secret_previous_until').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('webhook_secret_previous_encrypted');
    t.dropColumn('webhook_secret_previous_until');
  });
}
