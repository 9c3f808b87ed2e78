/**
 * The link search as the evaluation reads it: the accounts sharing the searched identifiers and
 * networks (one statement), then the accounts it describes of those over the floor (a second).
 */
import { accountsToDescribe, type LinkedRecord, type LinkSearch } from '../../domain/evaluation';
import { LINKED_ACCOUNT_COLUMNS } from '../repositories/accounts';
import { textOf } from '../sql';
import { accountRows } from './accounts';
import { decode } from './decode';
import type { Reader } from './reader';
import { linkStatement } from './sql';

/** How many links to read and describe (authenticate's and the Account API's), and the project's floor. */
export interface LinksAsked {
  describe: boolean;
  groupsEnabled: boolean;
  floor: number;
}

/**
 * The accounts sharing each searched identifier value, and those on each followed session's
 * address and block, each read no further than its type can count (`sharersToRead`): one
 * compound statement, its rows one per found account and branch (`b`).
 */
export async function links({ rows }: Reader, projectId: string, search: LinkSearch) {
  const found = linkStatement(projectId, search);
  return decode.links(found ? await rows(textOf(found.key, found.sql), found.bindings) : [], search);
}

/**
 * The link search (`links`) and the accounts the evaluation describes of those it found: only
 * links over the floor are read (`accountsToDescribe`), in a second statement, whatever the
 * engine, so that a pair under the floor costs no account read.
 */
export async function linksDescribed(reader: Reader, projectId: string, search: LinkSearch, ask: LinksAsked) {
  const found = await links(reader, projectId, search);
  const ids = accountsToDescribe(search, found, ask);
  const accounts = ids.length > 0 ? await accountRows(reader, projectId, ids, LINKED_ACCOUNT_COLUMNS) : [];
  const linked: Map<string, LinkedRecord> = decode.linked(accounts);
  return { ...found, linked };
}
