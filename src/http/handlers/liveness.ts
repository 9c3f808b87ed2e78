/** Handlers of the `Liveness` tag, named after their operationIds. */
import type { Request, Response } from 'express';
import type { CreateVerificationSession, EnrollRequest, VerifyIdentityRequest, VerifyRequest } from '../../api-types';
import type { VerificationUseCases } from '../../usecases/verification';
import type { CaptureKind } from '../../domain/verification/analysis';
import type { MediaUrls } from '../../storage/media';
import { projectOf } from '../context';

/** The session the query forms ask for (validated and coerced): `id=true` an ID Check, otherwise a Face Match. */
function queryForm(req: Request): Pick<CreateVerificationSession, 'type' | 'referring_session_id'> {
  const query = req.query as { id?: boolean; referring_session_id?: string };
  return { type: query.id === true ? 'id-check' : 'face-match', referring_session_id: query.referring_session_id };
}

export function makeLivenessHandlers(verification: VerificationUseCases, mediaUrls: MediaUrls) {
  return {
    async uploadVerificationCapture(req: Request<{ session_id: string }>, res: Response) {
      res.json(
        await verification.capture(
          req.params.session_id,
          String(req.query.token),
          req.query.kind as CaptureKind,
          req.body,
        ),
      );
    },
    async completeVerificationSession(req: Request<{ session_id: string }>, res: Response) {
      const deviceSessionId = typeof req.query.device_session_id === 'string' ? req.query.device_session_id : undefined;
      res.json(await verification.complete(req.params.session_id, String(req.query.token), { deviceSessionId }));
    },
    /** GET /media/{id}?expires=…&signature=… (outside the contract): a captured image behind a signed URL. */
    async getMedia(req: Request<{ media_id: string }>, res: Response) {
      const media = await mediaUrls.open(req.params.media_id, req.query.expires, req.query.signature);
      res.setHeader('Cache-Control', 'private, no-store');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.type(media.contentType).send(media.bytes);
    },
    async createVerificationSession(
      req: Request<Record<string, string>, unknown, CreateVerificationSession>,
      res: Response,
    ) {
      res.json(await verification.create(projectOf(req), req.body, { requestId: req.requestId }));
    },
    /** The query form of createVerificationSession: `id=true` (coerced by the validator) is an ID Check. */
    async getVerificationSession(req: Request, res: Response) {
      res.json(await verification.create(projectOf(req), queryForm(req), { requestId: req.requestId }));
    },
    /** The public link: a new session of the project in `project_id`, the browser sent to its hosted page. */
    async redirectToVerification(req: Request, res: Response) {
      const projectId = typeof req.query.project_id === 'string' ? req.query.project_id : undefined;
      res.redirect(302, await verification.openPublicLink(projectId, queryForm(req), { requestId: req.requestId }));
    },
    async enrollAccount(req: Request<Record<string, string>, unknown, EnrollRequest>, res: Response) {
      res.json(await verification.enroll(projectOf(req), req.body, { requestId: req.requestId }));
    },
    async verifyIdentity(req: Request<Record<string, string>, unknown, VerifyIdentityRequest>, res: Response) {
      res.json(await verification.verifyIdentity(projectOf(req), req.body, { requestId: req.requestId }));
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
