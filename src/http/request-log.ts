/**
 * A request id on every request (the `x-request-id` of every answer), and one structured log
 * line per response (no bodies, no query strings, no path parameters: see loggedPath).
 */
import type { RequestHandler } from 'express';
import type { Random } from '../clock';
import type { Logger } from '../logger';
import { bundledSpec } from '../spec';

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
    const path = loggedPath(req.path);
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

/** The contract's paths as segments, for loggedPath (read once). */
let templates: { template: string; parts: string[]; literals: number }[] | undefined;

const isParameter = (part: string) => part.startsWith('{') && part.endsWith('}');

/**
 * What the request log says of a path: the contract's template it matches
 * (`/account/{account_id}`), so that no id in a path is written to the log (account ids are
 * often emails, and an erased account must leave no trace); a literal template wins over one
 * with a parameter in its place (`/session/authenticate`, not `/session/{session_id}`). A path
 * outside the contract (the pages, the console's files, a mistyped path that may still carry
 * an id) keeps its first segment only. Matched on the path itself, not on what the validator
 * found, so a request refused before it (a rate limit, a bad key) is logged the same way.
 */
export function loggedPath(path: string): string {
  templates ??= Object.keys(bundledSpec().paths).map((template) => {
    const parts = template.split('/');
    return { template, parts, literals: parts.filter((p) => !isParameter(p)).length };
  });
  const segments = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  let best: (typeof templates)[number] | undefined;
  for (const t of templates) {
    if (t.parts.length !== segments.length || (best && best.literals >= t.literals)) continue;
    if (t.parts.every((part, i) => isParameter(part) || part === segments[i])) best = t;
  }
  if (best) return best.template;
  return segments.length > 2 ? `/${segments[1]}/…` : path;
}
