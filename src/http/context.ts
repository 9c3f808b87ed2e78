/** What the middleware attaches to a request: its id, and the project its API key belongs to. */
import type { Request } from 'express';
import { AppError } from '../errors';
import type { Project } from '../storage/repositories/projects';
import type { ApiKeyScope } from '../domain/operators';
import type { Actor } from '../usecases/actor';
import type { ConsoleContext } from '../usecases/operators';

declare module 'express-serve-static-core' {
  interface Request {
    /** A UUID per request; the `request_id` of responses and the `x-request-id` header. */
    requestId: string;
    /** Set by the security handlers (the API key's project, or the console operator's). */
    project?: Project;
    /** Set by the API-key security handler: what the key may do. */
    apiKeyScope?: ApiKeyScope;
    /** Set by the console-session security handler: the signed-in operator, and the session's token. */
    operator?: ConsoleContext & { sessionToken: string };
  }
}

export function projectOf(req: Request): Project {
  if (!req.project) throw new AppError(500, 'no project on an authenticated route');
  return req.project;
}

/**
 * Who makes the change: the console operator, or the request's API key (the security handler
 * has checked it; only its hash is ever recorded).
 */
export function actorOf(req: Request): Actor {
  if (req.operator) return { operatorId: req.operator.operator.id };
  return { apiKey: req.header('x-api-key') ?? '' };
}
