/**
 * The per-account devices and networks (`account_uniques`, migration 0035), each value with its
 * newest session's start: kept by triggers as sessions are linked (and as a linked session's
 * device changes); rebuilt here for accounts whose links were removed, and forgotten with an
 * erased account. What an evaluation reads of them is in storage/evaluation/sql.ts (`uniquesTables`).
 */
import type { Knex } from 'knex';

/**
 * The statements that add the rows of the links `where` selects (a condition on `sa`), from their
 * sessions' stored device (domain/evaluation `deviceOf`) and block. (The block is read from the
 * session, as the device is: read from the link, SQLite's planner took the index that covers the
 * link's block and read every link of the project.)
 */
export function accountUniquesFromLinks(where: string): string[] {
  return [
    `INSERT INTO account_uniques (project_id, account_id, kind, value, last_start)
     SELECT sa.project_id, sa.account_id, 'device', s.device, MAX(sa.session_start)
       FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
      WHERE ${where} AND s.device IS NOT NULL
      GROUP BY sa.project_id, sa.account_id, s.device`,
    `INSERT INTO account_uniques (project_id, account_id, kind, value, last_start)
     SELECT sa.project_id, sa.account_id, 'network', s.ip_block, MAX(sa.session_start)
       FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
      WHERE ${where} AND s.ip_block IS NOT NULL AND s.ip_block <> ''
      GROUP BY sa.project_id, sa.account_id, s.ip_block`,
  ];
}

/** Recomputes the rows of the project's accounts `ids` (or all) from the links they have now. */
export async function rebuildAccountUniques(
  trx: Knex,
  projectId: string,
  ids: readonly string[] | 'all',
): Promise<void> {
  const which = ids === 'all' ? [] : [...ids];
  const among = (column: string) => (ids === 'all' ? '' : ` AND ${column} IN (${which.map(() => '?').join(', ')})`);
  await trx.raw(`DELETE FROM account_uniques WHERE project_id = ?${among('account_id')}`, [projectId, ...which]);
  for (const sql of accountUniquesFromLinks(`sa.project_id = ?${among('sa.account_id')}`))
    await trx.raw(sql, [projectId, ...which]);
}

/** Forgets an erased account's rows. */
export async function forgetAccountUniques(trx: Knex, projectId: string, accountId: string): Promise<void> {
  await trx('account_uniques').where({ project_id: projectId, account_id: accountId }).delete();
}
