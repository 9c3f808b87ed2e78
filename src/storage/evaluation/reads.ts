/**
 * The evaluation's reads: each builds its statement (sql.ts), runs it with the engine's runner
 * (on SQLite its thread, on PostgreSQL its pipelined connections: the adapters) and answers the
 * domain's values (decode.ts). One statement a read, two for the links when a crowd must be
 * narrowed before it is described. The reads of sessions, accounts and links have a module each;
 * the history's counts are here.
 */
import { withDeps } from '../../with-deps';
import type { EmailHistoryFacts, EmailQuery, StoredUniques, UniquesQuery } from '../../domain/evaluation';
import type { Dialect } from '../db';
import { textOf } from '../sql';
import type { RunRows } from '../statements';
import { accounts } from './accounts';
import { decode } from './decode';
import { links, linksDescribed } from './links';
import type { Reader } from './reader';
import { accountSessions, previousOfAccount, previousOfDevice, session, sessionsOfAccounts } from './sessions';
import { addEmailHistory, countsStatement, uniquesTables, type CountsQuery } from './sql';

export type { LinksAsked } from './links';

/**
 * In one statement: fraud and crowd on the address and its block (the signals' history), and
 * (authenticate) the history of the account's email address and domain.
 */
async function counts({ rows }: Reader, projectId: string, q: CountsQuery) {
  const { key, sql, bindings } = countsStatement(projectId, q);
  return decode.counts(await rows(textOf(key, sql), bindings), q);
}

/** The history of an account's email address and domain (the Account API's email intelligence). */
async function emailHistory({ rows }: Reader, projectId: string, e: EmailQuery): Promise<EmailHistoryFacts> {
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
}

/** An account's kept devices and networks in the windows of its details (the Account API): one statement. */
async function uniques({ rows }: Reader, projectId: string, u: UniquesQuery): Promise<StoredUniques> {
  const { columns, from, bindings } = uniquesTables(projectId, u);
  const sql = textOf('uniques', () => `SELECT ${columns.join(', ')} FROM ${from.join(', ')}`);
  return decode.uniques(await rows(sql, bindings));
}

/** Each read as a function of its questions alone, over `rows` in `dialect`. */
export function makeEvaluationReads(rows: RunRows, dialect: Dialect) {
  const on = withDeps<Reader>({ rows, dialect });
  return {
    session: on(session),
    previousOfAccount: on(previousOfAccount),
    accounts: on(accounts),
    accountSessions: on(accountSessions),
    sessionsOfAccounts: on(sessionsOfAccounts),
    previousOfDevice: on(previousOfDevice),
    counts: on(counts),
    emailHistory: on(emailHistory),
    uniques: on(uniques),
    links: on(links),
    linksDescribed: on(linksDescribed),
  };
}

export type EvaluationReads = ReturnType<typeof makeEvaluationReads>;
