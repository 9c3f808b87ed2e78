/**
 * The use cases, built per area over the shared parts (makeParts): the edges with their
 * defaults, the repositories, the media store and its URLs, this process's webhook wake and
 * the overview's tally. makeServices calls these in order; each takes what it needs of the
 * others (the evaluation, the projects, the verifications) as arguments.
 */
import path from 'node:path';
import { unavailableAnalysisEngine } from '../analysis/unavailable';
import { makeStatsTally, type StatsTally } from '../domain/stats';
import { isRendered } from '../domain/webhook-events';
import { dialectOf } from '../storage/db';
import {
  makeLocalMediaStore,
  makeMediaUrls,
  unconfiguredMediaStore,
  type MediaStore,
  type MediaUrls,
} from '../storage/media';
import { makeDatabaseMediaStore } from '../storage/postgres/media';
import { importLocalMedia, type MediaImport } from '../storage/postgres/media-import';
import { makeInstallationSecrets } from '../storage/repositories/installation-secrets';
import { timedAnalysis } from '../telemetry/analysis';
import { knexPool } from '../telemetry/metrics';
import type { Tracing } from '../telemetry/tracing';
import { makeAccountUseCases } from '../usecases/accounts';
import { makeEvaluation, type EvaluationUseCases } from '../usecases/evaluation';
import { makeIngestUseCases } from '../usecases/ingest';
import { makeLabelUseCases } from '../usecases/labels';
import { makeListUseCases } from '../usecases/lists';
import { makeCaseUseCases } from '../usecases/cases';
import { makeOperatorUseCases } from '../usecases/operators';
import { makeProjectUseCases, type ProjectUseCases } from '../usecases/projects';
import { makeReadiness } from '../usecases/readiness';
import { makeRingUseCases } from '../usecases/ring';
import type { Retention } from '../usecases/retention';
import { makeRulesUseCases } from '../usecases/rules';
import { makeSearchUseCases } from '../usecases/search';
import { makeVerificationUseCases, type VerificationUseCases } from '../usecases/verification';
import { makeWebhookDeliveries } from '../usecases/webhook-deliveries';
import { makeWake, type Wake } from '../webhooks/wake';
import { ipDataNotLoaded, type CoreDeps } from './edges';
import type { JobDeps } from './jobs';
import type { Repositories } from './repositories';

/** What every area is built over. */
export interface Parts {
  /** The edges, defaults filled in. */
  deps: CoreDeps;
  tracing: Tracing;
  repos: Repositories;
  media: MediaStore;
  mediaUrls: MediaUrls;
  /**
   * PostgreSQL: moves the images this node kept in `<dataDir>/media` before they were shared
   * into the table (storage/postgres/media-import.ts); undefined where there is nothing to move.
   */
  importLocalMedia(): Promise<MediaImport | undefined>;
  publicBaseUrl: () => string;
  /** Wakes this process's webhook dispatcher when a use case has queued a webhook. */
  wake: Wake;
  /** The overview's counts, tallied by the evaluations and written by the flusher (makeRuntime starts it, tests call flush). */
  statsTally: StatsTally;
}

const noPublicBaseUrl = (): string => {
  throw new Error('no public base URL in this process (PUBLIC_BASE_URL)');
};

/**
 * Where images are kept: on PostgreSQL the table every node shares (and the key every node signs
 * with); on SQLite, one machine, the data folder's files; with neither, captures answer 503.
 */
function mediaOf(deps: CoreDeps): Pick<Parts, 'media' | 'importLocalMedia'> {
  const dir = deps.dataDir && path.join(deps.dataDir, 'media');
  const nothing = () => Promise.resolve(undefined);
  if (deps.media) return { media: deps.media, importLocalMedia: nothing };
  if (dialectOf(deps.db) === 'postgresql') {
    const secrets = makeInstallationSecrets(deps.db);
    return {
      media: makeDatabaseMediaStore({ ...deps, secrets }),
      importLocalMedia: dir ? () => importLocalMedia(deps.db, dir) : nothing,
    };
  }
  return {
    media: dir ? makeLocalMediaStore(dir, deps.secretBox, deps.random) : unconfiguredMediaStore,
    importLocalMedia: nothing,
  };
}

export function makeParts(deps: CoreDeps, repos: Repositories): Parts {
  const { media, importLocalMedia } = mediaOf(deps);
  const publicBaseUrl = deps.publicBaseUrl ?? noPublicBaseUrl;
  const mediaUrls = makeMediaUrls(media, deps.clock, publicBaseUrl);
  const tracing = deps.tracing!; // withDefaults gives NO_TRACING
  return {
    deps,
    tracing,
    repos,
    media,
    mediaUrls,
    importLocalMedia,
    publicBaseUrl,
    wake: makeWake(),
    statsTally: makeStatsTally(),
  };
}

export function evaluationUseCases({ deps, repos, tracing, statsTally, wake }: Parts): EvaluationUseCases {
  return makeEvaluation({
    ...deps,
    ...repos,
    tally: statsTally,
    metrics: deps.metrics?.evaluations,
    tracing,
    webhooksQueued: wake.wake,
  });
}

/** Traces the database's statements and gives the metrics what they read at scrape time. */
export function watchTelemetry({ deps, repos, tracing }: Parts): void {
  tracing.watchDb(deps.db);
  deps.metrics?.watch({
    outboxDepth: repos.outbox.depth,
    networkData: deps.networkData,
    now: () => deps.clock.now(),
    pool: knexPool(deps.db),
  });
}

/** The analysis engine, timed when metrics or tracing are on. */
export function analysisOf({ deps, tracing }: Parts) {
  return deps.analysis && (deps.metrics || tracing.enabled)
    ? timedAnalysis(deps.analysis, deps.metrics?.analysis, tracing)
    : deps.analysis;
}

export function projectUseCases({ deps, repos, statsTally, media }: Parts) {
  const projects = makeProjectUseCases({
    ...deps,
    projects: repos.projects,
    lists: repos.lists,
    projectData: repos.projectData,
    auditEvents: repos.auditEvents,
    evaluationCounts: repos.evaluationCounts,
    statsTally,
    media,
  });
  const rules = makeRulesUseCases({
    ...deps,
    rules: repos.rules,
    ruleDrafts: repos.ruleDrafts,
    auditEvents: repos.auditEvents,
    receipts: repos.receipts,
    accounts: repos.accounts,
    changeProject: projects.changeProject,
  });
  const operators = makeOperatorUseCases({ ...deps, operators: repos.operators, projects: repos.projects });
  return { projects, rules, operators };
}

export function verificationUseCases(
  p: Parts,
  evaluation: EvaluationUseCases,
  analysis: ReturnType<typeof analysisOf>,
): VerificationUseCases {
  return makeVerificationUseCases({
    ...p.deps,
    ...p.repos,
    index: p.repos.verificationIndex,
    media: p.media,
    mediaUrls: p.mediaUrls,
    analysis: analysis ?? unavailableAnalysisEngine,
    evaluation,
    webhooksQueued: p.wake.wake,
    publicBaseUrl: p.publicBaseUrl,
  });
}

/** What the worker's jobs run, as narrow functions (composition/jobs.ts). */
export function jobDeps(
  { deps, repos, wake }: Parts,
  projects: ProjectUseCases,
  verification: VerificationUseCases,
  retention: Retention,
): JobDeps {
  return {
    dispatch: {
      outbox: repos.outbox,
      target: projects.webhookTarget,
      /** A queued webhook's body as it is sent now (media URLs signed from this moment). */
      render: (row) => (isRendered(row.eventType) ? verification.renderWebhook(row.body) : Promise.resolve(row.body)),
      wake,
      metrics: deps.metrics?.webhooks,
    },
    sweep: () => verification.sweep(),
    retain: (options) => retention.runOnce(options),
  };
}

/** GET /readyz's checks: the IP data, the models (none, loading or loaded) and the server's stop. */
export function readinessOf({ deps }: Parts) {
  return makeReadiness({
    db: deps.db,
    logger: deps.logger,
    ipDataLoaded: deps.ipIntelligence !== ipDataNotLoaded,
    models: !deps.analysis ? 'off' : deps.analysis.warmUp ? 'loading' : 'loaded',
  });
}

/** The accounts, their labels, lists and cases, and the search over them. */
export function accountUseCases(
  { deps, repos, mediaUrls, wake }: Parts,
  evaluation: EvaluationUseCases,
  verification: VerificationUseCases,
) {
  return {
    accounts: makeAccountUseCases({
      ...deps,
      ...repos,
      evaluation,
      forgetVerifications: verification.forgetAccount,
      mediaUrls,
      webhooksQueued: wake.wake,
    }),
    labels: makeLabelUseCases({ ...deps, ...repos }),
    search: makeSearchUseCases(repos),
    lists: makeListUseCases({ ...deps, ...repos, webhooksQueued: wake.wake }),
    cases: makeCaseUseCases({ ...deps, ...repos, webhooksQueued: wake.wake }),
    ring: makeRingUseCases({ ...deps, ...repos, evaluation, webhooksQueued: wake.wake }),
  };
}

/** The webhook deliveries' console and replays. */
export function webhookDeliveriesOf({ deps, repos, wake }: Parts) {
  return makeWebhookDeliveries({
    ...deps,
    outbox: repos.outbox,
    auditEvents: repos.auditEvents,
    webhooksQueued: wake.wake,
  });
}

/** The web SDK's ingestion. */
export function ingestOf({ deps, repos }: Parts) {
  return makeIngestUseCases({
    ...deps,
    projects: repos.projects,
    sessions: repos.sessions,
    challenges: repos.ingestChallenges,
  });
}
