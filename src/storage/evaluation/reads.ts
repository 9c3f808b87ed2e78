/**
 * The evaluation's reads: each builds its statement (sql.ts), runs it with the engine's runner
 * (on SQLite its thread, on PostgreSQL its pipelined connections: the adapters) and answers the
 * domain's values (decode.ts). One statement a read, two for the links when a crowd must be
 * narrowed before it is described.
 */
import {
  accountsToDescribe,
  LINK_CAP,
  type AccountWithLists,
  type CurrentSession,
  type EmailHistoryFacts,
  type EmailQuery,
  type LinkedRecord,
  type LinkSearch,
  type PastSession,
  type StoredUniques,
  type UniquesQuery,
} from '../../domain/evaluation';
import { ACCOUNT_COLUMNS, LINKED_ACCOUNT_COLUMNS } from '../repositories/accounts';
import type { Dialect } from '../db';
import { limit, textOf } from '../sql';
import type { RunRows } from '../statements';
import { decode, type Rows } from './decode';
import {
  ACCOUNTS_PER_READ,
  addEmailHistory,
  countsStatement,
  describedFound,
  linkStatement,
  PAST_COLUMNS,
  uniquesTables,
  type CountsQuery,
} from './sql';

/** How many links to read and describe (authenticate's and the Account API's). */
export interface LinksAsked {
  describe: boolean;
  groupsEnabled: boolean;
}

export function makeEvaluationReads(rows: RunRows, dialect: Dialect) {
  /** The accounts' `columns` with their lists: one statement for up to ACCOUNTS_PER_READ ids. */
  async function accountRows(
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
         LEFT JOIN LATERAL (SELECT l.list_name FROM list_members l WHERE l.account_id = a.id AND l.project_id = a.project_id OFFSET 0) AS m ON true
       WHERE a.project_id = ? AND a.id IN (${list}) ORDER BY a.id`,
        );
        out.push(await rows(sql, [projectId, ...chunk]));
      } else {
        // (SQLite looks each account's members up by its key, with or without the ids.)
        const sql = textOf(
          key,
          () => `SELECT ${selected}, m.list_name FROM accounts a
         LEFT JOIN (SELECT account_id, list_name FROM list_members WHERE project_id = ? AND account_id IN (${list})) AS m ON m.account_id = a.id
       WHERE a.project_id = ? AND a.id IN (${list}) ORDER BY a.id`,
        );
        out.push(await rows(sql, [projectId, ...chunk, projectId, ...chunk]));
      }
    }
    return out;
  }

  /** The link search's rows (one per found account and branch, `b`). */
  async function links(projectId: string, search: LinkSearch, cap: number, crowd: number): Promise<Rows> {
    const found = linkStatement(projectId, search, cap, crowd);
    return found ? rows(textOf(found.key, found.sql), found.bindings) : [];
  }

  /** `accountsToDescribe` of the links found, read (only the columns a link is described from, about half the account's). */
  async function describedSeparately(projectId: string, found: Rows, search: LinkSearch, ask: LinksAsked) {
    const ids = accountsToDescribe(search, decode.links(found, search), ask);
    return { found, accounts: ids.length > 0 ? await accountRows(projectId, ids, LINKED_ACCOUNT_COLUMNS) : [] };
  }

  /**
   * The link search and the accounts the evaluation describes of those it found. On PostgreSQL
   * one statement, which describes every account found when they are at most LINK_CAP (a round
   * trip to the database fewer), and a second for the strongest LINK_CAP of a larger crowd; on
   * SQLite, where a statement costs no round trip to a server, the two statements always.
   */
  async function linksAndAccounts(projectId: string, search: LinkSearch, cap: number, crowd: number, ask: LinksAsked) {
    const folded = dialect === 'postgresql' && (ask.describe || ask.groupsEnabled);
    const statement = folded ? linkStatement(projectId, search, cap, crowd) : undefined;
    if (!statement) return describedSeparately(projectId, await links(projectId, search, cap, crowd), search, ask);
    const both = await rows(
      textOf(`described ${statement.key}`, () => describedFound(statement.sql)),
      [...statement.bindings, projectId],
    );
    const found = both.filter((r) => r.b != null);
    if (new Set(found.map((r) => r.account_id)).size > LINK_CAP)
      return describedSeparately(projectId, found, search, ask);
    return { found, accounts: [both.filter((r) => r.b == null)] };
  }

  return {
    /**
     * The session with the accounts it was used with and, with `history`, that account's newest
     * sessions (at most `limit`): one statement.
     */
    async session(
      projectId: string,
      id: string,
      history?: { accountId: string; limit: number },
    ): Promise<{ session: CurrentSession; history: PastSession[] } | undefined> {
      const current = `SELECT 0 AS part, ${PAST_COLUMNS}, f.facts, f.sdk, sa.account_id, sa.created_at AS linked_at FROM sessions s
           JOIN session_facts f ON f.session_id = s.id
           LEFT JOIN session_accounts sa ON sa.session_id = s.id WHERE s.project_id = ? AND s.id = ?`;
      // The history as a common table expression: SQLite runs it as one ordered index range
      // (as a compound of two subqueries it measured about 1.7 times the time).
      const past = `WITH h AS (SELECT 1 AS part, ${PAST_COLUMNS}, NULL AS facts, NULL AS sdk, NULL AS account_id, CAST(NULL AS bigint) AS linked_at
           FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
           WHERE sa.project_id = ? AND sa.account_id = ? ORDER BY sa.session_start DESC, sa.session_id DESC ${limit(history?.limit ?? 0)})`;
      const found = await rows(
        textOf(`session ${history ? history.limit : 'alone'}`, () =>
          history ? `${past} ${current} UNION ALL SELECT * FROM h` : current,
        ),
        history ? [projectId, history.accountId, projectId, id] : [projectId, id],
      );
      return decode.session(found);
    },

    /** The account's session before `before`, other than `excludeSession`. */
    async previousOfAccount(projectId: string, accountId: string, before: Date, excludeSession: string) {
      const found = await rows(
        `SELECT ${PAST_COLUMNS} FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
         WHERE sa.project_id = ? AND sa.account_id = ? AND sa.session_start < ? AND sa.session_id <> ? ORDER BY sa.session_start DESC LIMIT 1`,
        [projectId, accountId, before.getTime(), excludeSession],
      );
      return decode.pastSession(found);
    },

    /**
     * Accounts with their lists: one statement for up to ACCOUNTS_PER_READ ids (an evaluation
     * describes at most LINK_CAP), more only past that (SQLite's bound parameters are limited).
     */
    async accounts(projectId: string, ids: readonly string[]): Promise<Map<string, AccountWithLists>> {
      return decode.accounts(await accountRows(projectId, ids, ACCOUNT_COLUMNS));
    },

    /** The account's newest sessions, at most `limit`. */
    async accountSessions(projectId: string, accountId: string, limit: number): Promise<PastSession[]> {
      const found = await rows(
        `SELECT ${PAST_COLUMNS} FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
         WHERE sa.project_id = ? AND sa.account_id = ? ORDER BY sa.session_start DESC, sa.session_id DESC LIMIT ?`,
        [projectId, accountId, limit],
      );
      return decode.pastSessions(found);
    },

    /** The device's session before `before` (without an account, the travel rule compares with it). */
    async previousOfDevice(projectId: string, deviceId: string, before: Date, excludeSession: string) {
      const found = await rows(
        `SELECT ${PAST_COLUMNS} FROM sessions s
         WHERE s.project_id = ? AND s.device_id = ? AND s.start_time < ? AND s.id <> ? ORDER BY s.start_time DESC LIMIT 1`,
        [projectId, deviceId, before.getTime(), excludeSession],
      );
      return decode.pastSession(found);
    },

    /**
     * In one statement: fraud and crowd on the address and its block (the signals' history),
     * and (authenticate) the history of the account's email address and domain.
     */
    async counts(projectId: string, q: CountsQuery) {
      const { key, sql, bindings } = countsStatement(projectId, q);
      return decode.counts(await rows(textOf(key, sql), bindings), q);
    },

    /** The history of an account's email address and domain (the Account API's email intelligence). */
    async emailHistory(projectId: string, e: EmailQuery): Promise<EmailHistoryFacts> {
      const parts: string[] = [];
      const bindings: unknown[] = [];
      addEmailHistory(
        (name, sql, ...b) => {
          parts.push(`(${sql}) AS ${name}`);
          bindings.push(...b);
        },
        projectId,
        e,
      );
      return decode.emailHistory(parts.length > 0 ? await rows(`SELECT ${parts.join(',\n')}`, bindings) : []);
    },

    /** An account's kept devices and networks in the windows of its details (the Account API): one statement. */
    async uniques(projectId: string, u: UniquesQuery): Promise<StoredUniques> {
      const { columns, from, bindings } = uniquesTables(projectId, u);
      const sql = textOf('uniques', () => `SELECT ${columns.join(', ')} FROM ${from.join(', ')}`);
      return decode.uniques(await rows(sql, bindings));
    },

    /**
     * The accounts sharing each searched identifier value (at most `cap` each), and those on each
     * followed session's address and block (at most `crowd` each): one compound statement.
     */
    async links(projectId: string, search: LinkSearch, cap: number, crowd: number) {
      return decode.links(await links(projectId, search, cap, crowd), search);
    },

    /** The link search (`links`) and the accounts the evaluation describes of those it found. */
    async linksDescribed(projectId: string, search: LinkSearch, cap: number, crowd: number, ask: LinksAsked) {
      const { found, accounts } = await linksAndAccounts(projectId, search, cap, crowd, ask);
      const linked: Map<string, LinkedRecord> = decode.linked(accounts);
      return { ...decode.links(found, search), linked };
    },
  };
}

export type EvaluationReads = ReturnType<typeof makeEvaluationReads>;
