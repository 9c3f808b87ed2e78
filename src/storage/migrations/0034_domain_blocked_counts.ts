import type { Knex } from 'knex';

/**
 * The per-domain counts of `email_domains` kept by triggers, on both engines: `num_accounts`
 * (accounts with an address at the domain, kept by the account repository until now) and, new,
 * `num_blocked` (those of them on the block list). An evaluation asks whether another account at
 * an organisation's domain is block-listed (the `domain_fraud` read of
 * storage/evaluation/reads.ts); without the count that question walked the domain's
 * accounts, or the block list, until it met one (a large company's domain with none was read
 * whole at each evaluation).
 *
 * Triggers, because the counts have many writers (the evaluation's account write, the Account
 * API, the List API, a rule's list writes, a list's deletion, an account's erasure, an account
 * whose address moves to another domain, an id listed before its account exists, a project's
 * reset): each row written to `accounts` or `list_members` moves the counts of the domain it
 * touches by one, in the writing statement's own transaction, whichever code wrote it. An account
 * is on a list at most once (the key of `list_members`), so each trigger adds or takes at most
 * one. Decrements update the row only (a project's reset deletes `email_domains` with the rest);
 * increments create it if missing.
 *
 * Both are counted once here from the rows (one pass over the accounts with an address, one over
 * the block list), so that the triggers start from the truth whatever kept `num_accounts` before.
 */

/** A row trigger: its event, the condition on the row, and the statements it runs (0035 makes its own with createTrigger). */
export interface Trigger {
  name: string;
  event: 'INSERT' | 'DELETE' | 'UPDATE';
  /** For UPDATE: the columns whose assignment fires it. */
  of?: string[];
  table: string;
  when: string;
  body: string[];
}

/** Adds one to the block count of the domain each row of `source` names (`project_id, domain`), creating its row if missing. */
const addOne = (source: string) =>
  `INSERT INTO email_domains (project_id, domain, num_accounts, num_blocked)
     SELECT project_id, domain, 0, 1 FROM (${source}) AS d WHERE domain IS NOT NULL
     ON CONFLICT (project_id, domain) DO UPDATE SET num_blocked = email_domains.num_blocked + 1`;

/** Takes one from the block count of the domain `domain` (an expression; NULL: none) when `condition` holds. */
const takeOne = (project: string, domain: string, condition = 'TRUE') =>
  `UPDATE email_domains SET num_blocked = num_blocked - 1
     WHERE project_id = ${project} AND domain = ${domain} AND ${condition}`;

/** The account a membership row names, as `project_id, domain` (no row when it does not exist yet). */
const accountOfMember = (row: 'NEW' | 'OLD') =>
  `SELECT a.project_id, a.email_domain AS domain FROM accounts a WHERE a.project_id = ${row}.project_id AND a.id = ${row}.account_id`;

/** Its domain, as an expression. */
const domainOfMember = (row: 'NEW' | 'OLD') =>
  `(SELECT a.email_domain FROM accounts a WHERE a.project_id = ${row}.project_id AND a.id = ${row}.account_id)`;

/** Whether the account row is on the block list. */
const blocked = (row: 'NEW' | 'OLD') =>
  `EXISTS (SELECT 1 FROM list_members m WHERE m.account_id = ${row}.id AND m.project_id = ${row}.project_id AND m.list_name = 'block')`;

/** Counts the account row at its domain (when it has one): one more account, and one more block-listed if it is. */
const accountIn = (row: 'NEW' | 'OLD') =>
  `INSERT INTO email_domains (project_id, domain, num_accounts, num_blocked)
     SELECT ${row}.project_id, ${row}.email_domain, 1, CASE WHEN ${blocked(row)} THEN 1 ELSE 0 END WHERE ${row}.email_domain IS NOT NULL
     ON CONFLICT (project_id, domain) DO UPDATE
       SET num_accounts = email_domains.num_accounts + 1, num_blocked = email_domains.num_blocked + excluded.num_blocked`;

/** Takes the account row from its domain's counts. */
const accountOut = (row: 'NEW' | 'OLD') =>
  `UPDATE email_domains SET num_accounts = num_accounts - 1, num_blocked = num_blocked - CASE WHEN ${blocked(row)} THEN 1 ELSE 0 END
     WHERE project_id = ${row}.project_id AND domain = ${row}.email_domain`;

const TRIGGERS: Trigger[] = [
  {
    name: 'block_member_added',
    event: 'INSERT',
    table: 'list_members',
    when: `NEW.list_name = 'block'`,
    body: [addOne(accountOfMember('NEW'))],
  },
  {
    name: 'block_member_removed',
    event: 'DELETE',
    table: 'list_members',
    when: `OLD.list_name = 'block'`,
    body: [takeOne('OLD.project_id', domainOfMember('OLD'))],
  },
  {
    // Nothing updates a membership today (a change of list is a delete and an insert); kept true
    // anyway: the old row's count goes, the new row's comes (a no-op update takes one and adds it back).
    name: 'block_member_moved',
    event: 'UPDATE',
    of: ['project_id', 'list_name', 'account_id'],
    table: 'list_members',
    when: `OLD.list_name = 'block' OR NEW.list_name = 'block'`,
    body: [
      takeOne('OLD.project_id', domainOfMember('OLD'), `OLD.list_name = 'block'`),
      addOne(`${accountOfMember('NEW')} AND NEW.list_name = 'block'`),
    ],
  },
  {
    name: 'account_added',
    event: 'INSERT',
    table: 'accounts',
    when: 'NEW.email_domain IS NOT NULL',
    body: [accountIn('NEW')],
  },
  {
    name: 'account_removed',
    event: 'DELETE',
    table: 'accounts',
    when: 'OLD.email_domain IS NOT NULL',
    body: [accountOut('OLD')],
  },
  {
    // Fires only when the UPDATE assigns email_domain (an evaluation assigns only the columns that changed).
    name: 'account_moved',
    event: 'UPDATE',
    of: ['email_domain'],
    table: 'accounts',
    when: 'OLD.email_domain IS DISTINCT FROM NEW.email_domain',
    body: [accountOut('OLD'), accountIn('NEW')],
  },
];

const pg = (knex: Knex) => knex.client.config.client === 'pg';

/** The statements that create one trigger on the engine (on PostgreSQL with its function). */
export function createTrigger(t: Trigger, onPg: boolean): string[] {
  const on = `AFTER ${t.event}${t.of ? ` OF ${t.of.join(', ')}` : ''} ON ${t.table}`;
  if (!onPg) return [`CREATE TRIGGER ${t.name} ${on} FOR EACH ROW WHEN ${t.when} BEGIN ${t.body.join('; ')}; END`];
  return [
    `CREATE FUNCTION trustgate_${t.name}() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN ${t.body.join('; ')}; RETURN NULL; END $$`,
    `CREATE TRIGGER ${t.name} ${on} FOR EACH ROW WHEN (${t.when}) EXECUTE FUNCTION trustgate_${t.name}()`,
  ];
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('email_domains', (t) => {
    t.integer('num_blocked').notNullable().defaultTo(0);
  });
  await knex.raw(
    `INSERT INTO email_domains (project_id, domain, num_accounts)
     SELECT project_id, email_domain, COUNT(*) FROM accounts WHERE email_domain IS NOT NULL GROUP BY project_id, email_domain
     ON CONFLICT (project_id, domain) DO UPDATE SET num_accounts = excluded.num_accounts`,
  );
  await knex.raw(
    `UPDATE email_domains SET num_blocked = b.n
       FROM (SELECT a.project_id, a.email_domain, COUNT(*) AS n FROM list_members m
               JOIN accounts a ON a.project_id = m.project_id AND a.id = m.account_id
             WHERE m.list_name = 'block' AND a.email_domain IS NOT NULL
             GROUP BY a.project_id, a.email_domain) AS b
     WHERE email_domains.project_id = b.project_id AND email_domains.domain = b.email_domain`,
  );
  for (const t of TRIGGERS) for (const sql of createTrigger(t, pg(knex))) await knex.raw(sql);
}

export async function down(knex: Knex): Promise<void> {
  for (const t of TRIGGERS) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${t.name}${pg(knex) ? ` ON ${t.table}` : ''}`);
    if (pg(knex)) await knex.raw(`DROP FUNCTION IF EXISTS trustgate_${t.name}()`);
  }
  await knex.schema.alterTable('email_domains', (t) => {
    t.dropColumn('num_blocked');
  });
}
