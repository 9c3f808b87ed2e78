/** Handlers of the `Session` tag, named after their operationIds. */
import type { Request, Response } from 'express';
import type { AuthenticateRequest, Session, UnauthenticatedRequest } from '../../api-types';
import type { SessionUseCases } from '../../usecases/sessions';
import { projectOf } from '../context';

export function makeSessionHandlers(sessions: SessionUseCases) {
  return {
    async getSession(req: Request<{ session_id: string }>, res: Response<Session>) {
      res.json(await sessions.get(projectOf(req), req.params.session_id, req.requestId));
    },
    async authenticateSession(req: Request<Record<string, string>, unknown, AuthenticateRequest>, res: Response) {
      res.json(await sessions.authenticate(projectOf(req), req.body));
    },
    async evaluateUnauthenticatedSession(req: Request<Record<string, string>, unknown, UnauthenticatedRequest>, res: Response) {
      res.json(await sessions.evaluateUnauthenticated(projectOf(req), req.body));
    },
  };
}
