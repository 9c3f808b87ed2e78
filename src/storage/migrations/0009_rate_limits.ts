import type { Knex } from 'knex';

/**
 * The rate limits' counters, shared by every process on the database: one row per limited key
 * (a SHA-256 of the limiter's name and its key: API key hash, client address or project id)
 * and fixed 60-second window. The primary key starts with the window, so that one upsert
 * counts a request and dropping past windows is a range delete on that index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limits', (t) => {
    /** Start of the window, milliseconds since the epoch (a multiple of 60,000). */
    t.bigInteger('window_start').notNullable();
    t.string('key', 64).notNullable();
    t.integer('hits').notNullable();
    t.primary(['window_start', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limits');
}
