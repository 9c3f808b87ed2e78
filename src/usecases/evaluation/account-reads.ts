/**
 * What the Account API reads of the evaluation: an account's links and its details, found as
 * authenticate finds them (from its newest sessions), as of now.
 */
import type { AccountDetails, LinkedAccount } from '../../api-types';
import {
  ACCOUNT_SESSIONS_READ,
  accountDetails as detailsOf,
  accountEmail,
  describeLinks,
  emailQueryOf,
  LINK_CAP,
  linkEvidence,
  linkSearch,
  linksOf,
  SESSIONS_FOLLOWED,
  uniquesQuery,
  uniquesWith,
  type AccountRecord,
  type AccountWithLists,
  type Link,
  type PastSession,
} from '../../domain/evaluation';
import {
  linksOfEach,
  mergedSearch,
  RING_PER_HOP,
  searchParts,
  secondHop,
  type RingHops,
} from '../../domain/linking/ring';
import type { Project } from '../../storage/repositories/projects';
import type { EvaluationContext } from './deps';
import { gatherLinks, withoutSelf } from './steps';

/** An account's linked accounts, found as authenticate finds them. */
export async function linked(
  ctx: EvaluationContext,
  project: Project,
  record: AccountRecord,
): Promise<LinkedAccount[]> {
  const history = await ctx.store.accountSessions(project.id, record.id, SESSIONS_FOLLOWED);
  const { all, linked } = await accountLinks(ctx, project, record, history, true);
  return describeLinks(all, linked);
}

/** An account's details as authenticate's `account` gives them (as of now), and how many accounts are linked to it. */
export async function accountDetails(
  ctx: EvaluationContext,
  project: Project,
  record: AccountRecord,
): Promise<{ details: AccountDetails; linked: number }> {
  const { store } = ctx;
  const query = emailQueryOf(record);
  const now = ctx.clock.now();
  const windows = uniquesQuery(record.id, record.aggregates.lastSeen, now);
  const [history, emailHistory, uniques] = await Promise.all([
    store.accountSessions(project.id, record.id, ACCOUNT_SESSIONS_READ),
    query ? store.emailHistory(project.id, query) : undefined,
    store.uniques(project.id, windows),
  ]);
  const { all } = await accountLinks(ctx, project, record, history, false);
  const email = accountEmail(record, emailHistory && withoutSelf(emailHistory, record, query), now);
  return {
    details: detailsOf(record, history, now, uniquesWith(uniques, windows), email),
    linked: Math.min(all.length, LINK_CAP),
  };
}

/**
 * What an account's ring is assembled from (domain/linking/ring.ts): its links, found as
 * `linked` finds them; with two hops, the links of its strongest RING_PER_HOP linked accounts,
 * found by one merged search over their newest sessions (read in one statement; the search a
 * statement per BRANCHES_PER_SEARCH values, addresses and blocks); and the ring's accounts with
 * their lists (one read per hop). Bounded whatever the ring's size: seven statements and the
 * merged search's parts (at most 23: 40 accounts, each 50 sessions with four identifiers).
 */
export async function ringLinks(
  ctx: EvaluationContext,
  project: Project,
  record: AccountRecord,
  hops: RingHops,
): Promise<{ links: Link[]; linksOfFirst: Map<string, Link[]>; accounts: Map<string, AccountWithLists> }> {
  const { store } = ctx;
  const history = await store.accountSessions(project.id, record.id, SESSIONS_FOLLOWED);
  const { all } = await accountLinks(ctx, project, record, history, false);
  const firstIds = all.slice(0, RING_PER_HOP).map((l) => l.accountId);
  const [accounts, sessions] = await Promise.all([
    store.accounts(project.id, [record.id, ...firstIds]),
    hops === 2 ? store.sessionsOfAccounts(project.id, firstIds, SESSIONS_FOLLOWED) : undefined,
  ]);
  if (!sessions) return { links: all, linksOfFirst: new Map(), accounts };
  const searches = firstIds.flatMap((id) => {
    const found = accounts.get(id);
    return found ? [linkSearch(sessions.get(id) ?? [], found.record)] : [];
  });
  // One statement a part: SQLite takes at most 500 branches in one.
  const parts = await Promise.all(searchParts(mergedSearch(searches)).map((part) => store.links(project.id, part)));
  const found = {
    identifiers: parts.flatMap((p) => p.identifiers),
    networks: parts.flatMap((p) => p.networks),
  };
  const linksOfFirst = linksOfEach(searches, found, project.linkScoreFloor);
  const second = secondHop(record.id, firstIds, linksOfFirst).kept.map((l) => l.accountId);
  if (second.length > 0) for (const [id, a] of await store.accounts(project.id, second)) accounts.set(id, a);
  return { links: all, linksOfFirst, accounts };
}

/** The account's links, found from its newest sessions (newest first) as authenticate finds them. */
async function accountLinks(
  ctx: EvaluationContext,
  project: Project,
  record: AccountRecord,
  history: PastSession[],
  describe: boolean,
) {
  const search = linkSearch(history.slice(0, SESSIONS_FOLLOWED), record);
  const found = await gatherLinks(ctx, project, search, describe);
  const evidence = linkEvidence(found.search, found.identifierMatches, found.networkMatches);
  const group = { enabled: project.groupsEnabled, name: record.group };
  const all = linksOf(evidence, found.linked, group, project.linkScoreFloor);
  return { all, linked: found.linked };
}
