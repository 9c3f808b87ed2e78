/** Handlers of the `Session` tag, named after their operationIds. */
import type { Request, Response } from 'express';
import type {
  AuthenticateRequest,
  EvaluationReceipt,
  AuthenticateResponse,
  Session,
  UnauthenticatedRequest,
  UnauthenticatedResponse,
} from '../../api-types';
import type { EvaluationUseCases } from '../../usecases/evaluation';
import { actorOf, projectOf } from '../context';
import { checkMetadataSize } from '../limits';
import { readAccount } from '../loose-account';

/** The validator has coerced `accounts_linked` to a boolean. */
const accountsLinked = (req: Request) => (req.query as { accounts_linked?: boolean }).accounts_linked === true;

export function makeSessionHandlers(evaluation: EvaluationUseCases) {
  return {
    async getEvaluation(req: Request<{ request_id: string }>, res: Response<EvaluationReceipt>) {
      res.json(await evaluation.receipt(projectOf(req), req.params.request_id));
    },
    async getSession(req: Request<{ session_id: string }>, res: Response<Session>) {
      res.json(await evaluation.get(projectOf(req), req.params.session_id, req.requestId));
    },
    async authenticateSession(
      req: Request<Record<string, string>, unknown, AuthenticateRequest>,
      res: Response<AuthenticateResponse>,
    ) {
      const body = { ...req.body, account: readAccount(req.body.account) };
      checkMetadataSize(body.account.metadata, 'account.metadata');
      res.json(
        await evaluation.authenticate(projectOf(req), body, {
          requestId: req.requestId,
          accountsLinked: accountsLinked(req),
          actor: actorOf(req),
        }),
      );
    },
    async evaluateUnauthenticatedSession(
      req: Request<Record<string, string>, unknown, UnauthenticatedRequest>,
      res: Response<UnauthenticatedResponse>,
    ) {
      res.json(
        await evaluation.evaluateUnauthenticated(projectOf(req), req.body, {
          requestId: req.requestId,
          accountsLinked: accountsLinked(req),
        }),
      );
    },
  };
}
