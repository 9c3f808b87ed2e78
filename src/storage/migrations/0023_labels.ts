import type { Knex } from 'knex';

/**
 * Labels (labelAccount): every `fraud` / `legit` label set on an account, kept as history; the
 * newest is the account's current one and the only row marked `current` (the report joins on
 * it). Who set it (`api_key:<12 hex digits>` or `cli`, as the audit records actors), when
 * (milliseconds since the epoch, the service's clock) and an optional note (personal data:
 * erasing the account deletes its labels). The audit gains the account an event concerns
 * (`account_id`, null for a project's settings), so that erasing the account removes it there too.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('labels', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 36).notNullable().unique();
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('account_id', 256).notNullable();
    t.string('label', 8).notNullable();
    t.text('note').nullable();
    t.boolean('current').notNullable();
    t.string('actor', 64).notNullable();
    t.string('request_id', 64).nullable();
    t.bigInteger('created_at').notNullable();
    // An account's labels newest first (listAccountLabels, the current one).
    t.index(['project_id', 'account_id', 'seq'], 'labels_project_account_seq');
    // The report: the project's labelled accounts, in account order.
    t.index(['project_id', 'current', 'account_id'], 'labels_project_current_account');
  });
  // One current label per account, whatever races happen (a concurrent relabel loses: 409).
  await knex.raw('CREATE UNIQUE INDEX labels_one_current ON labels (project_id, account_id) WHERE current');
  await knex.schema.alterTable('audit_events', (t) => {
    t.string('account_id', 256).nullable();
    t.index(['project_id', 'account_id'], 'audit_events_project_account');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_events', (t) => {
    t.dropIndex(['project_id', 'account_id'], 'audit_events_project_account');
    t.dropColumn('account_id');
  });
  await knex.schema.dropTableIfExists('labels');
}
