/**
 * The Search API's reads (GET /accounts, GET /sessions and their exports; docs/api-search.md).
 *
 * A page is read in two steps in one statement. The *window*: the next `window` keys after the
 * cursor, in page order, from the one index the filters start from (the driver: an equality
 * that index leads with, the time range within it). Then the rows of the window that pass the
 * other filters, at most `limit` of them. Every request therefore reads at most `window` index
 * entries and rows, however rare its filters: a page may come back short (or empty) with a
 * cursor, and the caller asks again. When the page is short, a second statement reads the
 * window's last key, the cursor of the next page.
 *
 * The window is a subquery with its own LIMIT joined first (CROSS JOIN: SQLite keeps that
 * order), so that neither engine starts from another filter's index and sorts the result.
 */
import type { Knex } from 'knex';
import type { AccountRow } from '../accounts';
import { searchAccounts, searchAccountsByScore } from './accounts';
import { accountIdsOf, searchSessions } from './sessions';
import type { AccountFilters, ScoreKey, SearchPage, SessionFilters, SessionKey, SessionSearchRow } from './types';

export * from './types';

export function makeSearchRepository(db: Knex) {
  return {
    /** A page of the project's accounts in id order, after `after` (docs/api-search.md). */
    accounts: (
      projectId: string,
      f: AccountFilters,
      after: string | undefined,
      limit: number,
      window?: number,
    ): Promise<SearchPage<AccountRow, string>> => searchAccounts(db, projectId, f, after, limit, window),

    /** A page of the project's accounts, the highest account_score first, after `after` (docs/api-search.md). */
    accountsByScore: (
      projectId: string,
      f: AccountFilters,
      after: ScoreKey | undefined,
      limit: number,
      window?: number,
    ): Promise<SearchPage<AccountRow, ScoreKey>> => searchAccountsByScore(db, projectId, f, after, limit, window),

    /** A page of the project's sessions, newest first, after `after` (docs/api-search.md). */
    sessions: (
      projectId: string,
      f: SessionFilters,
      after: SessionKey | undefined,
      limit: number,
      window?: number,
    ): Promise<SearchPage<SessionSearchRow, SessionKey>> => searchSessions(db, projectId, f, after, limit, window),

    /** The accounts of each session (in the order they were linked), from session_accounts' primary key. */
    accountIdsOf: (projectId: string, sessionIds: string[]) => accountIdsOf(db, projectId, sessionIds),
  };
}

export type SearchRepository = ReturnType<typeof makeSearchRepository>;
