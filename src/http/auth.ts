/**
 * The `ApiKeyAuth` security handler of the spec: looks the `x-api-key` up among the projects'
 * keys. A missing or unknown key is a 401, and an unknown one is counted against the client's
 * address (`failed`: rate-limit.ts's failed-authentication limit); a failure of the lookup
 * itself (the database) is a 500, never a 401, so an outage does not look like a bad key.
 */
import type { Request } from 'express';
import { InternalError, UnauthorizedError } from '../errors';
import type { Logger } from '../logger';
import type { ProjectUseCases } from '../usecases/projects';

export function makeApiKeyHandler(projects: ProjectUseCases, logger: Logger, failed: (req: Request) => Promise<void>) {
  return async (req: Request): Promise<true> => {
    const key = req.header('x-api-key');
    if (!key) throw new UnauthorizedError('Missing x-api-key header');
    let holder;
    try {
      holder = await projects.authenticate(key);
    } catch (cause) {
      // The validator keeps only the status and message of what is thrown here: log the cause now.
      logger.error({ err: cause, requestId: req.requestId }, 'API key lookup failed');
      throw new InternalError(cause);
    }
    if (!holder) {
      await failed(req);
      throw new UnauthorizedError('Invalid x-api-key');
    }
    req.project = holder.project;
    req.apiKeyScope = holder.scope;
    return true;
  };
}
