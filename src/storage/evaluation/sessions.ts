/**
 * The evaluation's reads of past sessions: the session asked about with the accounts it was
 * used with (and, for authenticate, the account's newest sessions), and the sessions the travel
 * rule compares with. One statement each.
 */
import type { CurrentSession, PastSession } from '../../domain/evaluation';
import { limit, textOf } from '../sql';
import { decode } from './decode';
import type { Reader } from './reader';
import { PAST_COLUMNS } from './sql';

/**
 * The session with the accounts it was used with and, with `history`, that account's newest
 * sessions (at most `limit`): one statement.
 */
export async function session(
  { rows }: Reader,
  projectId: string,
  id: string,
  history?: { accountId: string; limit: number },
): Promise<{ session: CurrentSession; history: PastSession[] } | undefined> {
  const current = `SELECT 0 AS part, ${PAST_COLUMNS}, f.facts, f.sdk, sa.account_id, sa.created_at AS linked_at FROM sessions s
       JOIN session_facts f ON f.session_id = s.id
       LEFT JOIN session_accounts sa ON sa.session_id = s.id WHERE s.project_id = ? AND s.id = ?`;
  // The history as a common table expression: SQLite runs it as one ordered index range (a
  // compound of two subqueries is slower).
  const past = `WITH h AS (SELECT 1 AS part, ${PAST_COLUMNS}, NULL AS facts, NULL AS sdk, NULL AS account_id,
         CAST(NULL AS bigint) AS linked_at
       FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
       WHERE sa.project_id = ? AND sa.account_id = ?
       ORDER BY sa.session_start DESC, sa.session_id DESC ${limit(history?.limit ?? 0)})`;
  const found = await rows(
    textOf(`session ${history ? history.limit : 'alone'}`, () =>
      history ? `${past} ${current} UNION ALL SELECT * FROM h` : current,
    ),
    history ? [projectId, history.accountId, projectId, id] : [projectId, id],
  );
  return decode.session(found);
}

/** The account's session before `before`, other than `excludeSession`. */
export async function previousOfAccount(
  { rows }: Reader,
  projectId: string,
  accountId: string,
  before: Date,
  excludeSession: string,
) {
  const found = await rows(
    `SELECT ${PAST_COLUMNS} FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
     WHERE sa.project_id = ? AND sa.account_id = ? AND sa.session_start < ? AND sa.session_id <> ?
     ORDER BY sa.session_start DESC LIMIT 1`,
    [projectId, accountId, before.getTime(), excludeSession],
  );
  return decode.pastSession(found);
}

/** The account's newest sessions, at most `limit`. */
export async function accountSessions(
  { rows }: Reader,
  projectId: string,
  accountId: string,
  count: number,
): Promise<PastSession[]> {
  const found = await rows(
    `SELECT ${PAST_COLUMNS} FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
     WHERE sa.project_id = ? AND sa.account_id = ? ORDER BY sa.session_start DESC, sa.session_id DESC LIMIT ?`,
    [projectId, accountId, count],
  );
  return decode.pastSessions(found);
}

/**
 * Each account's newest sessions, at most `count` each (a ring's accounts): one statement, a
 * branch per account over its range of `session_accounts`, by account in the order asked.
 */
export async function sessionsOfAccounts(
  { rows }: Reader,
  projectId: string,
  accountIds: readonly string[],
  count: number,
): Promise<Map<string, PastSession[]>> {
  const out = new Map<string, PastSession[]>(accountIds.map((id) => [id, []]));
  if (accountIds.length === 0) return out;
  // The branch number is ours (an integer), never input; each branch is a subquery so that its
  // ORDER BY and LIMIT are its own on both engines.
  const branch = (i: number) =>
    `SELECT * FROM (SELECT ${i} AS b, ${PAST_COLUMNS} FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
       WHERE sa.project_id = ? AND sa.account_id = ? ORDER BY sa.session_start DESC, sa.session_id DESC ${limit(count)}) AS t${i}`;
  const found = await rows(
    textOf(`sessions of ${accountIds.length} ${count}`, () =>
      accountIds.map((_, i) => branch(i)).join('\nUNION ALL\n'),
    ),
    accountIds.flatMap((id) => [projectId, id]),
  );
  for (const r of found) out.get(accountIds[Number(r.b)]!)!.push(decode.pastSession([r])!);
  return out;
}

/** The device's session before `before` (without an account, the travel rule compares with it). */
export async function previousOfDevice(
  { rows }: Reader,
  projectId: string,
  deviceId: string,
  before: Date,
  excludeSession: string,
) {
  const found = await rows(
    `SELECT ${PAST_COLUMNS} FROM sessions s
     WHERE s.project_id = ? AND s.device_id = ? AND s.start_time < ? AND s.id <> ? ORDER BY s.start_time DESC LIMIT 1`,
    [projectId, deviceId, before.getTime(), excludeSession],
  );
  return decode.pastSession(found);
}
