import type { Knex } from 'knex';

/**
 * The single-use challenges of POST /ingest/challenge, shared by every process on the database:
 * the first session post bound to one consumes it with one conditional update, so single use
 * holds across processes. Times are milliseconds since the epoch (the service's clock, never
 * the database's). Rows go an hour after they expire (ingest-challenges.ts deleteExpired).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ingest_challenges', (t) => {
    t.string('id', 32).primary();
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    /** The HMAC key, 32 bytes in lower-case hex: handed to the client that asked, never logged. */
    t.string('key', 64).notNullable();
    t.bigInteger('expires_at').notNullable();
    /** The session the challenge made; null until consumed. */
    t.string('session_id', 36).nullable();
    t.bigInteger('consumed_at').nullable();
    t.index(['expires_at'], 'ingest_challenges_expires_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('ingest_challenges');
}
