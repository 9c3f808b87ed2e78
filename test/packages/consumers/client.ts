/**
 * A customer's backend using @trustgate/client as installed from its tarball. The pack test
 * copies this file into a folder outside the repository (as check.ts, check.mts and check.cts)
 * and type-checks it under each module resolution with skipLibCheck off: the correct code must
 * compile, and every line after a `@ts-expect-error` must not (an unused directive is an error).
 */
import {
  createTrustgateClient,
  verifyWebhook,
  WebhookVerificationError,
  type AuthenticateResponse,
  type ErrorBody,
  type Session,
  type WebhookEnvelope,
} from '@trustgate/client';

const trustgate = createTrustgateClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'tg_key', timeoutMs: 2000 });

export async function correct(sessionId: string): Promise<string> {
  const { data, error } = await trustgate.GET('/session/{session_id}', {
    params: { path: { session_id: sessionId } },
  });
  if (error) {
    const body: ErrorBody = error;
    return `${body.statusCode} ${body.message}`;
  }
  const session: Session = data;
  const evaluated = await trustgate.POST('/session/authenticate', {
    body: { session_id: sessionId, account: { id: 'account-1', email: 'ada@example.com' } },
  });
  const answer: AuthenticateResponse | undefined = evaluated.data;
  const decision: 'Real' | 'Fake' | undefined = answer?.decision;
  return `${session.session_id} ${session.location.country_code} ${decision}`;
}

export function receive(rawBody: Uint8Array, headers: Record<string, string | string[] | undefined>): string {
  try {
    const event: WebhookEnvelope = verifyWebhook(rawBody, headers, 'whsec_secret', { toleranceSeconds: 300 });
    if (event.event_type === 'webhook.test') return event.data.message;
    if (event.event_type === 'evaluation.rule_matched') return `${event.event_type} ${event.data.matched.join(' ')}`;
    if (!('status' in event)) return `${event.event_type} ${event.data.list_name}`;
    return event.status === 'success' ? `${event.event_type} ${event.data.decision}` : event.error.code;
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.reason;
    throw err;
  }
}

export async function wrong(sessionId: string): Promise<void> {
  // @ts-expect-error a path the spec does not have
  await trustgate.GET('/sesion/{session_id}', { params: { path: { session_id: sessionId } } });
  const r = await trustgate.POST('/session/unauthenticated', {
    // @ts-expect-error a body that is not an UnauthenticatedRequest
    body: { wrong: true },
  });
  // @ts-expect-error the decision is 'Real' or 'Fake', not a number
  const n: number = r.data!.decision;
  // @ts-expect-error the error body has no such member
  void r.error?.no_such_field;
  // @ts-expect-error the client needs an API key
  createTrustgateClient({ baseUrl: 'http://127.0.0.1:3000' });
  // @ts-expect-error the raw body, not a parsed object
  verifyWebhook({ request_id: 'x' }, {}, 'whsec_secret');
  void n;
}
