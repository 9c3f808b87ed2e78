/**
 * The typed Trustgate client for customers' backends: openapi-fetch over the generated
 * `paths`, with the API key added to every request. Calls use the spec's literal paths;
 * success and error bodies are typed from the spec.
 *
 *   const trustgate = createTrustgateClient({ baseUrl, apiKey });
 *   const { data, error } = await trustgate.GET('/session/{session_id}', {
 *     params: { path: { session_id } },
 *   });
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from '../api-types';

export type {
  AuthenticateRequest,
  AuthenticateResponse,
  components,
  ErrorBody,
  FaceMatchResult,
  IdCheckResult,
  paths,
  Session,
  UnauthenticatedRequest,
  UnauthenticatedResponse,
  webhooks,
  WebhookEnvelope,
} from '../api-types';
export {
  verifyWebhook,
  WebhookVerificationError,
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type VerifyWebhookOptions,
  type WebhookRequestHeaders,
  type WebhookVerificationReason,
} from './webhooks';

export interface TrustgateClientOptions {
  /** Where the service is, for example `https://trustgate.internal:3000`. */
  baseUrl: string;
  /** The project's API key (sent as `x-api-key`). */
  apiKey: string;
  /** A fetch implementation (the global one by default). */
  fetch?: typeof globalThis.fetch;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

export type TrustgateClient = Client<paths>;

export function createTrustgateClient(options: TrustgateClientOptions): TrustgateClient {
  if (!options.apiKey) throw new TypeError('createTrustgateClient: apiKey is required');
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: options.fetch,
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
