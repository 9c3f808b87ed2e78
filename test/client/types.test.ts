/**
 * The client's types, checked by `npm run typecheck` (tsc over test/) and by ts-jest: a line
 * marked `@ts-expect-error` that compiles fails both, so a client whose paths, bodies or
 * answers went untyped (issue: the typed client silently untyped outside the repo) fails CI.
 * Nothing here is sent: the calls sit in a function that is never called.
 */
import {
  createTrustgateClient,
  type AuthenticateResponse,
  type ErrorBody,
  type FaceMatchCompleted,
  type IdCheckCompleted,
  type ListAccountAdded,
  type ListAccountRemoved,
  type EvaluationRuleMatched,
  type WebhookTest,
  type WebhookEnvelope,
} from '../../packages/client/src';

const client = createTrustgateClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'tg_test' });

export async function wellAndBadlyTyped(): Promise<void> {
  // @ts-expect-error a path the spec does not have
  await client.GET('/sesion/{session_id}', { params: { path: { session_id: 'x' } } });
  // @ts-expect-error the path parameter is required
  await client.GET('/session/{session_id}', { params: { path: {} } });
  // @ts-expect-error authenticate's body needs an account
  await client.POST('/session/authenticate', { body: { session_id: 'x' } });
  // (A member the spec does not have is not caught at compile time: openapi-fetch's body type
  // takes the object through a generic, where TypeScript makes no excess-member check. The
  // service answers it with a 400 naming the member.)

  const { data, error } = await client.POST('/session/authenticate', {
    body: { session_id: 'x', account: { id: 'a' } },
    params: { query: { accounts_linked: true } },
  });
  if (data) {
    const answer: AuthenticateResponse = data;
    const decision: 'Real' | 'Fake' = answer.decision;
    // @ts-expect-error the decision is 'Real' or 'Fake', not a number
    const asNumber: number = data.decision;
    // @ts-expect-error the answer has no such member
    void data.no_such_field;
    void [decision, asNumber];
  }
  if (error) {
    const body: ErrorBody = error;
    // @ts-expect-error the error body has no such member
    void error.no_such_field;
    void body;
  }
}

/** WebhookEnvelope, derived from the spec's webhooks, is the union of the events' bodies. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const envelopeIsTheUnion: Same<
  WebhookEnvelope,
  FaceMatchCompleted | IdCheckCompleted | ListAccountAdded | ListAccountRemoved | EvaluationRuleMatched | WebhookTest
> = true;
// @ts-expect-error one event's body alone is not the envelope
export const envelopeIsNotOneEvent: Same<WebhookEnvelope, FaceMatchCompleted> = true;

test('the client is typed from the spec (the expectations above are checked by the compiler)', () => {
  expect(typeof wellAndBadlyTyped).toBe('function');
});
