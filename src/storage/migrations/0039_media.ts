/**
 * `media`: the captured images of a PostgreSQL installation, one row an image, so that every
 * node of the database reads the images any node stored (before, each node kept its own on its
 * disk; main.ts moves them in at start-up). SQLite installations keep their files (one machine);
 * the table is made there too, as every migration is the same on both engines.
 *
 * `sealed` is text, not bytea: it holds the secret box's sealed text of the image and its type,
 * exactly as the files hold it, so the secret box seals both the same way and the import copies a
 * file's text into its row unchanged. Its base64 costs about a third more than bytes would; an
 * image is at most 8 MB.
 *
 * `created_at` (ms) is the capture's time. Retention and erasures find an image through its
 * capture row (the session's age), never through this table; the time is there to tell an
 * image whose capture row never committed (a crash between the two writes) from a fresh one.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('media', (t) => {
    t.string('id', 36).primary();
    t.text('sealed').notNullable();
    t.bigInteger('created_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('media');
}
