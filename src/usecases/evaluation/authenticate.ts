/**
 * POST /session/authenticate: gather the session's and the account's facts → evaluate (pure) →
 * commit once → respond. Authenticates of one account queue one behind the other in the
 * process; one that raced another process on the same account is evaluated again on fresh facts,
 * holding the account for itself on every node of the database (`store.exclusively`).
 */
import type { AuthenticateRead, AuthenticateResponse } from '../../api-types';
import {
  ACCOUNT_SESSIONS_READ,
  emailQueryOf,
  linkSearchOf,
  NO_UNIQUES,
  previousIn,
  uniquesQuery,
  withSession,
  type EvaluationFacts,
} from '../../domain/evaluation';
import { listsAfter } from '../../domain/lists';
import { ConflictError } from '../../errors';
import type { Project } from '../../storage/repositories/projects';
import { actorOf, type EvaluationContext, type EvaluationOptions } from './deps';
import { applyInput, evaluateAndCommit, gatherLinks, live, load, recordMetrics, respond, withoutSelf } from './steps';

/** An authenticate that lost a race on its account is evaluated again, at most this many times in all. */
const ATTEMPTS = 8;

export function authenticate(
  ctx: EvaluationContext,
  project: Project,
  body: AuthenticateRead,
  options: EvaluationOptions,
): Promise<AuthenticateResponse> {
  return ctx.byAccount.run(`${project.id}\u0000${body.account.id}`, () => authenticateNow(ctx, project, body, options));
}

/**
 * One authenticate; when another process changed the account meanwhile, evaluated again on fresh
 * facts with the account held for itself, which other writers of the account (the Account API)
 * can still race a few times.
 */
async function authenticateNow(
  ctx: EvaluationContext,
  project: Project,
  body: AuthenticateRead,
  options: EvaluationOptions,
): Promise<AuthenticateResponse> {
  const accountId = body.account.id;
  const first = await attempt(ctx, project, body, options, { exclusively: false });
  if (first) return first;
  return ctx.store.exclusively(project.id, accountId, async () => {
    for (let n = 2; n <= ATTEMPTS; n++) {
      const answer = await attempt(ctx, project, body, options, { exclusively: true });
      if (answer) return answer;
    }
    throw new ConflictError(`Account ${accountId} is being changed by other requests at the same time; retry`);
  });
}

/** Gather, evaluate, commit: the answer, or undefined when the account changed since it was read. */
async function attempt(
  ctx: EvaluationContext,
  project: Project,
  body: AuthenticateRead,
  options: EvaluationOptions,
  held: { exclusively: boolean },
): Promise<AuthenticateResponse | undefined> {
  const accountId = body.account.id;
  const facts = await ctx.span('evaluation.gather', () => gather(ctx, project, body, options.accountsLinked));
  const made = { kind: 'authenticate' as const, requestId: options.requestId, accountId, actor: actorOf(options) };
  const { outcome, written } = await evaluateAndCommit(ctx, project, facts, body.account.lists ?? [], made, held);
  if (!written) return undefined;
  recordMetrics(ctx, 'authenticate', outcome);
  return respond(project, facts, outcome, options, { account_id: accountId, account: outcome.account!.details });
}

/** What authenticate's evaluation is computed from. */
async function gather(
  ctx: EvaluationContext,
  project: Project,
  body: AuthenticateRead,
  describe: boolean,
): Promise<EvaluationFacts> {
  const { store } = ctx;
  const now = ctx.clock.now();
  const { id, ...input } = body.account;
  const [loaded, stored] = await Promise.all([
    load(ctx, project, body.session_id, { accountId: id, limit: ACCOUNT_SESSIONS_READ }),
    store.accounts(project.id, [id]),
  ]);
  const { session, history } = loaded;
  live(session, now);
  const existing = stored.get(id);
  const record = applyInput(ctx, project, existing?.record, input, id);
  const email = emailQueryOf(record);
  const account = {
    record,
    existing: existing?.record,
    lists: listsAfter(existing?.lists ?? [], input.lists ?? []),
    sessions: history,
  };
  const previous = previousIn(history, session);
  // The windows of the account's details once this session is linked to it (as evaluate takes them).
  const aggregates = session.accountIds.includes(id) ? record.aggregates : withSession(record.aggregates, session);
  const [counts, { search: _search, ...links }] = await Promise.all([
    store.counts(project.id, {
      sessionId: session.id,
      ip: session.ipAddress,
      block: session.ipBlock,
      now,
      accountId: id,
      ...(email ? { email } : {}),
      uniques: uniquesQuery(id, aggregates.lastSeen, now, session),
    }),
    gatherLinks(ctx, project, linkSearchOf({ session, account }), describe),
  ]);
  if (counts.email) counts.email = withoutSelf(counts.email, existing?.record, email);
  // The account is on the address once this session is linked to it.
  const joins = !session.accountIds.includes(id) && !counts.accountOnIp;
  return {
    now,
    interactive: true,
    project,
    session,
    ipLists: ctx.listsOf(session.ipAddress),
    previousIpLists: ctx.listsOf(previous?.ipAddress ?? ''),
    network: { ...counts.network, ipDistinctAccounts: counts.network.ipDistinctAccounts + (joins ? 1 : 0) },
    previous,
    account: { ...account, ...(counts.email ? { email: counts.email } : {}), uniques: counts.uniques ?? NO_UNIQUES },
    sessionAccountLists: [],
    ...links,
    rules: ctx.rulesOf(project),
  };
}
