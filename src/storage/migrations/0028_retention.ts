/**
 * Retention (docs/deploy.md, "Retention"): per project, how many days sessions (with their
 * evaluations), verification media and delivered webhooks are kept; null keeps them (every
 * existing project, so an upgrade deletes nothing by itself). The worker removes what is due in
 * small batches (usecases/retention.ts), each found through an index here:
 *
 * - `sessions (project_id, start_time, id)`: the project's oldest sessions first, a range of the
 *   index under the batch's LIMIT. The device's and the address's searches keep their own
 *   indexes (two equalities beat this one's single one; test/storage/query-plans.test.ts).
 * - `verification_sessions.media_erased_at`: when retention erased the session's media and
 *   result (null until then), led by it in `(project_id, media_erased_at, created_at)` so that a
 *   pass reads the sessions still to erase, not every one erased before.
 * - Delivered webhooks are found by `webhooks (project_id, created_at)` (migration 0005).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.integer('retention_sessions_days').nullable();
    t.integer('retention_verification_media_days').nullable();
    t.integer('retention_delivered_webhooks_days').nullable();
  });
  await knex.schema.alterTable('sessions', (t) => {
    t.index(['project_id', 'start_time', 'id'], 'sessions_project_start_id');
  });
  await knex.schema.alterTable('verification_sessions', (t) => {
    t.bigInteger('media_erased_at').nullable();
    t.index(['project_id', 'media_erased_at', 'created_at'], 'verification_sessions_project_erased_created');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('verification_sessions', (t) => {
    t.dropIndex(['project_id', 'media_erased_at', 'created_at'], 'verification_sessions_project_erased_created');
    t.dropColumn('media_erased_at');
  });
  await knex.schema.alterTable('sessions', (t) => {
    t.dropIndex(['project_id', 'start_time', 'id'], 'sessions_project_start_id');
  });
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('retention_sessions_days');
    t.dropColumn('retention_verification_media_days');
    t.dropColumn('retention_delivered_webhooks_days');
  });
}
