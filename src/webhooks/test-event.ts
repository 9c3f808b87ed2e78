/**
 * `trustgate webhooks test`: one `webhook.test` event (webhooks.yaml) to a project's webhook
 * URL, signed and sent as every delivery is (signature.ts, transport.ts: the same headers, the
 * same target policy), but outside the outbox: sent once, not retried, not stored. The answer's
 * status and body come back to be printed.
 */
import type { WebhookTest } from '../api-types';
import type { Clock, Random } from '../clock';
import type { WebhookTarget } from './attempt';
import { webhookHeaders } from './signature';
import { describePostError, RefusedTargetError, type PostWebhook } from './transport';

/** How much of the receiver's answer is kept to print. */
export const TEST_ANSWER_LIMIT = 4096;
const TIMEOUT_MS = 15_000;

export interface TestEventDeps {
  clock: Clock;
  random: Random;
  post: PostWebhook;
  /** The project's webhook URL and secret (projects.webhookTarget). */
  target: (projectId: string) => Promise<WebhookTarget>;
}

/** What became of the test event: the receiver's answer, or why none came. */
export type TestEventResult = { url: string; requestId: string } & (
  | { outcome: 'answered'; status: number; body: string }
  | { outcome: 'no_url' }
  | { outcome: 'refused'; error: string }
  | { outcome: 'failed'; error: string }
);

export function testEvent(projectId: string, requestId: string, sessionId: string, now: Date): WebhookTest {
  return {
    request_id: requestId,
    session_id: sessionId,
    project_id: projectId,
    event_type: 'webhook.test',
    created_at: now.toISOString(),
    completed_at: now.toISOString(),
    status: 'success',
    data: {
      test: true,
      message: 'A test event sent by `trustgate webhooks test`; it concerns no verification session.',
    },
    error: null,
  };
}

export function makeTestEventSender(deps: TestEventDeps) {
  return async function sendTestEvent(projectId: string): Promise<TestEventResult> {
    const { url, secret, previousSecret } = await deps.target(projectId);
    const requestId = deps.random.uuid();
    if (!url) return { url: '', requestId, outcome: 'no_url' };
    const now = deps.clock.now();
    const body = JSON.stringify(testEvent(projectId, requestId, deps.random.uuid(), now));
    const headers = webhookHeaders({
      secret,
      previousSecret,
      requestId,
      eventType: 'webhook.test',
      rawBody: body,
      now,
    });
    try {
      const answer = await deps.post(url, {
        headers,
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
        keepBody: TEST_ANSWER_LIMIT,
      });
      return { url, requestId, outcome: 'answered', status: answer.status, body: answer.body ?? '' };
    } catch (err) {
      if (err instanceof RefusedTargetError) return { url, requestId, outcome: 'refused', error: err.message };
      return { url, requestId, outcome: 'failed', error: describePostError(err, TIMEOUT_MS) };
    }
  };
}

export type SendTestEvent = ReturnType<typeof makeTestEventSender>;
