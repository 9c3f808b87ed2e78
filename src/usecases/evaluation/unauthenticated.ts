/** POST /session/unauthenticated: gather the session's facts → evaluate (pure) → commit once → respond. */
import type { UnauthenticatedRequest, UnauthenticatedResponse } from '../../api-types';
import { linkSearchOf, type EvaluationFacts } from '../../domain/evaluation';
import type { Project } from '../../storage/repositories/projects';
import { actorOf, type EvaluationContext, type EvaluationOptions } from './deps';
import { evaluateAndCommit, gatherLinks, live, load, recordMetrics, respond } from './steps';

export async function evaluateUnauthenticated(
  ctx: EvaluationContext,
  project: Project,
  body: UnauthenticatedRequest,
  options: EvaluationOptions,
): Promise<UnauthenticatedResponse> {
  const facts = await ctx.span('evaluation.gather', () =>
    gather(ctx, project, body.session_id, options.accountsLinked),
  );
  const made = { kind: 'unauthenticated' as const, requestId: options.requestId, actor: actorOf(options) };
  // No account in its write, so no race to lose: one attempt.
  const { outcome } = await evaluateAndCommit(ctx, project, facts, [], made);
  recordMetrics(ctx, 'unauthenticated', outcome);
  return respond(project, facts, outcome, options, {});
}

/** What unauthenticated's evaluation is computed from. */
async function gather(
  ctx: EvaluationContext,
  project: Project,
  sessionId: string,
  describe: boolean,
): Promise<EvaluationFacts> {
  const { store } = ctx;
  const now = ctx.clock.now();
  const { session } = await load(ctx, project, sessionId);
  live(session, now);
  const [owners, previous, counts, { search: _search, ...links }] = await Promise.all([
    store.accounts(project.id, session.accountIds),
    store.previousOfDevice(project.id, session.deviceId, session.startTime, session.id),
    store.counts(project.id, { sessionId: session.id, ip: session.ipAddress, block: session.ipBlock, now }),
    gatherLinks(ctx, project, linkSearchOf({ session }), describe),
  ]);
  // With groups on, a session already used by an account links within that account's group.
  const lastAccount = session.accountIds.at(-1);
  const owner = lastAccount !== undefined ? owners.get(lastAccount) : undefined;
  return {
    now,
    interactive: false,
    project,
    session,
    ipLists: ctx.listsOf(session.ipAddress),
    previousIpLists: ctx.listsOf(previous?.ipAddress ?? ''),
    network: counts.network,
    previous,
    sessionAccountLists: [...new Set(session.accountIds.flatMap((a) => owners.get(a)?.lists ?? []))].sort(),
    linkGroup: owner?.record.group,
    ...links,
    rules: ctx.rulesOf(project),
  };
}
