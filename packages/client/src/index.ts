/**
 * The typed Trustgate client for customers' backends (@trustgate/client): openapi-fetch over
 * the generated `paths`, with the API key added to every request and a timeout on each. Calls
 * use the spec's literal paths; success and error bodies are typed from the spec.
 *
 *   const trustgate = createTrustgateClient({ baseUrl, apiKey });
 *   const { data, error } = await trustgate.GET('/session/{session_id}', {
 *     params: { path: { session_id } },
 *   });
 *
 * A call resolves with `error` for every answer Trustgate gives (4xx, 5xx) and rejects only when
 * there is no answer: Trustgate unreachable (a TypeError from fetch) or slower than `timeoutMs`
 * (a DOMException named `TimeoutError`). Fail open there: a sign-up must not wait for, or fail
 * because of, the risk check. Let the user in, remember that the check did not happen, and check
 * the session later (it can be evaluated for 24 hours) or review the account.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './types.js';

export type {
  AuthenticateRequest,
  AuthenticateResponse,
  Case,
  CaseNote,
  CasePage,
  components,
  CreateVerificationSession,
  Decision,
  ErrorBody,
  EvaluationRuleMatched,
  EventType,
  FaceMatchCompleted,
  FaceMatchResult,
  IdCheckCompleted,
  ListAccountAdded,
  ListAccountRemoved,
  WebhookTest,
  IdCheckResult,
  operations,
  paths,
  Session,
  UnauthenticatedRequest,
  UnauthenticatedResponse,
  VerificationSessionCreated,
  webhooks,
  WebhookEnvelope,
} from './types.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type VerifyWebhookOptions,
  type WebhookRequestHeaders,
  type WebhookVerificationReason,
} from './webhooks.js';

export interface TrustgateClientOptions {
  /** Where the service is, for example `https://trustgate.internal:3000`. */
  baseUrl: string;
  /** The project's API key (sent as `x-api-key`). */
  apiKey: string;
  /** A fetch implementation (the global one by default). */
  fetch?: typeof globalThis.fetch;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /**
   * How long, in milliseconds, a call may take, answer body included (default 5000); a slower
   * call rejects with a DOMException named `TimeoutError`. `Infinity` waits as long as fetch does.
   * A call's own `signal` still applies within it.
   */
  timeoutMs?: number;
}

export type TrustgateClient = Client<paths>;

export const DEFAULT_TIMEOUT_MS = 5000;

export function createTrustgateClient(options: TrustgateClientOptions): TrustgateClient {
  if (!options.apiKey) throw new TypeError('createTrustgateClient: apiKey is required');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError(`createTrustgateClient: timeoutMs must be a number > 0, got ${String(timeoutMs)}`);
  }
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: withTimeout(options.fetch ?? globalThis.fetch, timeoutMs),
    headers: options.headers,
  });
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set('x-api-key', options.apiKey);
      return request;
    },
  };
  client.use(auth);
  return client;
}

/**
 * `fetch` with a deadline: the call's signal (openapi-fetch puts it on the Request) and a timer,
 * whichever aborts first. The body is read under the same signal, so the deadline covers it too.
 */
function withTimeout(fetch: typeof globalThis.fetch, timeoutMs: number): typeof globalThis.fetch {
  if (timeoutMs === Infinity) return fetch;
  return (input, init) => {
    const own = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const deadline = AbortSignal.timeout(timeoutMs);
    return fetch(input, { ...init, signal: own ? AbortSignal.any([own, deadline]) : deadline });
  };
}
