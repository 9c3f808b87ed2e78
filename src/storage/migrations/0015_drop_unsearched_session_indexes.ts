/**
 * The link search and verification matches find the accounts of a browser fingerprint, a mobile
 * id or a DeviceCheck key in `identifier_accounts` (migration 0013), so nothing searches
 * `sessions` by those columns any more: their indexes only cost every session write (and, at
 * 1,000,000 sessions, about 120 MB each). The device index stays (the device's previous session
 * is read from it).
 */
import type { Knex } from 'knex';

const UNSEARCHED = [
  ['project_id', 'browser_fingerprint', 'id'],
  ['project_id', 'mobile_id', 'id'],
  ['project_id', 'apple_device_key', 'id'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    for (const columns of UNSEARCHED) t.dropIndex(columns);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    for (const columns of UNSEARCHED) t.index(columns);
  });
}
