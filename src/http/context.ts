/** What the middleware attaches to a request: its id, and the project its API key belongs to. */
import type { Request } from 'express';
import { AppError } from '../errors';
import type { Project } from '../storage/repositories/projects';
import type { Actor } from '../usecases/actor';

declare module 'express-serve-static-core' {
  interface Request {
    /** A UUID per request; the `request_id` of responses and the `x-request-id` header. */
    requestId: string;
    /** Set by the API-key security handler. */
    project?: Project;
  }
}

export function projectOf(req: Request): Project {
  if (!req.project) throw new AppError(500, 'no project on an authenticated route');
  return req.project;
}

/** Who makes the change: the request's API key (the security handler has checked it; only its hash is ever recorded). */
export function actorOf(req: Request): Actor {
  return { apiKey: req.header('x-api-key') ?? '' };
}
