/** Handlers of the `Liveness` tag, named after their operationIds. */
import type { Request, Response } from 'express';
import type { CreateVerificationSession, VerifyRequest } from '../../api-types';
import type { VerificationUseCases } from '../../usecases/verification';
import { projectOf } from '../context';

/** The service's own origin as the client reached it (trust proxy applies), for the hosted page's URL. */
const baseUrlOf = (req: Request) => `${req.protocol}://${req.get('host')}`;

export function makeLivenessHandlers(verification: VerificationUseCases) {
  return {
    async createVerificationSession(req: Request<Record<string, string>, unknown, CreateVerificationSession>, res: Response) {
      res.json(await verification.create(projectOf(req), req.body, { requestId: req.requestId, baseUrl: baseUrlOf(req) }));
    },
    async cancelVerificationSession(req: Request<{ session_id: string }>, res: Response) {
      res.json(await verification.cancel(req.params.session_id, String(req.query.token)));
    },
    async verifyFace(req: Request<Record<string, string>, unknown, VerifyRequest>, res: Response) {
      res.json(await verification.result(projectOf(req), req.body.session_id, 'face-match'));
    },
    async verifyId(req: Request<Record<string, string>, unknown, VerifyRequest>, res: Response) {
      res.json(await verification.result(projectOf(req), req.body.session_id, 'id-check'));
    },
  };
}
