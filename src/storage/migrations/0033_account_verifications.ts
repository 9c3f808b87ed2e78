/**
 * An account's verification sessions, newest first (GET /account/{account_id}/verifications,
 * the console's account page): `verification_sessions (project_id, account_id, created_at)`.
 * Without it the read walked the project's sessions by `(project_id, created_at)` checking each
 * one's account; the account's erasure (`forgetAccount`) finds its sessions through it too.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('verification_sessions', (t) => {
    t.index(['project_id', 'account_id', 'created_at'], 'verification_sessions_project_account_created');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('verification_sessions', (t) => {
    t.dropIndex(['project_id', 'account_id', 'created_at'], 'verification_sessions_project_account_created');
  });
}
