/** Handlers of the `SDK` tag. */
import type { Request, Response } from 'express';
import type { IngestSession, IngestSessionResponse } from '../../api-types';
import type { IngestUseCases } from '../../usecases/ingest';

export function makeSdkHandlers(ingest: IngestUseCases) {
  return {
    async ingestSession(
      req: Request<Record<string, string>, unknown, IngestSession>,
      res: Response<IngestSessionResponse>,
    ) {
      const projectId =
        req.header('x-project-id') ?? (typeof req.query.project_id === 'string' ? req.query.project_id : undefined);
      res.json(await ingest.ingest(projectId, req.body, req.ip ?? req.socket.remoteAddress ?? ''));
    },
  };
}
