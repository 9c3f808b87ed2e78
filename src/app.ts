/**
 * createApp(deps): the Express application, validated against openapi.yaml (requests, and
 * responses where configured), with one error handler. It never listens; main.ts does.
 */
import express, { type Express, type RequestHandler } from 'express';
import type { Clock, Random } from './clock';
import type { Config } from './config';
import { makeAdmission } from './http/admission';
import { makeApiKeyHandler } from './http/auth';
import './http/context';
import { makeDemoRouter } from './demo/router';
import { makeConsoleAppRouter } from './http/console-app';
import { makeDocsRouter } from './http/docs';
import { makeHomeRouter } from './http/home';
import { makeErrorHandler, notFound } from './http/errors';
import { finiteQueryNumbers } from './http/finite-numbers';
import { jsonBodyParsers } from './http/json-body';
import { makeAccountHandlers } from './http/handlers/account';
import { makeConsoleHandlers } from './http/handlers/console';
import { authorise, makeConsoleSessionHandler, readSessionCookie } from './http/operators';
import { makeListHandlers } from './http/handlers/list';
import { makeCaseHandlers } from './http/handlers/cases';
import { makeProjectHandlers } from './http/handlers/project';
import { makeRulesHandlers } from './http/handlers/rules';
import { makeSearchHandlers } from './http/handlers/search';
import { makeWebhookHandlers } from './http/handlers/webhooks';
import { makeLivenessHandlers } from './http/handlers/liveness';
import { makeSessionHandlers } from './http/handlers/session';
import { makeSystemHandlers } from './http/handlers/system';
import { makeSdkHandlers } from './http/handlers/sdk';
import { limitByOperation } from './http/operation-limits';
import { makeRateLimits, type RateLimitDeps } from './http/rate-limit';
import { makeBeaconBodyParser, sdkCors } from './http/sdk-cors';
import { makeRequestContext } from './http/request-log';
import { makeWebSdkRouter } from './http/web-sdk';
import { makeContractValidator, type ContractValidator } from './http/validator';
import { makeLivenessPage } from './http/liveness-page';
import { MAX_CAPTURE_BYTES } from './storage/media';
import { makeHttpTelemetry, makeMetricsHandler } from './telemetry/http';
import type { Metrics } from './telemetry/metrics';
import { NO_TRACING, type Tracing } from './telemetry/tracing';
import type { NetworkDataStatus } from './geo/data-age';
import type { Logger } from './logger';
import type { OidcSignIn } from './security/oidc';
import type { Db } from './storage/db';
import type { MediaUrls } from './storage/media';
import type { AccountUseCases } from './usecases/accounts';
import type { RingUseCases } from './usecases/ring';
import type { EvaluationUseCases } from './usecases/evaluation';
import type { IngestUseCases } from './usecases/ingest';
import type { LabelUseCases } from './usecases/labels';
import type { ListUseCases } from './usecases/lists';
import type { CaseUseCases } from './usecases/cases';
import type { OperatorUseCases } from './usecases/operators';
import type { ProjectUseCases } from './usecases/projects';
import type { ReadinessTracker } from './usecases/readiness';
import type { RulesUseCases } from './usecases/rules';
import type { SearchUseCases } from './usecases/search';
import type { VerificationUseCases } from './usecases/verification';
import type { WebhookDeliveryUseCases } from './usecases/webhook-deliveries';

export type AppConfig = Pick<
  Config,
  | 'rateLimitPerMinute'
  | 'bulkRateLimitPerMinute'
  | 'authFailureLimitPerIp'
  | 'consoleLoginLimitPerIp'
  | 'consoleLoginLimitPerAccount'
  | 'consoleInsecureCookie'
  | 'ingestRateLimitPerIp'
  | 'ingestRateLimitPerProject'
  | 'publicRedirectRateLimitPerIp'
  | 'publicRedirectRateLimitPerProject'
  | 'rateLimitStore'
  | 'validateResponses'
  | 'trustProxy'
  | 'bodyLimit'
  | 'demo'
  | 'evaluationConcurrency'
  | 'metricsToken'
>;

/** What the HTTP floor reads outside the use cases. */
export interface AppEdges {
  db: Db;
  clock: Clock;
  random: Random;
  logger: Logger;
  /** GET /healthz's ages of the IP data and lists. */
  networkData?: NetworkDataStatus;
  /** GET /metrics and the HTTP metrics; absent: none. */
  metrics?: Metrics;
  tracing?: Tracing;
  /** The console's OpenID Connect sign-in; absent: a password only. */
  oidc?: OidcSignIn;
}

/** What the routes call: the use cases by area, GET /readyz's checks and the rate limits' counters. */
export interface AppServices {
  edges: AppEdges;
  /** The rate limits' counters in the database (RATE_LIMIT_STORE=database). */
  rateLimitCounters: RateLimitDeps['counters'];
  readiness: ReadinessTracker;
  evaluation: EvaluationUseCases;
  accounts: AccountUseCases;
  labels: LabelUseCases;
  lists: ListUseCases;
  cases: CaseUseCases;
  ring: RingUseCases;
  projects: ProjectUseCases;
  rules: RulesUseCases;
  search: SearchUseCases;
  webhookDeliveries: WebhookDeliveryUseCases;
  verification: VerificationUseCases;
  mediaUrls: MediaUrls;
  operators: OperatorUseCases;
  ingest: IngestUseCases;
}

export interface AppDeps {
  config: AppConfig;
  /** Built by the composition root (composition.ts: makeServices, makeRuntime). */
  services: AppServices;
  /** The contract's compiled validator, shared by the apps given it (the tests'); absent: the app's own. */
  contract?: ContractValidator;
}

/**
 * Paths served outside the contract: the landing page and the icon, documentation, the spec
 * itself, the web SDK, the demo, signed media URLs and the hosted verification page
 * (`/liveness/{session_id}`, which is not one of the contract's `/liveness/…` operations).
 */
const OUTSIDE_SPEC = new RegExp(
  [
    '^/($|favicon\\.ico$|(docs|openapi\\.json|sdk\\.js|demo|media)(/|$)',
    'liveness/(?!session$|verify-face$|verify-id$|enroll$|verify-identity$)[^/]+$)',
  ].join('|'),
);

type Limits = ReturnType<typeof makeRateLimits>;
type AuthFailures = ReturnType<Limits['authFailures']>;

export function createApp(deps: AppDeps): Express {
  const { config, services } = deps;
  const { logger, random, clock, metrics } = services.edges;
  const limits = makeRateLimits({ store: config.rateLimitStore, counters: services.rateLimitCounters, clock, logger });
  const authFailures = limits.authFailures(config.authFailureLimitPerIp, services.projects.knownKey);
  const app = express();
  app.disable('x-powered-by');
  // No ETag on the API's answers: nothing in the contract asks for conditional requests, and
  // Express would hash every JSON body for one (SHA-1 over every answer, for nothing). The console's files keep theirs
  // (their static handler makes its own).
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);

  app.use(makeRequestContext(random, logger));
  const telemetry = makeHttpTelemetry(metrics, services.edges.tracing ?? NO_TRACING);
  if (telemetry) app.use(telemetry);
  usePagesAndBodies(app, config);
  useLimits(app, config, limits, authFailures);
  if (config.demo) app.use(makeDemoRouter(services));
  app.use(validator(app, deps, authFailures));
  app.use(finiteQueryNumbers);
  // Which credential may call which operation (domain/operators.ts): 403 before any handler runs.
  app.use(authorise);
  route(app, config, services, limits);
  app.use(notFound);
  app.use(makeErrorHandler(logger));
  return app;
}

/** The pages, the SDK's CORS, and each route's body parser (JSON, raw captures, beacons). */
function usePagesAndBodies(app: Express, config: AppConfig): void {
  // The pages, the docs, the SDK file and the console's bundle answer GET (and HEAD) only: the
  // API's other requests skip their routers instead of walking each one's routes.
  app.use(pagesOnly(makeHomeRouter({ demo: config.demo })));
  app.use(pagesOnly(makeDocsRouter()));
  app.use(pagesOnly(makeWebSdkRouter()));
  app.use(pagesOnly(makeConsoleAppRouter()));
  app.use('/ingest', sdkCors);
  app.options('/ingest/session', sdkCors);
  app.options('/ingest/challenge', sdkCors);
  // Captures are images: read raw (their type is decided by their bytes, not by the header).
  app.use('/liveness/:session_id/capture', express.raw({ type: () => true, limit: MAX_CAPTURE_BYTES }));
  for (const route of jsonBodyParsers(config.bodyLimit)) app[route.method](route.path, ...route.handlers);
  app.use('/ingest/session', makeBeaconBodyParser(config.bodyLimit));
}

/**
 * The console's cookie, then each request's limits by the operation it calls
 * (http/operation-limits.ts): per key and the failed-key guard unless the operation has limits of
 * its own (the SDK's posts, the public link) or none (the probes).
 */
function useLimits(app: Express, config: AppConfig, limits: Limits, authFailures: AuthFailures): void {
  app.use(readSessionCookie(config.consoleInsecureCookie));
  const api = limits.api(config.rateLimitPerMinute);
  app.use(
    limitByOperation({
      api: [api, authFailures.guard],
      bulk: [api, limits.bulk(config.bulkRateLimitPerMinute), authFailures.guard],
      ingest: limits.ingest(config.ingestRateLimitPerIp, config.ingestRateLimitPerProject),
      'public-redirect': limits.publicRedirect(
        config.publicRedirectRateLimitPerIp,
        config.publicRedirectRateLimitPerProject,
      ),
      none: [],
    }),
  );
}

/** The contract's validator: requests, responses when configured, and the security schemes' handlers. */
function validator(app: Express, deps: AppDeps, authFailures: AuthFailures) {
  const { config, services } = deps;
  const { logger } = services.edges;
  return (deps.contract ?? makeContractValidator()).middleware(app, {
    validateResponses: config.validateResponses,
    ignorePaths: OUTSIDE_SPEC,
    handlers: {
      ApiKeyAuth: makeApiKeyHandler(services.projects, logger, authFailures.failed),
      ConsoleSession: makeConsoleSessionHandler(services.operators, logger),
      // Optional in the contract (GET /metrics also declares no security): the route checks METRICS_TOKEN itself.
      MetricsToken: () => true,
    },
  });
}

/** The handlers of each area, over their use cases. */
function handlers(config: AppConfig, services: AppServices, limits: Limits) {
  const { db, logger, clock, networkData, oidc } = services.edges;
  return {
    session: makeSessionHandlers(services.evaluation),
    account: makeAccountHandlers(services.accounts, services.labels, services.ring),
    list: makeListHandlers(services.lists),
    cases: makeCaseHandlers(services.cases),
    project: makeProjectHandlers(services.projects, services.operators),
    rules: makeRulesHandlers(services.rules),
    search: makeSearchHandlers(services.search, logger),
    webhooks: makeWebhookHandlers(services.webhookDeliveries),
    liveness: makeLivenessHandlers(services.verification, services.mediaUrls),
    system: makeSystemHandlers({ db, logger, clock, networkData, readiness: services.readiness }),
    sdk: makeSdkHandlers(services.ingest),
    consoleAuth: makeConsoleHandlers(services.operators, {
      logger,
      ...(oidc ? { oidc } : {}),
      insecureCookie: config.consoleInsecureCookie,
      attempt: limits.consoleLogins(config.consoleLoginLimitPerIp, config.consoleLoginLimitPerAccount),
    }),
  };
}

/** The routing table: every operation's method and path, and its handler. */
function route(app: Express, config: AppConfig, services: AppServices, limits: Limits): void {
  const { session, account, list, cases, project, rules, search, webhooks, liveness, system, sdk, consoleAuth } =
    handlers(config, services, limits);
  const admitted = makeAdmission(config.evaluationConcurrency);
  app.get('/session/:session_id', admitted, session.getSession);
  app.post('/session/authenticate', admitted, session.authenticateSession);
  app.post('/session/unauthenticated', admitted, session.evaluateUnauthenticatedSession);
  app.get('/evaluation/:request_id', session.getEvaluation);
  app.get('/account/:account_id', account.getAccount);
  app.put('/account/:account_id', account.putAccount);
  app.delete('/account/:account_id', account.deleteAccount);
  app.get('/account/:account_id/sessions', account.getAccountSessions);
  app.get('/account/:account_id/accounts-linked', account.getAccountLinkedAccounts);
  app.get('/account/:account_id/ring', account.getAccountRing);
  app.post('/account/:account_id/ring/block', account.blockAccountRing);
  app.get('/account/:account_id/verifications', account.listAccountVerifications);
  app.post('/account/:account_id/label', account.labelAccount);
  app.get('/account/:account_id/labels', account.listAccountLabels);
  app.get('/labels/report', account.getLabelReport);
  app.get('/accounts', search.listAccounts);
  app.get('/accounts/export', search.exportAccounts);
  app.get('/sessions', search.listSessions);
  app.get('/sessions/export', search.exportSessions);
  app.get('/list', list.getLists);
  app.get('/list/:list_name', list.getList);
  app.post('/list/:list_name', list.createList);
  app.delete('/list/:list_name', list.deleteList);
  app.post('/list/:list_name/account/:account_id', list.addAccountToList);
  app.delete('/list/:list_name/account/:account_id', list.removeAccountFromList);
  app.get('/cases', cases.listCases);
  app.post('/cases', cases.openCase);
  app.get('/cases/:case_id', cases.getCase);
  app.patch('/cases/:case_id', cases.updateCase);
  app.post('/cases/:case_id/close', cases.closeCase);
  app.post('/cases/:case_id/notes', cases.addCaseNote);
  app.get('/project', project.getProject);
  app.patch('/project', project.updateProject);
  app.post('/project/webhook-secret', project.rotateWebhookSecret);
  app.get('/audit', project.listAuditEvents);
  app.get('/operators', project.listOperators);
  app.get('/stats', project.getStats);
  app.get('/webhooks/deliveries', webhooks.listWebhookDeliveries);
  app.get('/webhooks/deliveries/:request_id', webhooks.getWebhookDelivery);
  app.post('/webhooks/deliveries/:request_id/replay', webhooks.replayWebhookDelivery);
  app.get('/rules', rules.getRules);
  app.put('/rules', rules.putRules);
  app.post('/rules/test', rules.testRules);
  app.post('/rules/preview', rules.previewRules);
  app.get('/rules/fields', rules.listRuleFields);
  app.get('/rules/drafts', rules.listRuleDrafts);
  app.post('/rules/drafts', rules.createRuleDraft);
  app.get('/rules/drafts/:draft_id', rules.getRuleDraft);
  app.post('/rules/drafts/:draft_id/publish', rules.publishRuleDraft);
  app.post('/rules/drafts/:draft_id/reject', rules.rejectRuleDraft);
  app.get('/liveness/session', liveness.getVerificationSession);
  app.post('/liveness/session', liveness.createVerificationSession);
  app.post('/liveness/:session_id/cancel', liveness.cancelVerificationSession);
  app.post('/liveness/:session_id/capture', liveness.uploadVerificationCapture);
  app.post('/liveness/:session_id/complete', liveness.completeVerificationSession);
  app.get('/liveness/:session_id', makeLivenessPage(services.verification));
  app.get('/media/:media_id', liveness.getMedia);
  app.post('/liveness/verify-face', liveness.verifyFace);
  app.post('/liveness/verify-id', liveness.verifyId);
  app.post('/liveness/enroll', liveness.enrollAccount);
  app.post('/liveness/verify-identity', liveness.verifyIdentity);
  app.get('/public/liveness-redirect', liveness.redirectToVerification);
  app.post('/console/login', consoleAuth.consoleLogin);
  app.post('/console/logout', consoleAuth.consoleLogout);
  app.get('/console/me', consoleAuth.getConsoleSession);
  app.get('/console/sign-in-options', consoleAuth.getConsoleSignInOptions);
  app.get('/console/oidc/login', consoleAuth.startConsoleOidcSignIn);
  app.get('/console/oidc/callback', consoleAuth.finishConsoleOidcSignIn);
  app.post('/ingest/challenge', sdk.createIngestChallenge);
  app.post('/ingest/session', sdk.ingestSession);
  app.get('/healthz', system.getHealth);
  app.get('/readyz', system.getReadiness);
  const { metrics } = services.edges;
  if (metrics) app.get('/metrics', makeMetricsHandler(metrics, config.metricsToken));
}

/** `router` for GET and HEAD requests; any other request goes on without entering it. */
function pagesOnly(router: RequestHandler): RequestHandler {
  return (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? router(req, res, next) : next());
}
