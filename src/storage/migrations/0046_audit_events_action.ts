/**
 * `audit_events (project_id, action, seq)`: an account's erasure finds the ring blocks
 * (`ring.blocked`) that named it among the accounts they blocked by this index, without reading
 * the project's other events (an API-driven project may hold many list changes).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_events', (t) => {
    t.index(['project_id', 'action', 'seq'], 'audit_events_project_action_seq');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_events', (t) => {
    t.dropIndex(['project_id', 'action', 'seq'], 'audit_events_project_action_seq');
  });
}
