/** The session API's use cases. */
import type { AuthenticateRequest, Session, UnauthenticatedRequest } from '../api-types';
import { toTopLevelSession } from '../domain/session/views';
import { NotImplementedError, SessionNotFoundError } from '../errors';
import type { Project } from '../storage/repositories/projects';
import type { SessionRepository, StoredSession } from '../storage/repositories/sessions';

export interface SessionDeps {
  sessions: SessionRepository;
}

export function makeSessionUseCases({ sessions }: SessionDeps) {
  async function load(project: Project, sessionId: string): Promise<StoredSession> {
    const stored = await sessions.find(project.id, sessionId);
    if (!stored) throw new SessionNotFoundError();
    return stored;
  }

  return {
    async get(project: Project, sessionId: string, requestId: string): Promise<Session> {
      const stored = await load(project, sessionId);
      return toTopLevelSession(stored.facts, {
        account_ids: await sessions.accountIds(stored.id),
        request_id: requestId,
        project_id: project.id,
        session_id: stored.id,
      });
    },

    /** Scoring, accounts and linking are the risk engine's; until then a found session gets 501. */
    async authenticate(project: Project, body: AuthenticateRequest): Promise<never> {
      await load(project, body.session_id);
      throw new NotImplementedError('Session evaluation is not available in this version of Trustgate');
    },

    async evaluateUnauthenticated(project: Project, body: UnauthenticatedRequest): Promise<never> {
      await load(project, body.session_id);
      throw new NotImplementedError('Session evaluation is not available in this version of Trustgate');
    },
  };
}

export type SessionUseCases = ReturnType<typeof makeSessionUseCases>;
