/**
 * The link search as the evaluation reads it: the accounts sharing the searched identifiers and
 * networks, and the accounts it describes of those found. One statement, two when a crowd must
 * be narrowed before it is described.
 */
import { accountsToDescribe, LINK_CAP, type LinkedRecord, type LinkSearch } from '../../domain/evaluation';
import { LINKED_ACCOUNT_COLUMNS } from '../repositories/accounts';
import { textOf } from '../sql';
import { accountRows } from './accounts';
import { decode, type Rows } from './decode';
import type { Reader } from './reader';
import { describedFound, linkStatement } from './sql';

/** How many links to read and describe (authenticate's and the Account API's). */
export interface LinksAsked {
  describe: boolean;
  groupsEnabled: boolean;
}

/** The link search's rows (one per found account and branch, `b`). */
async function linkRows({ rows }: Reader, projectId: string, search: LinkSearch, cap: number, crowd: number) {
  const found = linkStatement(projectId, search, cap, crowd);
  return found ? rows(textOf(found.key, found.sql), found.bindings) : [];
}

/**
 * The accounts sharing each searched identifier value (at most `cap` each), and those on each
 * followed session's address and block (at most `crowd` each): one compound statement.
 */
export async function links(reader: Reader, projectId: string, search: LinkSearch, cap: number, crowd: number) {
  return decode.links(await linkRows(reader, projectId, search, cap, crowd), search);
}

/** `accountsToDescribe` of the links found, read (only the columns a link is described from, about half the account's). */
async function describedSeparately(
  reader: Reader,
  projectId: string,
  found: Rows,
  search: LinkSearch,
  ask: LinksAsked,
) {
  const ids = accountsToDescribe(search, decode.links(found, search), ask);
  return {
    found,
    accounts: ids.length > 0 ? await accountRows(reader, projectId, ids, LINKED_ACCOUNT_COLUMNS) : [],
  };
}

/**
 * The link search and the accounts the evaluation describes of those it found. On PostgreSQL
 * one statement, which describes every account found when they are at most LINK_CAP (a round
 * trip to the database fewer), and a second for the strongest LINK_CAP of a larger crowd; on
 * SQLite, where a statement costs no round trip to a server, the two statements always.
 */
async function linksAndAccounts(
  reader: Reader,
  projectId: string,
  search: LinkSearch,
  cap: number,
  crowd: number,
  ask: LinksAsked,
) {
  const folded = reader.dialect === 'postgresql' && (ask.describe || ask.groupsEnabled);
  const statement = folded ? linkStatement(projectId, search, cap, crowd) : undefined;
  if (!statement) {
    const found = await linkRows(reader, projectId, search, cap, crowd);
    return describedSeparately(reader, projectId, found, search, ask);
  }
  const both = await reader.rows(
    textOf(`described ${statement.key}`, () => describedFound(statement.sql)),
    [...statement.bindings, projectId],
  );
  const found = both.filter((r) => r.b != null);
  if (new Set(found.map((r) => r.account_id)).size > LINK_CAP)
    return describedSeparately(reader, projectId, found, search, ask);
  return { found, accounts: [both.filter((r) => r.b == null)] };
}

/** The link search (`links`) and the accounts the evaluation describes of those it found. */
export async function linksDescribed(
  reader: Reader,
  projectId: string,
  search: LinkSearch,
  cap: number,
  crowd: number,
  ask: LinksAsked,
) {
  const { found, accounts } = await linksAndAccounts(reader, projectId, search, cap, crowd, ask);
  const linked: Map<string, LinkedRecord> = decode.linked(accounts);
  return { ...decode.links(found, search), linked };
}
