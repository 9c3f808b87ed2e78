/** Accounts: the customer's accounts as authenticated, with the normalised identifiers linking searches. */
import type { Knex } from 'knex';
import type { Decision } from '../../api-types';
import type { AccountRecord, LinkedAccountRecord, Scores } from '../../domain/evaluation';
import type { Statement } from '../statements';
import { forgetAccountUniques, rebuildAccountUniques } from './account-uniques';
import { forgetIdentifierAccounts } from './identifier-accounts';

export type { AccountRecord };

/** An account's row (a type alias, so that a statement's row, a record, can be taken as one). */
export type AccountRow = {
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
  scores: string | null;
  /** `scores.account_score` in a column of its own: the score order's index (migration 0047). */
  account_score: number | null;
  last_request_id: string | null;
  last_evaluated_at: number | null;
  created_at: number;
  updated_at: number;
  num_sessions: number;
  first_seen: number | null;
  last_seen: number | null;
  last_session_id: string | null;
  last_country: string | null;
  countries: string;
  version: number;
};

const opt = (v: string | null) => v ?? undefined;

/** The columns of AccountRow, for statements that name them (a prepared statement must not say `*`). */
export const ACCOUNT_COLUMNS = [
  'project_id',
  'id',
  'email',
  'email_key',
  'email_domain',
  'phone',
  'phone_key',
  'first_name',
  'last_name',
  'name_key',
  'username',
  'username_key',
  'expected_countries',
  'metadata',
  'group_name',
  'decision',
  'scores',
  'account_score',
  'last_request_id',
  'last_evaluated_at',
  'created_at',
  'updated_at',
  'num_sessions',
  'first_seen',
  'last_seen',
  'last_session_id',
  'last_country',
  'countries',
  'version',
] as const satisfies readonly (keyof AccountRow)[];

const date = (v: number | null) => (v == null ? undefined : new Date(Number(v)));

/** The columns a linked account is described from (LinkedAccountRecord). */
export const LINKED_ACCOUNT_COLUMNS = [
  'id',
  'email',
  'phone',
  'first_name',
  'last_name',
  'username',
  'expected_countries',
  'metadata',
  'group_name',
  'first_seen',
  'last_seen',
] as const satisfies readonly (keyof AccountRow)[];

export type LinkedAccountRow = Pick<AccountRow, (typeof LINKED_ACCOUNT_COLUMNS)[number]>;

export function toLinkedAccountRecord(r: LinkedAccountRow): LinkedAccountRecord {
  return {
    id: r.id,
    email: opt(r.email),
    phone: opt(r.phone),
    firstName: opt(r.first_name),
    lastName: opt(r.last_name),
    username: opt(r.username),
    expectedCountries: JSON.parse(r.expected_countries) as string[],
    metadata: JSON.parse(r.metadata) as Record<string, unknown>,
    group: opt(r.group_name),
    aggregates: { firstSeen: date(r.first_seen), lastSeen: date(r.last_seen) },
  };
}

/**
 * The linked account's record with the rest added in place (`Object.assign`: about as fast as
 * one literal, where a spread of the linked record into a new literal is many times slower).
 */
export function toAccountRecord(r: AccountRow): AccountRecord {
  const linked = toLinkedAccountRecord(r);
  return Object.assign(linked, {
    projectId: r.project_id,
    emailKey: opt(r.email_key),
    emailDomain: opt(r.email_domain),
    phoneKey: opt(r.phone_key),
    nameKey: opt(r.name_key),
    usernameKey: opt(r.username_key),
    decision: (r.decision as Decision | null) ?? undefined,
    scores: r.scores ? (JSON.parse(r.scores) as Scores) : undefined,
    lastEvaluation:
      r.last_request_id && r.last_evaluated_at !== null
        ? { requestId: r.last_request_id, at: new Date(Number(r.last_evaluated_at)) }
        : undefined,
    createdAt: new Date(Number(r.created_at)),
    updatedAt: new Date(Number(r.updated_at)),
    aggregates: Object.assign(linked.aggregates, {
      numSessions: Number(r.num_sessions ?? 0),
      lastSessionId: opt(r.last_session_id),
      lastCountry: opt(r.last_country),
      countries: JSON.parse(r.countries ?? '[]') as string[],
    }),
    version: Number(r.version ?? 0),
  });
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
    scores: a.scores ? JSON.stringify(a.scores) : null,
    account_score: a.scores?.account_score ?? null,
    last_request_id: a.lastEvaluation?.requestId ?? null,
    last_evaluated_at: a.lastEvaluation?.at.getTime() ?? null,
    created_at: a.createdAt.getTime(),
    updated_at: a.updatedAt.getTime(),
    num_sessions: a.aggregates.numSessions,
    first_seen: a.aggregates.firstSeen?.getTime() ?? null,
    last_seen: a.aggregates.lastSeen?.getTime() ?? null,
    last_session_id: a.aggregates.lastSessionId ?? null,
    last_country: a.aggregates.lastCountry ?? null,
    countries: JSON.stringify(a.aggregates.countries),
    version: a.version,
  };
}

/** The columns an evaluation's update of an account may set (all but its key and creation). */
const UPDATED_COLUMNS = ACCOUNT_COLUMNS.filter((c) => c !== 'project_id' && c !== 'id' && c !== 'created_at');

/**
 * The update of the columns that changed (the version always does). An assigned column is written
 * even when its value is the same, and each index over it rewritten: assigning all of them
 * rewrote the six indexes of the identifiers and the decision at every evaluation, and the
 * commit writes every page made dirty. An evaluation mostly changes the aggregates, the scores
 * and the times, so the texts are few; each is made once.
 */
const updateTexts = new Map<string, string>();
function updateText(columns: readonly string[]): string {
  const key = columns.join(',');
  let text = updateTexts.get(key);
  if (text === undefined) {
    text = `UPDATE accounts SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE project_id = ? AND id = ? AND version = ? RETURNING id`;
    if (updateTexts.size < 256) updateTexts.set(key, text);
  }
  return text;
}
const INSERT_EVALUATED = `INSERT INTO accounts (${ACCOUNT_COLUMNS.join(', ')}) VALUES (${ACCOUNT_COLUMNS.map(() => '?').join(', ')})
   ON CONFLICT (project_id, id) DO NOTHING RETURNING id`;

/**
 * The statements that write an evaluated account: an update guarded by the version it was read
 * at (`existing`), or for a new one an insert guarded by no other having been created meanwhile
 * (either writes nothing and returns no row when the account changed: the evaluation is then made
 * again on fresh facts). Its domain's counts follow by trigger (migration 0034).
 */
export function evaluatedAccountStatements(a: AccountRecord, existing: AccountRecord | undefined): Statement[] {
  const row = toRow({ ...a, version: (existing?.version ?? -1) + 1 });
  let write: Statement;
  if (existing) {
    const before = toRow(existing);
    const changed = UPDATED_COLUMNS.filter((c) => row[c] !== before[c]);
    write = {
      sql: updateText(changed),
      bindings: [...changed.map((c) => row[c]), a.projectId, a.id, existing.version],
      guard: true,
    };
  } else write = { sql: INSERT_EVALUATED, bindings: ACCOUNT_COLUMNS.map((c) => row[c]), guard: true };
  return [write];
}

export function makeAccountRepository(db: Knex) {
  return {
    async find(projectId: string, id: string, trx: Knex = db): Promise<AccountRecord | undefined> {
      const row = await trx<AccountRow>('accounts').where({ project_id: projectId, id }).first();
      return row && toAccountRecord(row);
    },

    async findMany(projectId: string, ids: string[], trx: Knex = db): Promise<AccountRecord[]> {
      if (ids.length === 0) return [];
      const rows: AccountRow[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        rows.push(
          ...(await trx<AccountRow>('accounts')
            .where({ project_id: projectId })
            .whereIn('id', ids.slice(i, i + 500))),
        );
      }
      return rows.map(toAccountRecord);
    },

    /** Creates or updates the account (its domain's counts follow by trigger, migration 0034). */
    async upsert(a: AccountRecord, trx: Knex = db): Promise<void> {
      const row = toRow(a);
      const { project_id: _p, id: _i, created_at: _c, ...rest } = row;
      // The aggregates are the evaluation's to keep; any other write bumps the version.
      const {
        num_sessions: _n,
        first_seen: _f,
        last_seen: _l,
        last_session_id: _s,
        last_country: _k,
        countries: _cs,
        version: _v,
        ...changes
      } = rest;
      await trx('accounts')
        .insert(row)
        .onConflict(['project_id', 'id'])
        .merge({ ...changes, version: trx.raw('accounts.version + 1') });
    },

    async setDecision(projectId: string, id: string, decision: Decision, trx: Knex = db): Promise<void> {
      await trx('accounts').where({ project_id: projectId, id }).update({ decision });
    },

    /**
     * Recomputes the accounts' aggregates from their sessions, in SQL: for rows linked outside
     * an evaluation (test data, imports). An evaluation keeps them itself (domain/evaluation).
     */
    async refreshAggregates(projectId: string, ids: readonly string[] | 'all', trx: Knex = db): Promise<void> {
      if (ids.length === 0) return;
      const pg = trx.client.config.client === 'pg';
      const of =
        'FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id' +
        ' WHERE sa.project_id = accounts.project_id AND sa.account_id = accounts.id';
      const distinct = `SELECT DISTINCT s.country_code AS c ${of} AND s.country_code IS NOT NULL`;
      const countries = pg
        ? `(SELECT COALESCE(json_agg(c ORDER BY c), '[]'::json)::text FROM (${distinct}) AS d)`
        : `(SELECT COALESCE(json_group_array(c), '[]') FROM (${distinct} ORDER BY c))`;
      await trx.raw(
        `UPDATE accounts SET num_sessions = (SELECT COUNT(*) ${of}), first_seen = (SELECT MIN(s.start_time) ${of}),
           last_seen = (SELECT MAX(s.start_time) ${of}),
           last_session_id = (SELECT s.id ${of} ORDER BY s.start_time DESC, s.id DESC LIMIT 1),
           last_country = (SELECT s.country_code ${of} ORDER BY s.start_time DESC, s.id DESC LIMIT 1),
           countries = ${countries}, version = version + 1
         WHERE project_id = ?${ids === 'all' ? '' : ` AND id IN (${ids.map(() => '?').join(', ')})`}`,
        [projectId, ...(ids === 'all' ? [] : ids)],
      );
      // Their devices and networks, from the links that remain (kept by triggers as links come, not as they go).
      await rebuildAccountUniques(trx, projectId, ids);
    },

    /** Erases the account: its row (personal data), its session links (and the identifiers they gave it) and list memberships. */
    async delete(projectId: string, id: string, trx: Knex = db): Promise<boolean> {
      await trx('session_accounts').where({ project_id: projectId, account_id: id }).delete();
      await forgetIdentifierAccounts(trx, projectId, id);
      await forgetAccountUniques(trx, projectId, id);
      await trx('list_members').where({ project_id: projectId, account_id: id }).delete();
      return (await trx('accounts').where({ project_id: projectId, id }).delete()) > 0;
    },
  };
}

export type AccountRepository = ReturnType<typeof makeAccountRepository>;
