import type { Knex } from 'knex';

/**
 * The images captured on the hosted page. The image itself is in the media store (encrypted);
 * this row says which session and which step it belongs to. A later capture of the same kind
 * replaces the earlier one for analysis (the newest row wins).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('verification_captures', (t) => {
    t.string('id', 36).primary();
    t.string('session_id', 36).notNullable().references('id').inTable('verification_sessions').onDelete('CASCADE');
    /** selfie, id_front or id_back. */
    t.string('kind', 16).notNullable();
    /** The id of the image in the media store. */
    t.string('media_id', 36).notNullable();
    /** As detected from the image's first bytes. */
    t.string('content_type', 32).notNullable();
    t.integer('size').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['session_id', 'kind', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('verification_captures');
}
