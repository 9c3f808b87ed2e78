/**
 * The evaluation's searches of `sessions` answered from their index alone: each index the link
 * search and the fraud counts start from also carries what they read next (the session's `id`,
 * to find its accounts; its decision and address), so no search reads the table's rows, which
 * at a million sessions are cold pages of a large file. Each replaces the index it extends (a
 * prefix of it), so a write maintains as many indexes as before.
 */
import type { Knex } from 'knex';

const REPLACED: [string[], string[]][] = [
  [
    ['project_id', 'device_id', 'start_time'],
    ['project_id', 'device_id', 'start_time', 'id'],
  ],
  [
    ['project_id', 'browser_fingerprint'],
    ['project_id', 'browser_fingerprint', 'id'],
  ],
  [
    ['project_id', 'mobile_id'],
    ['project_id', 'mobile_id', 'id'],
  ],
  [
    ['project_id', 'apple_device_key'],
    ['project_id', 'apple_device_key', 'id'],
  ],
  [
    ['project_id', 'ip_address', 'start_time'],
    ['project_id', 'ip_address', 'start_time', 'decision', 'id'],
  ],
  [
    ['project_id', 'ip_block', 'start_time'],
    ['project_id', 'ip_block', 'start_time', 'ip_address', 'decision', 'id'],
  ],
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    for (const [old, wider] of REPLACED) {
      t.index(wider);
      t.dropIndex(old);
    }
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    for (const [old, wider] of REPLACED) {
      t.index(old);
      t.dropIndex(wider);
    }
  });
}
