import type { Knex } from 'knex';
import { ipBlock } from './frozen/ip-block';

/**
 * The risk engine's tables: accounts (with the normalised identifiers that linking searches,
 * each indexed), lists and their members, and on sessions the columns that linking and the
 * fraud history search (address block, network kind, native device ids) and the latest
 * evaluation (decision, score). Every search the engine makes is by an index.
 *
 * The indexes are shaped for SQLite's planner as the service runs it: without ANALYZE, it takes
 * `project_id = ?` to match about 10 rows, whereas a self-hosted service usually has one project
 * and that term matches every row. An index that can answer a query from `project_id` alone, in
 * the order the query wants or covering it, can therefore win over the selective one and read
 * the whole table. test/storage/query-plans.test.ts checks the plan of every statement of an
 * evaluation on SQLite and PostgreSQL; the reason for each index is next to it.
 */
export async function up(knex: Knex): Promise<void> {
  await createAccounts(knex);
  await createLists(knex);
  await extendSessions(knex);
  await backfillSessions(knex);
}

/** The accounts, and how many there are at each email domain. */
async function createAccounts(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts', (t) => {
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('id', 256).notNullable();
    t.string('email', 320).nullable();
    t.string('email_key', 320).nullable();
    t.string('email_domain', 255).nullable();
    t.string('phone', 32).nullable();
    t.string('phone_key', 32).nullable();
    t.string('first_name', 256).nullable();
    t.string('last_name', 256).nullable();
    t.string('name_key', 520).nullable();
    t.string('username', 256).nullable();
    t.string('username_key', 256).nullable();
    /** JSON arrays / objects. */
    t.text('expected_countries').notNullable();
    t.text('metadata').notNullable();
    t.string('group_name', 256).nullable();
    /** Latest decision of a session authenticated with the account (null before any). */
    t.string('decision', 8).nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.primary(['project_id', 'id']);
    t.index(['project_id', 'email_key']);
    // With `id` the index covers countAtDomain and fraudAtDomain (`id <> ?` is tested in the
    // index, not by reading each account at the domain).
    t.index(['project_id', 'email_domain', 'decision', 'id']);
    t.index(['project_id', 'phone_key']);
    t.index(['project_id', 'username_key']);
    t.index(['project_id', 'name_key']);
  });

  // How many accounts have an address at each domain: kept by the account repository on every
  // write, so num_account_from_domain is one row read, not a count over (say) every gmail.com account.
  await knex.schema.createTable('email_domains', (t) => {
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('domain', 255).notNullable();
    t.integer('num_accounts').notNullable();
    t.primary(['project_id', 'domain']);
  });
}

/** The lists and their members. */
async function createLists(knex: Knex): Promise<void> {
  await knex.schema.createTable('lists', (t) => {
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('name', 64).notNullable();
    t.boolean('standard').notNullable().defaultTo(false);
    t.bigInteger('created_at').notNullable();
    t.primary(['project_id', 'name']);
  });

  await knex.schema.createTable('list_members', (t) => {
    t.string('project_id', 36).notNullable();
    t.string('list_name', 64).notNullable();
    t.string('account_id', 256).notNullable();
    t.bigInteger('added_at').notNullable();
    // Led by the account: the engine asks which lists accounts are on (lists.ofAccounts, with
    // many ids) and joins members by account (the block list in signalHistory and fraudCount).
    // Led by the project, this key would answer `project_id = ? AND account_id IN (...)` from
    // project_id alone (covering, in list_name order): every membership of the project.
    t.primary(['account_id', 'project_id', 'list_name']);
    // Paging a list (lists.members) in account order. project_id is deliberately not in it:
    // covering, it would lead signalHistory's join through the whole block list once per
    // session of the address, instead of from each session's accounts to their memberships.
    t.index(['list_name', 'account_id']);
  });
}

/** What linking, the fraud history and the latest evaluation read on sessions, and its indexes. */
async function extendSessions(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.string('ip_block', 64).nullable();
    t.string('connection_type', 16).nullable();
    t.string('country_code', 2).nullable();
    t.string('mobile_id', 128).nullable();
    /** SHA-256 of the Apple DeviceCheck token (the token itself is not kept). */
    t.string('apple_device_key', 64).nullable();
    t.string('decision', 8).nullable();
    t.float('account_score').nullable();
    t.bigInteger('evaluated_at').nullable();
    /** The latest evaluation's risk signal scores and spoofed_ip flag, JSON. */
    t.text('risk_scores').nullable();
    t.index(['project_id', 'ip_address', 'start_time']);
    t.index(['project_id', 'ip_block', 'start_time']);
    t.index(['project_id', 'mobile_id']);
    t.index(['project_id', 'apple_device_key']);
    // A device's sessions in time order: previousSession of a device is one seek, no sort.
    // It replaces (project_id, device_id), its prefix (accountsSharing by device uses that).
    t.index(['project_id', 'device_id', 'start_time']);
    t.dropIndex(['project_id', 'device_id']);
    // (project_id, start_time) serves no query, and SQLite picked it for previousSession
    // (ORDER BY start_time DESC LIMIT 1, without a sort): it walked back through every older
    // session of the project until one was the account's or the device's.
    t.dropIndex(['project_id', 'start_time']);
    // history.evaluations (`project_id = ? AND id IN (...)`): only a unique index with every
    // column bound beats a project_id-led index in SQLite's guess; the primary key is `id` alone.
    t.unique(['project_id', 'id']);
  });
  await knex.schema.alterTable('session_accounts', (t) => {
    // An account's sessions (accountSessions, accountSummary, previousSession, seen): covering,
    // so each session is found from the index without reading the link row first. It replaces
    // (project_id, account_id), its prefix.
    t.index(['project_id', 'account_id', 'session_id']);
    t.dropIndex(['project_id', 'account_id']);
  });
}

/** Sessions stored before this migration: their address block (frozen/) and network kind. */
async function backfillSessions(knex: Knex): Promise<void> {
  const rows: { id: string; ip_address: string; facts: string }[] = await knex('sessions').select(
    'id',
    'ip_address',
    'facts',
  );
  for (const row of rows) {
    const facts = JSON.parse(row.facts) as {
      network?: { connection_type?: string };
      location?: { country_code?: string };
    };
    await knex('sessions')
      .where({ id: row.id })
      .update({
        ip_block: ipBlock(row.ip_address) ?? null,
        connection_type: facts.network?.connection_type ?? null,
        country_code: facts.location?.country_code ?? null,
      });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('session_accounts', (t) => {
    t.index(['project_id', 'account_id']);
    t.dropIndex(['project_id', 'account_id', 'session_id']);
  });
  await knex.schema.alterTable('sessions', (t) => {
    t.index(['project_id', 'start_time']);
    t.index(['project_id', 'device_id']);
    t.dropIndex(['project_id', 'device_id', 'start_time']);
    t.dropUnique(['project_id', 'id']);
    t.dropIndex(['project_id', 'ip_address', 'start_time']);
    t.dropIndex(['project_id', 'ip_block', 'start_time']);
    t.dropIndex(['project_id', 'mobile_id']);
    t.dropIndex(['project_id', 'apple_device_key']);
    for (const c of [
      'ip_block',
      'connection_type',
      'country_code',
      'mobile_id',
      'risk_scores',
      'apple_device_key',
      'decision',
      'account_score',
      'evaluated_at',
    ])
      t.dropColumn(c);
  });
  await knex.schema.dropTableIfExists('list_members');
  await knex.schema.dropTableIfExists('lists');
  await knex.schema.dropTableIfExists('email_domains');
  await knex.schema.dropTableIfExists('accounts');
}
