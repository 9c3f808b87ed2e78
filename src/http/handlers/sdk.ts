/** Handlers of the `SDK` tag. */
import type { Request, Response } from 'express';
import type { IngestChallenge, IngestSession, IngestSessionResponse } from '../../api-types';
import type { IngestRequest, IngestUseCases } from '../../usecases/ingest';

const projectIdOf = (req: Request<Record<string, string>, unknown, unknown>) =>
  req.header('x-project-id') ?? (typeof req.query.project_id === 'string' ? req.query.project_id : undefined);

/** A header as sent (at most `max` characters kept), or undefined when absent. */
const header = (req: Request<Record<string, string>, unknown, unknown>, name: string, max = 1024) =>
  req.header(name)?.slice(0, max);

/** What ingestion cross-checks against the body: the connecting address and the browser's own headers. */
function seenOf(req: Request<Record<string, string>, unknown, unknown>): IngestRequest {
  const headers: IngestRequest['headers'] = {
    user_agent: header(req, 'user-agent'),
    sec_ch_ua: header(req, 'sec-ch-ua'),
    sec_ch_ua_mobile: header(req, 'sec-ch-ua-mobile', 8),
    sec_ch_ua_platform: header(req, 'sec-ch-ua-platform', 64),
    accept_language: header(req, 'accept-language', 256),
  };
  for (const key of Object.keys(headers) as (keyof typeof headers)[])
    if (headers[key] === undefined) delete headers[key];
  return { ip: req.ip ?? req.socket.remoteAddress ?? '', headers };
}

export function makeSdkHandlers(ingest: IngestUseCases) {
  return {
    async createIngestChallenge(req: Request<Record<string, string>>, res: Response<IngestChallenge>) {
      const challenge = await ingest.challenge(projectIdOf(req));
      res.set('cache-control', 'no-store').json(challenge);
    },

    async ingestSession(
      req: Request<Record<string, string>, unknown, IngestSession>,
      res: Response<IngestSessionResponse>,
    ) {
      res.json(await ingest.ingest(projectIdOf(req), req.body, seenOf(req)));
    },
  };
}
