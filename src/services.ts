/** Wires repositories and use cases from the edge dependencies; used by the server and the CLI. */
import path from 'node:path';
import type { Clock, Random } from './clock';
import { AppError } from './errors';
import type { Logger } from './logger';
import type { SecretBox } from './security/secrets';
import type { Db } from './storage/db';
import { makeAccountRepository } from './storage/repositories/accounts';
import { makeEvaluationFactsRepository } from './storage/repositories/evaluation-facts';
import { makeHistoryRepository } from './storage/repositories/history';
import { makeListRepository } from './storage/repositories/lists';
import { makeProjectRepository } from './storage/repositories/projects';
import { makeRateLimitRepository } from './storage/repositories/rate-limits';
import { makeSessionRepository } from './storage/repositories/sessions';
import { makeVerificationIndex } from './storage/repositories/verification-index';
import { makeVerificationRepository } from './storage/repositories/verifications';
import { makeAccountUseCases } from './usecases/accounts';
import { makeEvaluation, type IpListLookup } from './usecases/evaluation';
import { makeIngestUseCases, type IpIntelligence } from './usecases/ingest';
import { makeListUseCases } from './usecases/lists';
import { makeProjectUseCases } from './usecases/projects';
import { makeVerificationUseCases } from './usecases/verification/sessions';
import { unavailableAnalysisEngine } from './analysis/unavailable';
import type { AnalysisEngine } from './domain/verification/analysis';
import { makeLocalMediaStore, makeMediaUrls, unconfiguredMediaStore, type MediaStore } from './storage/media';
import { makeOutbox } from './webhooks/outbox';
import { makeWake } from './webhooks/wake';

export interface CoreDeps {
  db: Db;
  clock: Clock;
  random: Random;
  logger: Logger;
  secretBox: SecretBox;
  ipIntelligence: IpIntelligence;
  /** The Tor, VPN, proxy, datacenter and fraud address lists (src/geo/ip-lists.ts). */
  ipLists: IpListLookup;
  /** The data folder; captured images go to `<dataDir>/media` unless `media` is given. */
  dataDir?: string;
  /** Where captured images are kept (encrypted); without it and without dataDir, captures answer 503. */
  media?: MediaStore;
  /** Face and document analysis; until the real engine is installed, one that answers 503. Never a fake. */
  analysis?: AnalysisEngine;
  /** How long an API key's project is kept in memory (config apiKeyCacheTtlMs); absent: not kept. */
  apiKeyCacheTtlMs?: number;
  /**
   * The origin (and path prefix) of every absolute URL the service makes (config
   * publicBaseUrl; a function because with PORT=0 the listen address is known only once
   * listening). Absent: making such a URL fails (a process that makes none, like the CLI).
   */
  publicBaseUrl?: () => string;
}

const noPublicBaseUrl = (): string => {
  throw new Error('no public base URL in this process (PUBLIC_BASE_URL)');
};

export function makeServices(deps: CoreDeps) {
  const repos = {
    projects: makeProjectRepository(deps.db),
    sessions: makeSessionRepository(deps.db),
    accounts: makeAccountRepository(deps.db),
    lists: makeListRepository(deps.db),
    history: makeHistoryRepository(deps.db),
    facts: makeEvaluationFactsRepository(deps.db),
    verifications: makeVerificationRepository(deps.db, deps.secretBox),
    verificationIndex: makeVerificationIndex(deps.db, deps.secretBox),
    outbox: makeOutbox(deps.db, deps.secretBox),
    rateLimits: makeRateLimitRepository(deps.db),
  };
  const media = deps.media ?? (deps.dataDir ? makeLocalMediaStore(path.join(deps.dataDir, 'media'), deps.secretBox, deps.random) : unconfiguredMediaStore);
  const publicBaseUrl = deps.publicBaseUrl ?? noPublicBaseUrl;
  const mediaUrls = makeMediaUrls(media, deps.clock, publicBaseUrl);
  /** Wakes this process's webhook dispatcher when a use case has queued a webhook. */
  const webhookWake = makeWake();
  const evaluation = makeEvaluation({ ...deps, ...repos });
  const projects = makeProjectUseCases({ ...deps, projects: repos.projects, lists: repos.lists });
  const verification = makeVerificationUseCases({
    ...deps,
    ...repos,
    index: repos.verificationIndex,
    media,
    mediaUrls,
    analysis: deps.analysis ?? unavailableAnalysisEngine,
    webhooksQueued: webhookWake.wake,
    publicBaseUrl,
    async decisionThreshold(projectId) {
      const project = await repos.projects.findById(projectId);
      if (!project) throw new Error(`project ${projectId} no longer exists`);
      return project.decisionThreshold;
    },
    async deviceSession(projectId, sessionId) {
      const project = await repos.projects.findById(projectId);
      if (!project) return undefined;
      try {
        return await evaluation.get(project, sessionId, deps.random.uuid());
      } catch (err) {
        // Not found or expired: the SDK's facts are not there.
        if (err instanceof AppError && err.status === 400) return undefined;
        throw err;
      }
    },
  });
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
    accounts: makeAccountUseCases({ ...deps, ...repos, evaluation, forgetVerifications: verification.forgetAccount }),
    lists: makeListUseCases({ ...deps, ...repos }),
    ingest: makeIngestUseCases({ ...deps, projects: repos.projects, sessions: repos.sessions }),
    verification,
    /** A queued webhook's body as it is sent now (media URLs signed from this moment). */
    renderWebhook: (row: { body: string }) => verification.renderWebhook(row.body),
    webhookWake,
    mediaUrls,
  };
}

export type Services = ReturnType<typeof makeServices>;
