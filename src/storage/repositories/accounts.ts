/** Accounts: the customer's accounts as authenticated, with the normalised identifiers linking searches. */
import type { Knex } from 'knex';
import type { Decision } from '../../api-types';

export interface AccountRecord {
  projectId: string;
  id: string;
  email?: string;
  emailKey?: string;
  emailDomain?: string;
  phone?: string;
  phoneKey?: string;
  firstName?: string;
  lastName?: string;
  nameKey?: string;
  username?: string;
  usernameKey?: string;
  expectedCountries: string[];
  metadata: Record<string, unknown>;
  group?: string;
  /** The latest decision of a session authenticated with the account. */
  decision?: Decision;
  createdAt: Date;
  updatedAt: Date;
}

interface AccountRow {
  project_id: string;
  id: string;
  email: string | null;
  email_key: string | null;
  email_domain: string | null;
  phone: string | null;
  phone_key: string | null;
  first_name: string | null;
  last_name: string | null;
  name_key: string | null;
  username: string | null;
  username_key: string | null;
  expected_countries: string;
  metadata: string;
  group_name: string | null;
  decision: string | null;
  created_at: number;
  updated_at: number;
}

const opt = (v: string | null) => v ?? undefined;

function toRecord(r: AccountRow): AccountRecord {
  return {
    projectId: r.project_id,
    id: r.id,
    email: opt(r.email),
    emailKey: opt(r.email_key),
    emailDomain: opt(r.email_domain),
    phone: opt(r.phone),
    phoneKey: opt(r.phone_key),
    firstName: opt(r.first_name),
    lastName: opt(r.last_name),
    nameKey: opt(r.name_key),
    username: opt(r.username),
    usernameKey: opt(r.username_key),
    expectedCountries: JSON.parse(r.expected_countries) as string[],
    metadata: JSON.parse(r.metadata) as Record<string, unknown>,
    group: opt(r.group_name),
    decision: (r.decision as Decision | null) ?? undefined,
    createdAt: new Date(Number(r.created_at)),
    updatedAt: new Date(Number(r.updated_at)),
  };
}

function toRow(a: AccountRecord): AccountRow {
  return {
    project_id: a.projectId,
    id: a.id,
    email: a.email ?? null,
    email_key: a.emailKey ?? null,
    email_domain: a.emailDomain ?? null,
    phone: a.phone ?? null,
    phone_key: a.phoneKey ?? null,
    first_name: a.firstName ?? null,
    last_name: a.lastName ?? null,
    name_key: a.nameKey ?? null,
    username: a.username ?? null,
    username_key: a.usernameKey ?? null,
    expected_countries: JSON.stringify(a.expectedCountries),
    metadata: JSON.stringify(a.metadata),
    group_name: a.group ?? null,
    decision: a.decision ?? null,
    created_at: a.createdAt.getTime(),
    updated_at: a.updatedAt.getTime(),
  };
}

/** The identifier columns an account can be found by. */
export type IdentifierColumn = 'email_key' | 'phone_key' | 'username_key' | 'name_key';

export function makeAccountRepository(db: Knex) {
  return {
    async find(projectId: string, id: string, trx: Knex = db): Promise<AccountRecord | undefined> {
      const row = await trx<AccountRow>('accounts').where({ project_id: projectId, id }).first();
      return row && toRecord(row);
    },

    async findMany(projectId: string, ids: string[], trx: Knex = db): Promise<AccountRecord[]> {
      if (ids.length === 0) return [];
      const rows: AccountRow[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        rows.push(...(await trx<AccountRow>('accounts').where({ project_id: projectId }).whereIn('id', ids.slice(i, i + 500))));
      }
      return rows.map(toRecord);
    },

    /** Creates or updates the account, keeping the per-domain account counts in step (use a transaction). */
    async upsert(a: AccountRecord, trx: Knex = db): Promise<void> {
      const row = toRow(a);
      const before = await trx('accounts').where({ project_id: a.projectId, id: a.id }).first('email_domain');
      const { project_id: _p, id: _i, created_at: _c, ...changes } = row;
      await trx('accounts').insert(row).onConflict(['project_id', 'id']).merge(changes);
      const previous: string | null = before ? before.email_domain : null;
      if (previous !== row.email_domain) {
        if (previous) await countDomain(trx, a.projectId, previous, -1);
        if (row.email_domain) await countDomain(trx, a.projectId, row.email_domain, +1);
      }
    },

    async setDecision(projectId: string, id: string, decision: Decision, trx: Knex = db): Promise<void> {
      await trx('accounts').where({ project_id: projectId, id }).update({ decision });
    },

    /** Erases the account: its row (personal data), its session links and list memberships. */
    async delete(projectId: string, id: string, trx: Knex = db): Promise<boolean> {
      const before = await trx('accounts').where({ project_id: projectId, id }).first('email_domain');
      await trx('session_accounts').where({ project_id: projectId, account_id: id }).delete();
      await trx('list_members').where({ project_id: projectId, account_id: id }).delete();
      const deleted = (await trx('accounts').where({ project_id: projectId, id }).delete()) > 0;
      if (deleted && before?.email_domain) await countDomain(trx, projectId, before.email_domain, -1);
      return deleted;
    },

    /** Other accounts with this identifier value (at most `limit`), optionally within a group. */
    async withIdentifier(projectId: string, column: IdentifierColumn, value: string, excludeId: string, limit: number, trx: Knex = db): Promise<string[]> {
      const rows = await trx('accounts').where({ project_id: projectId, [column]: value }).whereNot('id', excludeId).select('id').limit(limit);
      return rows.map((r: { id: string }) => r.id);
    },

    /** Accounts with an address at the domain, other than `excludeId`: one counter row and one key lookup. */
    async countAtDomain(projectId: string, domain: string, excludeId: string, trx: Knex = db): Promise<number> {
      const counter = await trx('email_domains').where({ project_id: projectId, domain }).first('num_accounts');
      const self = await trx('accounts').where({ project_id: projectId, id: excludeId }).first('email_domain');
      return Math.max(0, Number(counter?.num_accounts ?? 0) - (self?.email_domain === domain ? 1 : 0));
    },

    /** When the address was first seen on another account of the project, and how many of those accounts are fraudulent. */
    async addressHistory(projectId: string, emailKey: string, excludeId: string, trx: Knex = db): Promise<{ firstSeen?: Date; fraud: number }> {
      const first = await trx('accounts')
        .where({ project_id: projectId, email_key: emailKey })
        .whereNot('id', excludeId)
        .min<{ t: number | string | null }[]>({ t: 'created_at' })
        .first();
      const fraud = await fraudCount(trx, projectId, (q) => q.where('a.email_key', emailKey).whereNot('a.id', excludeId));
      return { firstSeen: first?.t != null ? new Date(Number(first.t)) : undefined, fraud };
    },

    /**
     * Whether another account at the domain is fraudulent (1 or 0): the engine asks only for
     * business, education and government domains, and only whether there is one.
     */
    async fraudAtDomain(projectId: string, domain: string, excludeId: string, trx: Knex = db): Promise<number> {
      const fake = await trx('accounts')
        .where({ project_id: projectId, email_domain: domain, decision: 'Fake' })
        .whereNot('id', excludeId)
        .first('id');
      if (fake) return 1;
      const blocked = await trx('list_members as m')
        .join('accounts as a', function () {
          this.on('a.project_id', '=', 'm.project_id').andOn('a.id', '=', 'm.account_id');
        })
        .where({ 'm.project_id': projectId, 'm.list_name': 'block', 'a.email_domain': domain })
        .whereNot('a.id', excludeId)
        .first('a.id');
      return blocked ? 1 : 0;
    },
  };
}

/** Adds `delta` to the domain's account count (creating its row at 0 first). */
async function countDomain(trx: Knex, projectId: string, domain: string, delta: number): Promise<void> {
  await trx('email_domains').insert({ project_id: projectId, domain, num_accounts: 0 }).onConflict(['project_id', 'domain']).ignore();
  await trx('email_domains').where({ project_id: projectId, domain }).increment('num_accounts', delta);
}

/** Accounts matching `filter` that were decided Fake or are on the block list. */
async function fraudCount(trx: Knex, projectId: string, filter: (q: Knex.QueryBuilder) => Knex.QueryBuilder): Promise<number> {
  const fake = await filter(trx('accounts as a').where({ 'a.project_id': projectId, 'a.decision': 'Fake' }))
    .count<{ n: string | number }[]>({ n: '*' })
    .first();
  const blocked = await filter(
    trx('list_members as m')
      .join('accounts as a', function () {
        this.on('a.project_id', '=', 'm.project_id').andOn('a.id', '=', 'm.account_id');
      })
      .where({ 'm.project_id': projectId, 'm.list_name': 'block' })
      .where((q) => q.whereNull('a.decision').orWhereNot('a.decision', 'Fake')),
  )
    .count<{ n: string | number }[]>({ n: '*' })
    .first();
  return Number(fake?.n ?? 0) + Number(blocked?.n ?? 0);
}

export type AccountRepository = ReturnType<typeof makeAccountRepository>;
