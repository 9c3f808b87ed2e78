/**
 * The write-time aggregate of the link search (migration 0013): per identifier value a session
 * carries, the accounts that presented it, at most `keptPerValue` of its kind. Kept in
 * the transaction that links a session to an account (and when a linked session's identifiers
 * change), so the search for a value is one range of its primary key, whatever the number of
 * sessions that carried it.
 */
import type { Knex } from 'knex';
import type { MatchType } from '../../api-types';
import { sharersToRead } from '../../domain/evaluation/links';
import { limit } from '../sql';
import type { Statement } from '../statements';

/**
 * Accounts kept per value of a kind: the link search reads no more than `sharersToRead` others
 * (one past what can count), and the account itself may be one of them. A value shared past
 * that is no evidence, so a new account on a popular device model costs its write a count of a
 * few dozen rows, not of every sharer.
 */
export function keptPerValue(kind: SessionIdentifierKind): number {
  return sharersToRead(kind) + 1;
}

/**
 * The session column each kind of session identifier is taken from: a `browser` is the SDK's
 * stored id, a `device` the hardware and rendering fingerprint (domain/evaluation/links.ts
 * SESSION_IDENTIFIERS; migration 0018 moved the rows stored the other way round).
 */
export const SESSION_IDENTIFIER_COLUMNS = {
  browser: 'device_id',
  device: 'browser_fingerprint',
  mobile_id: 'mobile_id',
  apple_device_check: 'apple_device_key',
} as const satisfies Partial<Record<MatchType, string>>;

export type SessionIdentifierKind = keyof typeof SESSION_IDENTIFIER_COLUMNS;

/**
 * The accounts that presented a value (other than `exclude`), at most `limit`: one range of the
 * primary key. The link search runs it as one branch of its compound statement; a verification
 * match alone.
 */
export function identifierSearch(exclude: boolean, cap: number): string {
  const excluded = exclude ? ' AND i.account_id <> ?' : '';
  return `SELECT i.account_id FROM identifier_accounts i WHERE i.project_id = ? AND i.kind = ? AND i.value = ?${excluded} ${limit(cap)}`;
}

/**
 * Records the session's identifiers against every account it is linked to (one statement; a
 * value already holding its kind's `keptPerValue` accounts takes no more). Run it in the
 * transaction that links.
 */
export function identifierAccountsStatement(projectId: string, sessionId: string, at: Date): Statement {
  // The kinds, columns and counts are ours (constants), never input.
  const values = Object.entries(SESSION_IDENTIFIER_COLUMNS).map(([kind, column]) => {
    const cap = keptPerValue(kind as SessionIdentifierKind);
    // The value's accounts up to the cap: fewer, and it takes one more.
    const kept = `SELECT 1 AS one FROM identifier_accounts i
         WHERE i.project_id = sa.project_id AND i.kind = '${kind}' AND i.value = s.${column} ${limit(cap)}`;
    return `SELECT sa.project_id, '${kind}' AS kind, s.${column} AS value, sa.account_id
       FROM sessions s JOIN session_accounts sa ON sa.session_id = s.id
       WHERE s.project_id = ? AND s.id = ? AND s.${column} IS NOT NULL AND s.${column} <> ''
         AND (SELECT COUNT(*) FROM (${kept}) AS kept) < ${cap}`;
  });
  // SQLite reads the ON of an upsert after a bare FROM as a join's: the WHERE says where it starts.
  return {
    sql: `INSERT INTO identifier_accounts (project_id, kind, value, account_id, created_at)
     SELECT x.project_id, x.kind, x.value, x.account_id, ? FROM (${values.join(' UNION ALL ')}) AS x
     WHERE true
     ON CONFLICT (project_id, kind, value, account_id) DO NOTHING`,
    bindings: [at.getTime(), ...values.flatMap(() => [projectId, sessionId])],
  };
}

/**
 * Recomputes a project's rows from its sessions and links, in SQL: for links written outside
 * an evaluation (imports, the benchmark's seeding). The accounts that first presented a value
 * are the ones kept.
 */
export async function rebuildIdentifierAccounts(trx: Knex, projectId: string): Promise<void> {
  await trx('identifier_accounts').where({ project_id: projectId }).delete();
  for (const [kind, column] of Object.entries(SESSION_IDENTIFIER_COLUMNS)) {
    await trx.raw(
      `INSERT INTO identifier_accounts (project_id, kind, value, account_id, created_at)
       SELECT project_id, ?, value, account_id, created_at FROM (
         SELECT project_id, value, account_id, created_at, ROW_NUMBER() OVER (PARTITION BY value ORDER BY created_at, account_id) AS n
         FROM (SELECT sa.project_id, s.${column} AS value, sa.account_id, MIN(sa.created_at) AS created_at
               FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
               WHERE sa.project_id = ? AND s.${column} IS NOT NULL AND s.${column} <> ''
               GROUP BY sa.project_id, s.${column}, sa.account_id) AS pairs
       ) AS ranked WHERE n <= ?`,
      [kind, projectId, keptPerValue(kind as SessionIdentifierKind)],
    );
  }
}

/** Forgets an erased account's identifiers. */
export async function forgetIdentifierAccounts(trx: Knex, projectId: string, accountId: string): Promise<void> {
  await trx('identifier_accounts').where({ project_id: projectId, account_id: accountId }).delete();
}
