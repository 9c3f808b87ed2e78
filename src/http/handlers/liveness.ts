/**
 * Handlers of the `Liveness` tag. Verification sessions are created by the identity
 * verification part of the service; until it exists no verification session can be found,
 * so every id is answered as the interface answers an unknown one.
 */
import type { Request, Response } from 'express';
import type { VerifyRequest } from '../../api-types';
import { SessionNotFoundError } from '../../errors';

export function makeLivenessHandlers() {
  return {
    async verifyFace(_req: Request<Record<string, string>, unknown, VerifyRequest>, _res: Response) {
      throw new SessionNotFoundError();
    },
    async verifyId(_req: Request<Record<string, string>, unknown, VerifyRequest>, _res: Response) {
      throw new SessionNotFoundError();
    },
  };
}
