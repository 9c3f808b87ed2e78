/**
 * Accounts with their lists, as the evaluation reads them: one statement for up to
 * ACCOUNTS_PER_READ ids (an evaluation describes at most LINK_CAP), more only past that (SQLite's
 * bound parameters are limited).
 */
import type { AccountWithLists } from '../../domain/evaluation';
import { ACCOUNT_COLUMNS, LINKED_ACCOUNT_COLUMNS } from '../repositories/accounts';
import { textOf } from '../sql';
import { decode, type Rows } from './decode';
import type { Reader } from './reader';
import { ACCOUNTS_PER_READ } from './sql';

/** The accounts' `columns` with their lists: one statement for up to ACCOUNTS_PER_READ ids. */
export async function accountRows(
  { rows, dialect }: Reader,
  projectId: string,
  ids: readonly string[],
  columns: typeof ACCOUNT_COLUMNS | typeof LINKED_ACCOUNT_COLUMNS,
): Promise<Rows[]> {
  const out: Rows[] = [];
  for (let i = 0; i < ids.length; i += ACCOUNTS_PER_READ) {
    const chunk = ids.slice(i, i + ACCOUNTS_PER_READ);
    const list = chunk.map(() => '?').join(', ');
    const key = `accounts ${columns === ACCOUNT_COLUMNS ? 'all' : 'linked'} ${chunk.length}`;
    const selected = columns.map((c) => `a.${c}`).join(', ');
    if (dialect === 'postgresql') {
      // Each account's memberships looked up by its key, in the loop over the accounts
      // (`OFFSET 0` keeps the subquery from being merged into a join). As a join, the generic
      // plan read the project's whole membership table whenever it was small enough to look
      // cheap, whether or not narrowed by the ids.
      const sql = textOf(
        `pg ${key}`,
        () => `SELECT ${selected}, m.list_name FROM accounts a
         LEFT JOIN LATERAL (SELECT l.list_name FROM list_members l
           WHERE l.account_id = a.id AND l.project_id = a.project_id OFFSET 0) AS m ON true
       WHERE a.project_id = ? AND a.id IN (${list}) ORDER BY a.id`,
      );
      out.push(await rows(sql, [projectId, ...chunk]));
    } else {
      // (SQLite looks each account's members up by its key, with or without the ids.)
      const sql = textOf(
        key,
        () => `SELECT ${selected}, m.list_name FROM accounts a
         LEFT JOIN (SELECT account_id, list_name FROM list_members
           WHERE project_id = ? AND account_id IN (${list})) AS m ON m.account_id = a.id
       WHERE a.project_id = ? AND a.id IN (${list}) ORDER BY a.id`,
      );
      out.push(await rows(sql, [projectId, ...chunk, projectId, ...chunk]));
    }
  }
  return out;
}

/** Accounts with their lists, by id. */
export async function accounts(
  reader: Reader,
  projectId: string,
  ids: readonly string[],
): Promise<Map<string, AccountWithLists>> {
  return decode.accounts(await accountRows(reader, projectId, ids, ACCOUNT_COLUMNS));
}
