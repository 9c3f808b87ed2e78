import type { Knex } from 'knex';

/**
 * What verifications leave behind to be matched against later ones: the face of each
 * completed session (its embedding, sealed by the secret box: a biometric template is personal
 * data) and each document's keys (keyed digests of its number and of its holder's name and
 * date of birth, never the values). Rows go with the account when it is deleted.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('verification_faces', (t) => {
    t.string('session_id', 36).primary().references('id').inTable('verification_sessions').onDelete('CASCADE');
    t.string('project_id', 36).notNullable();
    t.string('account_id', 256).nullable();
    /** Float32 embedding, base64, sealed (AES-256-GCM). */
    t.text('embedding').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['project_id', 'account_id']);
  });
  await knex.schema.createTable('verification_documents', (t) => {
    t.string('session_id', 36).primary().references('id').inTable('verification_sessions').onDelete('CASCADE');
    t.string('project_id', 36).notNullable();
    t.string('account_id', 256).nullable();
    /** Keyed digest of the issuing country and the document number. */
    t.string('number_key', 64).nullable();
    /** Keyed digest of the holder's folded name and date of birth. */
    t.string('name_key', 64).nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['project_id', 'number_key']);
    t.index(['project_id', 'name_key']);
    t.index(['project_id', 'account_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('verification_documents');
  await knex.schema.dropTableIfExists('verification_faces');
}
