import type { Knex } from 'knex';

/**
 * Verification sessions (Face Match, ID Check). A session is `open` until its one terminal
 * transition, a conditional update (`WHERE state = 'open'`) made in the same transaction as
 * its webhook's outbox row: whichever terminal event comes first wins, every later one changes
 * nothing, and the outbox's unique session_id holds even across processes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('verification_sessions', (t) => {
    t.string('id', 36).primary();
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('type', 16).notNullable();
    t.string('account_id', 256).nullable();
    t.string('referring_session_id', 36).nullable();
    t.string('redirect_url', 2048).nullable();
    /** SHA-256 of the capture token; the token itself is only in the hosted page's URL. */
    t.string('token_hash', 64).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    /** open → ended. */
    t.string('state', 8).notNullable();
    /** success, or the webhook error code. */
    t.string('outcome', 32).nullable();
    /** The verification result (JSON) on success. */
    t.text('result').nullable();
    /** The webhook's request_id, set by the terminal transition. */
    t.string('webhook_request_id', 36).nullable().unique();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('ended_at').nullable();
    t.index(['state', 'expires_at']);
    t.index(['project_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('verification_sessions');
}
