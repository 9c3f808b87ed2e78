import type { Knex } from 'knex';

/** The SDK's raw facts beside the enriched ones, and the browser fingerprint for linking. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.string('browser_fingerprint', 128).nullable();
    /** The merged IngestSession posts (without session_id) as JSON. */
    t.text('sdk').nullable();
    t.index(['project_id', 'browser_fingerprint']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.dropIndex(['project_id', 'browser_fingerprint']);
    t.dropColumn('sdk');
    t.dropColumn('browser_fingerprint');
  });
}
