import type { Knex } from 'knex';
import { createTrigger, type Trigger } from './0034_domain_blocked_counts';

/**
 * `account_uniques`: per account, each device and each network (/24 or /64 block) of its
 * sessions, with the start of its newest session there, kept by triggers on both engines. An
 * account's `unique_devices` and `unique_networks` (the day and the week before its `last_seen`)
 * are then counts of one index range each, exact however many sessions the account has; before,
 * they were counted over its newest 200 sessions.
 *
 * A device is what domain/evaluation `deviceOf` takes: the hardware fingerprint, else the
 * vendor's mobile id, else the SDK's stored id (an empty one is none). A value is within a window
 * when its newest session started in it, so the distinct values of the sessions in a window are
 * the rows whose `last_start` is in it.
 *
 * Triggers, as the links have several writers (the evaluation's transaction, imports, the
 * benchmark's seeding):
 * - a link of a session to an account (`session_accounts` INSERT) counts the session's device and
 *   network for the account, or moves their `last_start` to the session's start if later;
 * - a linked session whose device changes (a later SDK post brings a fingerprint) counts the new
 *   device for each of its accounts, and takes the old one from each account whose other sessions
 *   no longer carry it (or sets its `last_start` from those that do): a walk over the account's
 *   sessions, on this rare path only.
 * Removing links is not a trigger (a retention batch would walk an account's sessions once per
 * removed link): the code that removes them rebuilds or deletes the accounts' rows (accounts.ts
 * `refreshAggregates`, `delete`; project-data.ts).
 *
 * Backfilled here from the stored links.
 */

// DEVICE_OF and accountUniquesFromLinks are copies of storage/repositories/account-uniques.ts as
// this migration was written, frozen here: a migration must replay the same forever (the same
// backfill, the same trigger bodies), whereas the repository's may change with the code that
// reads the table. Never change what they produce; a later change to the table is a new
// migration (0037 made the triggers again over the device stored with each session).

/** The device of the sessions row `s`, as domain/evaluation `deviceOf` took it (an expression; NULL: none). */
const DEVICE_OF = (s: string) =>
  `COALESCE(NULLIF(${s}.browser_fingerprint, ''), NULLIF(${s}.mobile_id, ''), NULLIF(${s}.device_id, ''))`;

/**
 * The statements that add the rows of the links `where` selects (a condition on `sa`), from their
 * sessions. (The block is read from the session, as the device is: read from the link, SQLite's
 * planner took the index that covers the link's block and read every link of the project.)
 */
function accountUniquesFromLinks(where: string): string[] {
  return [
    `INSERT INTO account_uniques (project_id, account_id, kind, value, last_start)
     SELECT sa.project_id, sa.account_id, 'device', ${DEVICE_OF('s')}, MAX(sa.session_start)
       FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
      WHERE ${where} AND ${DEVICE_OF('s')} IS NOT NULL
      GROUP BY sa.project_id, sa.account_id, ${DEVICE_OF('s')}`,
    `INSERT INTO account_uniques (project_id, account_id, kind, value, last_start)
     SELECT sa.project_id, sa.account_id, 'network', s.ip_block, MAX(sa.session_start)
       FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
      WHERE ${where} AND s.ip_block IS NOT NULL AND s.ip_block <> ''
      GROUP BY sa.project_id, sa.account_id, s.ip_block`,
  ];
}

/** Keeps the later of the stored and the new start. */
const LATER = `ON CONFLICT (project_id, account_id, kind, value) DO UPDATE
     SET last_start = CASE WHEN excluded.last_start > account_uniques.last_start
       THEN excluded.last_start ELSE account_uniques.last_start END`;

/**
 * The triggers, over a device given as an expression of a sessions row (`device`) and the
 * sessions columns it reads (`columns`, which fire the change trigger). 0037 makes them again over
 * the stored `sessions.device`.
 */
export function accountUniquesTriggers(device: (s: string) => string, columns: string[]): Trigger[] {
  /** `select` over the sessions of the row's account (other than those removed or changed) that carry its device. */
  const carrying = (
    select: string,
  ) => `SELECT ${select} FROM session_accounts sa2 JOIN sessions s2 ON s2.id = sa2.session_id
     WHERE sa2.project_id = account_uniques.project_id AND sa2.account_id = account_uniques.account_id
       AND ${device('s2')} = account_uniques.value`;
  return [
    {
      name: 'account_uniques_linked',
      event: 'INSERT',
      table: 'session_accounts',
      when: 'TRUE',
      body: [
        `INSERT INTO account_uniques (project_id, account_id, kind, value, last_start)
       SELECT NEW.project_id, NEW.account_id, 'device', d.value, NEW.session_start
         FROM (SELECT ${device('s')} AS value FROM sessions s WHERE s.id = NEW.session_id) AS d WHERE d.value IS NOT NULL
       ${LATER}`,
        `INSERT INTO account_uniques (project_id, account_id, kind, value, last_start)
       SELECT NEW.project_id, NEW.account_id, 'network', NEW.ip_block, NEW.session_start
         WHERE NEW.ip_block IS NOT NULL AND NEW.ip_block <> ''
       ${LATER}`,
      ],
    },
    {
      name: 'account_uniques_device_changed',
      event: 'UPDATE',
      of: columns,
      table: 'sessions',
      when: `${device('OLD')} IS DISTINCT FROM ${device('NEW')}`,
      body: [
        `INSERT INTO account_uniques (project_id, account_id, kind, value, last_start)
       SELECT sa.project_id, sa.account_id, 'device', ${device('NEW')}, sa.session_start FROM session_accounts sa
         WHERE sa.session_id = NEW.id AND ${device('NEW')} IS NOT NULL
       ${LATER}`,
        `DELETE FROM account_uniques
         WHERE project_id = NEW.project_id AND kind = 'device' AND value = ${device('OLD')}
           AND account_id IN (SELECT sa.account_id FROM session_accounts sa WHERE sa.session_id = NEW.id)
           AND NOT EXISTS (${carrying('1')})`,
        `UPDATE account_uniques SET last_start = (${carrying('MAX(sa2.session_start)')})
         WHERE project_id = NEW.project_id AND kind = 'device' AND value = ${device('OLD')}
           AND account_id IN (SELECT sa.account_id FROM session_accounts sa WHERE sa.session_id = NEW.id)`,
      ],
    },
  ];
}

const TRIGGERS = accountUniquesTriggers(DEVICE_OF, ['browser_fingerprint', 'mobile_id', 'device_id']);

const pg = (knex: Knex) => knex.client.config.client === 'pg';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('account_uniques', (t) => {
    t.string('project_id', 36).notNullable();
    t.string('account_id', 256).notNullable();
    t.string('kind', 16).notNullable();
    t.string('value', 256).notNullable();
    t.bigInteger('last_start').notNullable();
    t.primary(['project_id', 'account_id', 'kind', 'value']);
    // The values of an account seen since a time: one range, counted, from the index alone.
    t.index(['project_id', 'account_id', 'kind', 'last_start', 'value']);
  });
  for (const sql of accountUniquesFromLinks('TRUE')) await knex.raw(sql);
  for (const t of TRIGGERS) for (const sql of createTrigger(t, pg(knex))) await knex.raw(sql);
}

export async function down(knex: Knex): Promise<void> {
  for (const t of TRIGGERS) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${t.name}${pg(knex) ? ` ON ${t.table}` : ''}`);
    if (pg(knex)) await knex.raw(`DROP FUNCTION IF EXISTS trustgate_${t.name}()`);
  }
  await knex.schema.dropTable('account_uniques');
}
