/**
 * `sessions.device`: the device a session ran on, stored as domain/evaluation `deviceOf` gives it
 * when the session is written, so that the rule has one home. Until now `account_uniques`'
 * triggers (0035) and its rebuild computed it again in SQL from the three columns it reads.
 *
 * The column is backfilled here with the rule as it stood (0035's expression, frozen there), and
 * 0035's triggers are made again over the column: the change trigger now fires on `device`.
 */
import type { Knex } from 'knex';
import { createTrigger } from './0034_domain_blocked_counts';
import { accountUniquesTriggers } from './0035_account_uniques';

/** 0035's device of the sessions row `s`, as this migration found it. */
const DEVICE_BEFORE = (s: string) =>
  `COALESCE(NULLIF(${s}.browser_fingerprint, ''), NULLIF(${s}.mobile_id, ''), NULLIF(${s}.device_id, ''))`;

const BEFORE = accountUniquesTriggers(DEVICE_BEFORE, ['browser_fingerprint', 'mobile_id', 'device_id']);
const AFTER = accountUniquesTriggers((s) => `${s}.device`, ['device']);

const pg = (knex: Knex) => knex.client.config.client === 'pg';

async function drop(knex: Knex, triggers: typeof BEFORE): Promise<void> {
  for (const t of triggers) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${t.name}${pg(knex) ? ` ON ${t.table}` : ''}`);
    if (pg(knex)) await knex.raw(`DROP FUNCTION IF EXISTS trustgate_${t.name}()`);
  }
}

async function create(knex: Knex, triggers: typeof BEFORE): Promise<void> {
  for (const t of triggers) for (const sql of createTrigger(t, pg(knex))) await knex.raw(sql);
}

export async function up(knex: Knex): Promise<void> {
  await drop(knex, BEFORE);
  await knex.schema.alterTable('sessions', (t) => {
    t.string('device', 128).nullable();
  });
  await knex.raw(`UPDATE sessions SET device = ${DEVICE_BEFORE('sessions')}`);
  await create(knex, AFTER);
}

export async function down(knex: Knex): Promise<void> {
  await drop(knex, AFTER);
  // Not knex's dropColumn: on SQLite it makes the table again, and with it the triggers on it.
  await knex.raw('ALTER TABLE sessions DROP COLUMN device');
  await create(knex, BEFORE);
}
