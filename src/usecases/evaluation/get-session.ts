/** GET /session/{id}: a stored session in the top-level form, its signals recomputed (no ip_reputation there). */
import type { Session } from '../../api-types';
import { signalsOf } from '../../domain/evaluation';
import { toTopLevelSession } from '../../domain/session/views';
import { SessionNotFoundError } from '../../errors';
import type { Project } from '../../storage/repositories/projects';
import type { EvaluationContext } from './deps';

export async function getSession(
  ctx: EvaluationContext,
  project: Project,
  sessionId: string,
  requestId: string,
): Promise<Session> {
  const found = await findSession(ctx, project, sessionId, requestId);
  if (!found) throw new SessionNotFoundError();
  ctx.metrics?.evaluated('get', found);
  return found;
}

/**
 * The session in GET /session/{id}'s form, or undefined when the project has no such session
 * (a verification's device and referring sessions).
 */
export async function findSession(
  ctx: EvaluationContext,
  project: Project,
  sessionId: string,
  requestId: string,
): Promise<Session | undefined> {
  const { store } = ctx;
  const found = await store.session(project.id, sessionId);
  if (!found) return undefined;
  const { session } = found;
  const owner = session.accountIds[session.accountIds.length - 1];
  const [previous, counts] = await Promise.all([
    owner !== undefined
      ? store.previousOfAccount(project.id, owner, session.startTime, session.id)
      : store.previousOfDevice(project.id, session.deviceId, session.startTime, session.id),
    store.counts(project.id, {
      sessionId: session.id,
      ip: session.ipAddress,
      block: session.ipBlock,
      now: ctx.clock.now(),
    }),
  ]);
  const signals = signalsOf({
    session,
    ipLists: ctx.listsOf(session.ipAddress),
    previousIpLists: ctx.listsOf(previous?.ipAddress ?? ''),
    network: counts.network,
    previous,
  });
  return toTopLevelSession(
    { ...session.facts, ...signals },
    { account_ids: session.accountIds, request_id: requestId, project_id: project.id, session_id: session.id },
  );
}
