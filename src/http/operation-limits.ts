/**
 * Which limits each request meets, from the operation it calls (not from a list of path
 * prefixes to remember): a table from operationId to a limit class, `api` for any operation it
 * does not name, so a new operation of the contract is limited and guarded by default. The
 * operations are matched by Express's own router over the contract's paths, so a request meets
 * the class of the operation its handler serves; a request that is none of them (an unknown
 * path, the hosted page, the demo) meets the default class too, except the signed media URLs.
 */
import { Router, type RequestHandler } from 'express';
import type { OperationId } from '../domain/operators';
import { bundledSpec } from '../spec';

/**
 * - `api`: the per-key limit (RATE_LIMIT_PER_MINUTE; without a key, per address) and the
 *   failed-authentication guard (AUTH_FAILURE_LIMIT_PER_IP).
 * - `bulk`: `api`, and BULK_RATE_LIMIT_PER_MINUTE per key on top: an export reads a whole
 *   project, a replay makes the service send the customer a webhook.
 * - `ingest`, `public-redirect`: public routes without a key, limited per address and per project.
 * - `none`: the probes and the scrape, which must answer however busy the service is (GET
 *   /metrics has METRICS_TOKEN and is kept off the public proxy).
 */
export type LimitClass = 'api' | 'bulk' | 'ingest' | 'public-redirect' | 'none';

/** Every operation not named here is `api`. */
export const OPERATION_LIMITS = {
  exportAccounts: 'bulk',
  exportSessions: 'bulk',
  replayWebhookDelivery: 'bulk',
  createIngestChallenge: 'ingest',
  ingestSession: 'ingest',
  redirectToVerification: 'public-redirect',
  getHealth: 'none',
  getReadiness: 'none',
  getMetrics: 'none',
} as const satisfies Partial<Record<OperationId, LimitClass>>;

export const limitClassOf = (operationId: string): LimitClass =>
  (OPERATION_LIMITS as Record<string, LimitClass | undefined>)[operationId] ?? 'api';

/**
 * Outside the contract: the signed media URLs of results and webhooks, which a customer's
 * server fetches in bulk from one address; the HMAC is checked in constant time before anything
 * is read, so a guessed URL costs no more than a 403.
 */
const UNLIMITED_OUTSIDE_CONTRACT = ['/media/:media_id'];

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * One middleware that runs the handlers of each request's limit class (`handlers`), found by
 * the operation its method and path call.
 */
export function limitByOperation(handlers: Record<LimitClass, RequestHandler[]>): RequestHandler {
  const router = Router();
  // The matched operation's limits, then out of the router: a request meets one class only.
  const leave: RequestHandler = (_req, _res, next) => next('router');
  for (const [path, item] of Object.entries(bundledSpec().paths)) {
    const expressPath = path.replace(/\{([^}]+)\}/g, ':$1');
    for (const method of METHODS) {
      const operationId = (item as Record<string, { operationId?: string } | undefined>)[method]?.operationId;
      if (operationId) router[method](expressPath, ...handlers[limitClassOf(operationId)], leave);
    }
  }
  for (const path of UNLIMITED_OUTSIDE_CONTRACT) router.get(path, ...handlers.none, leave);
  router.use(...handlers.api);
  return router;
}
