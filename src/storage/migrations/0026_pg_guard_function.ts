import type { Knex } from 'knex';

/**
 * PostgreSQL: `trustgate_guard(rows)` fails the statement (SQLSTATE `TG001`) when a guarded
 * statement returned no row. An evaluation's write transaction goes to PostgreSQL in one round
 * trip (storage/statements.ts `pgTransaction`), so a guard that fails (the account changed since it
 * was read) must abandon the transaction on the server, before the statements after it; the
 * guarded statement runs as `WITH guarded AS (…) SELECT trustgate_guard(count(*)) FROM guarded`.
 * Nothing on SQLite (its transactions run statement by statement on the SQLite thread).
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  await knex.raw(`
    CREATE OR REPLACE FUNCTION trustgate_guard(returned bigint) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF returned = 0 THEN
        RAISE EXCEPTION 'trustgate: a guarded statement returned no row' USING ERRCODE = 'TG001';
      END IF;
    END
    $$`);
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  await knex.raw('DROP FUNCTION IF EXISTS trustgate_guard(bigint)');
}
