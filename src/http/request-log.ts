/**
 * A request id on every request (the `x-request-id` of every answer), and one structured log
 * line per response (no bodies, no query strings).
 */
import type { RequestHandler } from 'express';
import type { Random } from '../clock';
import type { Logger } from '../logger';

/**
 * An inbound `x-request-id` that is kept as the request's id (a proxy's or the caller's, to
 * follow one request across services): 8 to 64 letters, digits, `.`, `_` or `-`, starting with
 * a letter or digit (a UUID, nginx's `$request_id`, a ULID). Any other gets an id of our own.
 */
export const INBOUND_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{7,63}$/;

export function makeRequestContext(random: Random, logger: Logger): RequestHandler {
  return (req, res, next) => {
    const inbound = req.headers['x-request-id'];
    req.requestId = typeof inbound === 'string' && INBOUND_REQUEST_ID.test(inbound) ? inbound : random.uuid();
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
