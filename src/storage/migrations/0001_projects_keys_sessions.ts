import type { Knex } from 'knex';

// Times are stored as BIGINT milliseconds since the epoch: the same on SQLite and PostgreSQL,
// compared and indexed as numbers, and never taken from the database's own clock.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('projects', (t) => {
    t.string('id', 36).primary();
    t.string('name', 256).notNullable();
    t.float('decision_threshold').notNullable().defaultTo(0.8);
    t.boolean('groups_enabled').notNullable().defaultTo(false);
    t.string('webhook_url', 2048).nullable();
    /** AES-256-GCM ciphertext of the webhook secret (see src/security/secrets.ts). */
    t.text('webhook_secret_encrypted').notNullable();
    t.bigInteger('created_at').notNullable();
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.string('id', 36).primary();
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    /** SHA-256 of the key, hex. The key itself is shown once and never stored. */
    t.string('key_hash', 64).notNullable().unique();
    /** The first characters of the key, to tell keys apart in listings. */
    t.string('key_prefix', 16).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('revoked_at').nullable();
    t.index(['project_id']);
  });

  await knex.schema.createTable('sessions', (t) => {
    t.string('id', 36).primary();
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('source', 16).nullable();
    t.string('source_version', 64).nullable();
    t.string('device_id', 128).notNullable();
    t.string('ip_address', 45).notNullable();
    t.bigInteger('start_time').notNullable();
    t.bigInteger('updated_at').notNullable();
    /** The enriched session (the spec's EvaluatedSession shape) as JSON. */
    t.text('facts').notNullable();
    t.index(['project_id', 'start_time']);
    t.index(['project_id', 'device_id']);
  });

  await knex.schema.createTable('session_accounts', (t) => {
    t.string('session_id', 36).notNullable().references('id').inTable('sessions').onDelete('CASCADE');
    t.string('project_id', 36).notNullable();
    t.string('account_id', 256).notNullable();
    t.bigInteger('created_at').notNullable();
    t.primary(['session_id', 'account_id']);
    t.index(['project_id', 'account_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('session_accounts');
  await knex.schema.dropTableIfExists('sessions');
  await knex.schema.dropTableIfExists('api_keys');
  await knex.schema.dropTableIfExists('projects');
}
