/**
 * What a first authenticate writes, made smaller (docs/pipeline.md, *What a first authenticate
 * writes*: every B-tree a commit touches costs at least a page written into SQLite's log):
 * - `session_accounts (project_id, account_id, session_id)` dropped: every reader of an account's
 *   links reads them from `(project_id, account_id, session_start, session_id)` (0012), or a
 *   session's from the primary key; the console's search named it for an account's addresses,
 *   and takes the other now. A link written touched one B-tree more for it.
 * - `sessions (project_id, evaluation_request_id)` made partial (`IS NOT NULL`): a receipt is
 *   looked up by its request id, never by its absence, and an evaluation moved a session's entry
 *   from NULL to its id, taking it from among the entries of every session not yet evaluated.
 *   Both engines use a partial index for `= ?`.
 * - SQLite: `account_uniques` rebuilt `WITHOUT ROWID`: its rows are small and found by their
 *   primary key, which a rowid table keeps as an index beside the table (two B-trees written a
 *   row, each key stored twice); without the rowid the key is the table. (`identifier_accounts`
 *   stays: without statistics SQLite would then delete an account's rows by the project's range
 *   of the primary key instead of the account's index; the query-plan test shows it.)
 *   PostgreSQL keeps heap and primary key as it does for every table.
 */
import type { Knex } from 'knex';

const REQUEST_INDEX = 'sessions_evaluation_request_id';
const KEYED = ['account_uniques'];

const pg = (knex: Knex) => knex.client.config.client === 'pg';

/**
 * SQLite: `table` made again from its stored schema, with or without a rowid: its rows copied,
 * its indexes made again, and the triggers that name it dropped first and made again after.
 */
async function rebuild(knex: Knex, table: string, withoutRowid: boolean): Promise<void> {
  type Entry = { type: string; name: string; sql: string | null };
  const schema: Entry[] = await knex.raw(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL`);
  const create = schema.find((e) => e.type === 'table' && e.name === table)?.sql;
  if (!create) throw new Error(`no table ${table}`);
  const indexes = schema.filter((e) => e.type === 'index' && new RegExp(` on \`?${table}\`? `, 'i').test(e.sql!));
  const triggers = schema.filter((e) => e.type === 'trigger' && e.sql!.includes(table));
  const body = create.replace(/\s*WITHOUT ROWID\s*$/i, '').replace(/^CREATE TABLE [`"]?\w+[`"]?/i, '');
  for (const t of triggers) await knex.raw(`DROP TRIGGER ${t.name}`);
  await knex.raw(`CREATE TABLE ${table}_rebuilt ${body}${withoutRowid ? ' WITHOUT ROWID' : ''}`);
  await knex.raw(`INSERT INTO ${table}_rebuilt SELECT * FROM ${table}`);
  await knex.raw(`DROP TABLE ${table}`);
  await knex.raw(`ALTER TABLE ${table}_rebuilt RENAME TO ${table}`);
  for (const e of [...indexes, ...triggers]) await knex.raw(e.sql!);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('session_accounts', (t) => {
    t.dropIndex(['project_id', 'account_id', 'session_id']);
  });
  await knex.schema.alterTable('sessions', (t) => {
    t.dropIndex(['project_id', 'evaluation_request_id']);
  });
  await knex.raw(
    `CREATE INDEX ${REQUEST_INDEX} ON sessions (project_id, evaluation_request_id) WHERE evaluation_request_id IS NOT NULL`,
  );
  if (!pg(knex)) for (const table of KEYED) await rebuild(knex, table, true);
}

export async function down(knex: Knex): Promise<void> {
  if (!pg(knex)) for (const table of KEYED) await rebuild(knex, table, false);
  await knex.raw(`DROP INDEX ${REQUEST_INDEX}`);
  await knex.schema.alterTable('sessions', (t) => {
    t.index(['project_id', 'evaluation_request_id']);
  });
  await knex.schema.alterTable('session_accounts', (t) => {
    t.index(['project_id', 'account_id', 'session_id']);
  });
}
