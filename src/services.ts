/** Wires repositories and use cases from the edge dependencies; used by the server and the CLI. */
import type { Clock, Random } from './clock';
import type { Logger } from './logger';
import type { SecretBox } from './security/secrets';
import type { Db } from './storage/db';
import { makeAccountRepository } from './storage/repositories/accounts';
import { makeHistoryRepository } from './storage/repositories/history';
import { makeListRepository } from './storage/repositories/lists';
import { makeProjectRepository } from './storage/repositories/projects';
import { makeSessionRepository } from './storage/repositories/sessions';
import { makeVerificationRepository } from './storage/repositories/verifications';
import { makeAccountUseCases } from './usecases/accounts';
import { makeEvaluation, type IpListLookup } from './usecases/evaluation';
import { makeIngestUseCases, type IpIntelligence } from './usecases/ingest';
import { makeListUseCases } from './usecases/lists';
import { makeProjectUseCases } from './usecases/projects';
import { makeVerificationUseCases } from './usecases/verification';
import { makeOutbox } from './webhooks/outbox';

export interface CoreDeps {
  db: Db;
  clock: Clock;
  random: Random;
  logger: Logger;
  secretBox: SecretBox;
  ipIntelligence: IpIntelligence;
  /** The Tor, VPN, proxy, datacenter and fraud address lists (src/geo/ip-lists.ts). */
  ipLists: IpListLookup;
}

export function makeServices(deps: CoreDeps) {
  const repos = {
    projects: makeProjectRepository(deps.db),
    sessions: makeSessionRepository(deps.db),
    accounts: makeAccountRepository(deps.db),
    lists: makeListRepository(deps.db),
    history: makeHistoryRepository(deps.db),
    verifications: makeVerificationRepository(deps.db),
    outbox: makeOutbox(deps.db),
  };
  const evaluation = makeEvaluation({ ...deps, ...repos });
  const projects = makeProjectUseCases({ ...deps, projects: repos.projects });
  return {
    repos,
    projects,
    /** Where a project's webhooks go, and the secret that signs them (decrypted only here). */
    async webhookTarget(projectId: string): Promise<{ url: string | null; secret: string }> {
      const project = await repos.projects.findById(projectId);
      if (!project) throw new Error(`project ${projectId} no longer exists`);
      return { url: project.webhookUrl, secret: await projects.webhookSecret(project) };
    },
    evaluation,
    accounts: makeAccountUseCases({ ...deps, ...repos, evaluation }),
    lists: makeListUseCases({ ...deps, ...repos }),
    ingest: makeIngestUseCases({ ...deps, projects: repos.projects, sessions: repos.sessions }),
    verification: makeVerificationUseCases({ ...deps, ...repos }),
  };
}

export type Services = ReturnType<typeof makeServices>;
