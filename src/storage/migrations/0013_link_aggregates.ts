/**
 * What the link search and the network counts read, kept at write time so that each is one
 * narrow index range (docs/pipeline.md, "Write-time aggregates"):
 *
 * - `identifier_accounts`: per identifier value a session carries (device, browser, mobile id,
 *   DeviceCheck key), the accounts that presented it, at most IDENTIFIER_ACCOUNTS_CAP per value.
 *   Written with the session's link to an account (and when a linked session's identifiers
 *   change), in the same transaction. The search for an identifier reads these rows alone, not
 *   every session with the value and then each session's accounts.
 * - `session_accounts.ip_address` and `ip_block`: the linked session's address, copied (it
 *   never changes), with indexes that carry the session's start, the account and the session,
 *   so the accounts on an address in a window are one index range without a join.
 *
 * Backfilled here from the stored sessions and links, on both engines.
 */
import type { Knex } from 'knex';

// As storage/repositories/identifier-accounts.ts keeps them today (a migration stays as it ran).
const IDENTIFIER_ACCOUNTS_CAP = 1502;
const SESSION_IDENTIFIERS = [
  ['browser', 'browser_fingerprint'],
  ['device', 'device_id'],
  ['mobile_id', 'mobile_id'],
  ['apple_device_check', 'apple_device_key'],
] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('identifier_accounts', (t) => {
    t.string('project_id', 36).notNullable();
    t.string('kind', 24).notNullable();
    t.string('value', 128).notNullable();
    t.string('account_id', 256).notNullable();
    t.bigInteger('created_at').notNullable();
    t.primary(['project_id', 'kind', 'value', 'account_id']);
    // Erasing an account finds its rows.
    t.index(['project_id', 'account_id']);
  });
  for (const [kind, column] of SESSION_IDENTIFIERS) {
    // The accounts that first presented the value, at most the cap of them.
    await knex.raw(
      `INSERT INTO identifier_accounts (project_id, kind, value, account_id, created_at)
       SELECT project_id, ?, value, account_id, created_at FROM (
         SELECT project_id, value, account_id, created_at,
                ROW_NUMBER() OVER (PARTITION BY project_id, value ORDER BY created_at, account_id) AS n
         FROM (SELECT sa.project_id, s.${column} AS value, sa.account_id, MIN(sa.created_at) AS created_at
               FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
               WHERE s.${column} IS NOT NULL AND s.${column} <> ''
               GROUP BY sa.project_id, s.${column}, sa.account_id) AS pairs
       ) AS ranked WHERE n <= ?`,
      [kind, IDENTIFIER_ACCOUNTS_CAP],
    );
  }

  await knex.schema.alterTable('session_accounts', (t) => {
    t.string('ip_address', 45).nullable();
    t.string('ip_block', 64).nullable();
  });
  await knex.raw(
    `UPDATE session_accounts SET ip_address = (SELECT s.ip_address FROM sessions s WHERE s.id = session_accounts.session_id),
       ip_block = (SELECT s.ip_block FROM sessions s WHERE s.id = session_accounts.session_id)`,
  );
  await knex.schema.alterTable('session_accounts', (t) => {
    t.index(['project_id', 'ip_address', 'session_start', 'account_id', 'session_id']);
    t.index(['project_id', 'ip_block', 'session_start', 'ip_address', 'account_id', 'session_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('session_accounts', (t) => {
    t.dropIndex(['project_id', 'ip_address', 'session_start', 'account_id', 'session_id']);
    t.dropIndex(['project_id', 'ip_block', 'session_start', 'ip_address', 'account_id', 'session_id']);
  });
  await knex.schema.alterTable('session_accounts', (t) => {
    t.dropColumn('ip_address');
    t.dropColumn('ip_block');
  });
  await knex.schema.dropTable('identifier_accounts');
}
