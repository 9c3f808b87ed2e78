import type { Knex } from 'knex';

/**
 * The indexes of the Search API (GET /accounts, GET /sessions and their exports,
 * docs/api-search.md). Each is the order a search pages in, led by the project and one
 * filter, so that a page is one range of one index (never a sort of the project's rows):
 *
 * - sessions (project_id, country_code, start_time, id): `country`.
 * - accounts (project_id, decision, id): `decision` (Fake accounts are few: walked in the
 *   accounts' order they would be a long walk).
 *
 * The other filters start from indexes that exist: the sessions newest first (no filter with
 * an index of its own) from retention's (project_id, start_time, id) of 0028, device_id and
 * address from the sessions' linking indexes, account_id from session_accounts, list from
 * list_members, fingerprint and device_id of accounts from identifier_accounts, email_domain
 * with decision from the accounts' domain index. Each costs the writes of its table: sessions are inserted once
 * (country_code and start_time never change), an account's decision changes rarely.
 */
const INDEXES: { table: string; columns: string[]; name: string }[] = [
  { table: 'sessions', columns: ['project_id', 'country_code', 'start_time', 'id'], name: 'sessions_search_country' },
  { table: 'accounts', columns: ['project_id', 'decision', 'id'], name: 'accounts_search_decision' },
];

export async function up(knex: Knex): Promise<void> {
  for (const { table, columns, name } of INDEXES)
    await knex.schema.alterTable(table, (t) => {
      t.index(columns, name);
    });
}

export async function down(knex: Knex): Promise<void> {
  for (const { table, columns, name } of INDEXES)
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(columns, name);
    });
}
