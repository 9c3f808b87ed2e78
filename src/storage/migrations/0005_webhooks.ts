import type { Knex } from 'knex';

/**
 * The webhook outbox (graphile-worker's shape: attempts, run_at, locked_by, locked_at,
 * last_error) and every delivery attempt. `session_id` is unique: one webhook per
 * verification session, enforced by the database whatever races happen.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhooks', (t) => {
    /** The envelope's request_id, sent as x-event-id on every attempt. */
    t.string('request_id', 36).primary();
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('session_id', 36).notNullable().unique();
    t.string('event_type', 64).notNullable();
    /** The exact bytes sent (the envelope's JSON); the signature covers them. */
    t.text('body').notNullable();
    /** pending → delivered, or failed when the schedule ran out or the target was refused. */
    t.string('status', 16).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.bigInteger('run_at').notNullable();
    t.string('locked_by', 64).nullable();
    t.bigInteger('locked_at').nullable();
    t.text('last_error').nullable();
    t.bigInteger('first_attempt_at').nullable();
    t.bigInteger('delivered_at').nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['status', 'run_at']);
    t.index(['project_id', 'created_at']);
  });
  await knex.schema.createTable('webhook_attempts', (t) => {
    t.string('request_id', 36).notNullable().references('request_id').inTable('webhooks').onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.bigInteger('at').notNullable();
    t.string('worker', 64).notNullable();
    t.integer('status_code').nullable();
    t.integer('latency_ms').notNullable();
    t.text('error').nullable();
    t.primary(['request_id', 'attempt']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_attempts');
  await knex.schema.dropTableIfExists('webhooks');
}
