/**
 * `network_accounts`: per address and per block, the accounts linked to a session there, each
 * with when it was last seen there and whether it is on the block list; and the Fake sessions of
 * an address or block found by a partial index. An evaluation's network counts (fraud and crowd
 * on the address and its block: storage/evaluation/sql.ts countsStatement) then read a handful
 * of index entries, as many as the signals can weigh, where they read the newest 1,500 sessions
 * and links of the address and looked each account up on the block list: a carrier's NAT or an
 * office cost an evaluation many times what a home address did.
 *
 * Kept by triggers, like the domain counts of 0034, because links and list memberships have many
 * writers (an evaluation, a verification's link, retention, erasure, the List API, a rule's list
 * write, a project's reset): each link written adds its account to its address and block, each
 * link deleted takes it away when no other link of the account is left there (or moves its
 * `last_seen` back to the newest left), and each block-list membership written or deleted sets
 * the flag of every row of its account. `blocked` is 0 or 1, an integer on both engines.
 *
 * The address and the block share one column: an address (`203.0.113.7`, `2001:db8::1`) and a
 * block (`203.0.113.0/24`, `2001:db8::/64`) are never spelled alike.
 */
import type { Knex } from 'knex';
import { createTrigger, type Trigger } from './0034_domain_blocked_counts';

const pg = (knex: Knex) => knex.client.config.client === 'pg';

/** Covering what the counts ask (the session left out by id, a block's own address left out), so that they read nothing else. */
const FAKE_INDEXES = [
  { name: 'sessions_fake_ip', columns: 'project_id, ip_address, start_time, id' },
  { name: 'sessions_fake_block', columns: 'project_id, ip_block, start_time, ip_address, id' },
];

/** Whether the link row's account is on the block list, as 0 or 1. */
const blockedOf = (row: 'NEW' | 'OLD') =>
  `CASE WHEN EXISTS (SELECT 1 FROM list_members m
     WHERE m.project_id = ${row}.project_id AND m.account_id = ${row}.account_id AND m.list_name = 'block') THEN 1 ELSE 0 END`;

/** The link row's account added to its address or block (`column`), or its `last_seen` there moved forward. */
const seenOn = (column: 'ip_address' | 'ip_block') =>
  `INSERT INTO network_accounts (project_id, network, account_id, last_seen, blocked)
     SELECT NEW.project_id, NEW.${column}, NEW.account_id, NEW.session_start, ${blockedOf('NEW')}
     WHERE NEW.${column} IS NOT NULL AND NEW.session_start IS NOT NULL
     ON CONFLICT (project_id, network, account_id) DO UPDATE
       SET last_seen = CASE WHEN excluded.last_seen > network_accounts.last_seen
         THEN excluded.last_seen ELSE network_accounts.last_seen END`;

/**
 * The account's links left on the old row's address or block (`column`). The address is compared
 * as an expression so that the search starts from the account's links (as many as it has) and
 * not from the address's (a NAT's thousands): without statistics SQLite would take the address's
 * covering index. A link without a start (written before links carried one) is never counted.
 */
const linksLeft = (column: 'ip_address' | 'ip_block') =>
  `SELECT sa.session_start FROM session_accounts sa
     WHERE sa.project_id = OLD.project_id AND sa.account_id = OLD.account_id AND sa.session_start >= 0
       AND COALESCE(sa.${column}, '') = OLD.${column}`;

/** The old link row's account taken from its address or block when no link of it is left there; else its `last_seen` is the newest left. */
const unseenOn = (column: 'ip_address' | 'ip_block') => [
  `DELETE FROM network_accounts
     WHERE project_id = OLD.project_id AND network = OLD.${column} AND account_id = OLD.account_id
       AND NOT EXISTS (${linksLeft(column)})`,
  `UPDATE network_accounts SET last_seen = (SELECT MAX(l.session_start) FROM (${linksLeft(column)}) AS l)
     WHERE project_id = OLD.project_id AND network = OLD.${column} AND account_id = OLD.account_id`,
];

/** The account's links, from its index (the start's range makes SQLite take it over the address's covering index). */
const ofAccount = (row: 'NEW' | 'OLD') =>
  `WHERE sa.project_id = ${row}.project_id AND sa.account_id = ${row}.account_id AND sa.session_start >= 0`;

/**
 * Every row of the membership's account flagged `to`, found by key from the networks of its
 * links (no index by account on this table: each link's write would keep it).
 */
const flagAccount = (row: 'NEW' | 'OLD', to: 0 | 1) =>
  `UPDATE network_accounts SET blocked = ${to}
     WHERE project_id = ${row}.project_id AND account_id = ${row}.account_id AND network IN (
       SELECT sa.ip_address FROM session_accounts sa ${ofAccount(row)}
       UNION SELECT sa.ip_block FROM session_accounts sa ${ofAccount(row)})`;

const TRIGGERS: Trigger[] = [
  {
    name: 'network_link_added',
    event: 'INSERT',
    table: 'session_accounts',
    when: 'NEW.ip_address IS NOT NULL AND NEW.session_start IS NOT NULL',
    body: [seenOn('ip_address'), seenOn('ip_block')],
  },
  {
    name: 'network_link_removed',
    event: 'DELETE',
    table: 'session_accounts',
    when: 'OLD.ip_address IS NOT NULL',
    body: [...unseenOn('ip_address'), ...unseenOn('ip_block')],
  },
  {
    // Fires only when the UPDATE assigns one of these: the old row's place is left, the new one's taken.
    name: 'network_link_moved',
    event: 'UPDATE',
    of: ['project_id', 'account_id', 'ip_address', 'ip_block', 'session_start'],
    table: 'session_accounts',
    when: 'TRUE',
    body: [...unseenOn('ip_address'), ...unseenOn('ip_block'), seenOn('ip_address'), seenOn('ip_block')],
  },
  {
    name: 'network_block_member_added',
    event: 'INSERT',
    table: 'list_members',
    when: `NEW.list_name = 'block'`,
    body: [flagAccount('NEW', 1)],
  },
  {
    name: 'network_block_member_removed',
    event: 'DELETE',
    table: 'list_members',
    when: `OLD.list_name = 'block'`,
    body: [flagAccount('OLD', 0)],
  },
];

export async function up(knex: Knex): Promise<void> {
  // Found by its key only (and the two indexes below): on SQLite the key is the table (no rowid,
  // one B-tree fewer for each link's write; migration 0036).
  await knex.raw(
    `CREATE TABLE network_accounts (
       project_id varchar(36) NOT NULL, network varchar(64) NOT NULL, account_id varchar(256) NOT NULL,
       last_seen bigint NOT NULL, blocked integer NOT NULL DEFAULT 0,
       PRIMARY KEY (project_id, network, account_id))${pg(knex) ? '' : ' WITHOUT ROWID'}`,
  );
  // The crowd on an address: its accounts newest first.
  await knex.raw(`CREATE INDEX network_accounts_last_seen ON network_accounts (project_id, network, last_seen)`);
  // Fraud on an address: only its block-listed accounts (few), newest first.
  await knex.raw(
    `CREATE INDEX network_accounts_blocked ON network_accounts (project_id, network, last_seen) WHERE blocked = 1`,
  );
  for (const { name, columns } of FAKE_INDEXES)
    await knex.raw(`CREATE INDEX ${name} ON sessions (${columns}) WHERE decision = 'Fake'`);

  for (const column of ['ip_address', 'ip_block'])
    await knex.raw(
      `INSERT INTO network_accounts (project_id, network, account_id, last_seen, blocked)
       SELECT sa.project_id, sa.${column}, sa.account_id, MAX(sa.session_start),
              MAX(CASE WHEN m.account_id IS NULL THEN 0 ELSE 1 END)
       FROM session_accounts sa
         LEFT JOIN list_members m ON m.project_id = sa.project_id AND m.account_id = sa.account_id AND m.list_name = 'block'
       WHERE sa.${column} IS NOT NULL AND sa.session_start IS NOT NULL
       GROUP BY sa.project_id, sa.${column}, sa.account_id`,
    );
  for (const t of TRIGGERS) for (const sql of createTrigger(t, pg(knex))) await knex.raw(sql);
}

export async function down(knex: Knex): Promise<void> {
  for (const t of TRIGGERS) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${t.name}${pg(knex) ? ` ON ${t.table}` : ''}`);
    if (pg(knex)) await knex.raw(`DROP FUNCTION IF EXISTS trustgate_${t.name}()`);
  }
  for (const { name } of FAKE_INDEXES) await knex.raw(`DROP INDEX ${name}`);
  await knex.schema.dropTable('network_accounts');
}
