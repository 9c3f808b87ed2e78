import type { Knex } from 'knex';

/**
 * Drafts of a project's rules document (docs/rules.md, "Drafts and four-eyes"): a whole
 * document proposed over the version its author read (`base_version`), by `author` (as the
 * audit names actors), waiting for an admin other than its author. `status` is what was decided:
 * `pending`, `published` (then `published_version` names the version it became) or `rejected`
 * (with `reason`), by `decided_by` at `decided_at`; a pending draft whose base the rules moved
 * past reads as superseded, computed, not stored. Times are milliseconds since the epoch, the
 * service's clock. The list is newest first per project: (project_id, created_at, id).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rule_drafts', (t) => {
    t.string('id', 36).primary();
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.integer('base_version').notNullable();
    t.text('document').notNullable();
    t.text('note').nullable();
    t.string('author', 64).notNullable();
    t.bigInteger('created_at').notNullable();
    t.string('status', 16).notNullable();
    t.string('decided_by', 64).nullable();
    t.bigInteger('decided_at').nullable();
    t.text('reason').nullable();
    t.integer('published_version').nullable();
    t.index(['project_id', 'created_at', 'id'], 'rule_drafts_project_created');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rule_drafts');
}
