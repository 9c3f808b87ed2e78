/** A request id on every request, and one structured log line per response (no bodies, no query strings). */
import type { RequestHandler } from 'express';
import type { Random } from '../clock';
import type { Logger } from '../logger';

export function makeRequestContext(random: Random, logger: Logger): RequestHandler {
  return (req, res, next) => {
    req.requestId = random.uuid();
    res.setHeader('x-request-id', req.requestId);
    const started = process.hrtime.bigint();
    // Taken now: routers mounted on a prefix rewrite req.url while they handle the request.
    const path = req.path;
    res.on('finish', () => {
      logger.info(
        {
          requestId: req.requestId,
          method: req.method,
          path,
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          projectId: req.project?.id,
        },
        'request',
      );
    });
    next();
  };
}
