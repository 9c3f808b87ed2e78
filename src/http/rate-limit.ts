/**
 * Requests per minute per API key (the key's hash names the bucket, so keys are not kept in
 * memory in the clear). Requests without a key are limited per client address. Counters are
 * per process: behind a load balancer with N processes the effective limit is N times this.
 */
import type { RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { ErrorBody } from '../api-types';
import { hashApiKey } from '../security/secrets';

function tooManyRequests(res: Response, retryAfterSeconds: number, message: string): void {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  const body: ErrorBody = { statusCode: 429, message };
  res.status(429).json(body);
}

/** SDK posts: per client address, and per project (named by header or query parameter). */
export function makeIngestRateLimits(perIp: number, perProject: number): RequestHandler[] {
  const limited = (what: string) => (_req: unknown, res: Response) =>
    tooManyRequests(res, 60, `Too many session posts for this ${what}; retry after 60 seconds`);
  return [
    rateLimit({ windowMs: 60_000, limit: perIp, standardHeaders: 'draft-6', legacyHeaders: false, keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''), handler: limited('address') }),
    rateLimit({
      windowMs: 60_000,
      limit: perProject,
      standardHeaders: false,
      legacyHeaders: false,
      keyGenerator: (req) => `project:${req.header('x-project-id') ?? String(req.query.project_id ?? '')}`,
      handler: limited('project'),
    }),
  ];
}

export function makeApiRateLimit(perMinute: number): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    keyGenerator: (req) => {
      const key = req.header('x-api-key');
      return key ? `key:${hashApiKey(key)}` : `ip:${ipKeyGenerator(req.ip ?? '')}`;
    },
    handler: (req, res, _next, options) => {
      const resetTime = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const retryAfter = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + options.windowMs) - Date.now()) / 1000));
      tooManyRequests(res, retryAfter, `Too many requests for this API key (limit ${perMinute} per minute); retry after ${retryAfter} seconds`);
    },
  });
}
