import type { Knex } from 'knex';

/**
 * Cases (docs/cases.md): an account, or a group of linked accounts, under review. `cases` keeps
 * the case (status, outcome, reason, who or which rule opened it, the scores and signals then as
 * JSON, assignee, the list closing put its accounts on, a version counted up by each change;
 * times in milliseconds since the epoch). `sort_score` is the snapshot's account score (-1
 * without one), so that the queue's "riskiest first" reads an index. `case_accounts` holds each
 * case's accounts in order (the first is the one it opened for); `active_account_id` is the
 * account while the case is active and null once it is closed: its unique index keeps an
 * account in one active case at most, whatever races happen. `case_notes` are the analysts'
 * notes (personal data: they go with the case when its accounts are erased).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('cases', (t) => {
    t.string('id', 36).primary();
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('status', 16).notNullable();
    t.string('outcome', 8).nullable();
    t.text('reason').notNullable();
    t.string('opened_by', 80).notNullable();
    t.string('rule_id', 64).nullable();
    t.text('snapshot').nullable();
    t.double('sort_score').notNullable();
    t.string('assignee', 36).nullable();
    t.string('list', 16).nullable();
    t.integer('version').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.bigInteger('closed_at').nullable();
    t.string('closed_by', 80).nullable();
    // The queue: oldest or newest first, and riskiest first (the status is filtered on the way).
    t.index(['project_id', 'created_at', 'id'], 'cases_project_created');
    t.index(['project_id', 'sort_score', 'id'], 'cases_project_score');
  });
  await knex.schema.createTable('case_accounts', (t) => {
    t.string('case_id', 36).notNullable().references('id').inTable('cases').onDelete('CASCADE');
    t.string('project_id', 36).notNullable();
    t.string('account_id', 256).notNullable();
    t.integer('position').notNullable();
    t.string('active_account_id', 256).nullable();
    t.primary(['case_id', 'position']);
    // An account's cases (its page, erasure).
    t.index(['project_id', 'account_id'], 'case_accounts_project_account');
    // One active case per account: NULLs (closed cases) are distinct on both engines.
    t.unique(['project_id', 'active_account_id'], { indexName: 'case_accounts_one_active' });
  });
  await knex.schema.createTable('case_notes', (t) => {
    t.string('id', 36).primary();
    t.string('case_id', 36).notNullable().references('id').inTable('cases').onDelete('CASCADE');
    t.string('project_id', 36).notNullable();
    t.string('author', 80).notNullable();
    t.text('text').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['case_id', 'created_at'], 'case_notes_case_created');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('case_notes');
  await knex.schema.dropTableIfExists('case_accounts');
  await knex.schema.dropTableIfExists('cases');
}
