/** Wires repositories and use cases from the edge dependencies; used by the server and the CLI. */
import type { Clock, Random } from './clock';
import type { Logger } from './logger';
import type { SecretBox } from './security/secrets';
import type { Db } from './storage/db';
import { makeProjectRepository } from './storage/repositories/projects';
import { makeSessionRepository } from './storage/repositories/sessions';
import { makeProjectUseCases } from './usecases/projects';
import { makeIngestUseCases, type IpIntelligence } from './usecases/ingest';
import { makeSessionUseCases } from './usecases/sessions';

export interface CoreDeps {
  db: Db;
  clock: Clock;
  random: Random;
  logger: Logger;
  secretBox: SecretBox;
  ipIntelligence: IpIntelligence;
}

export function makeServices(deps: CoreDeps) {
  const repos = {
    projects: makeProjectRepository(deps.db),
    sessions: makeSessionRepository(deps.db),
  };
  return {
    repos,
    projects: makeProjectUseCases({ ...deps, projects: repos.projects }),
    sessions: makeSessionUseCases({ sessions: repos.sessions }),
    ingest: makeIngestUseCases({ ...deps, projects: repos.projects, sessions: repos.sessions }),
  };
}

export type Services = ReturnType<typeof makeServices>;
