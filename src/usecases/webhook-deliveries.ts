/**
 * The project's webhook deliveries as the console's webhooks page reads them
 * (listWebhookDeliveries, getWebhookDelivery) and replays one (replayWebhookDelivery): the
 * outbox's rows (webhooks/outbox.ts), scoped to the project, in the contract's shapes.
 * A replay queues the same row again (same request_id, sent as x-event-id, same body), as
 * `trustgate webhooks replay` does: receivers de-duplicate on the event id.
 */
import type {
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryQuery,
  WebhookDeliveries,
} from '../api-types';
import type { Clock } from '../clock';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from '../domain/webhook-events';
import { BadRequestError, NotFoundError } from '../errors';
import type { AttemptRecord, Outbox, WebhookCursor, WebhookSummary } from '../webhooks/outbox';

export interface WebhookDeliveryDeps {
  clock: Clock;
  outbox: Pick<Outbox, 'page' | 'findOf' | 'attempts' | 'replay'>;
  /** Wakes this process's dispatcher once a replay has committed (webhooks/wake.ts). */
  webhooksQueued(): void;
}

const iso = (d: Date | undefined) => (d ? d.toISOString() : null);

function deliveryOf(w: WebhookSummary): WebhookDelivery {
  return {
    request_id: w.requestId,
    event_type: w.eventType,
    status: w.status,
    attempts: w.attempts,
    created_at: w.createdAt.toISOString(),
    first_attempt_at: iso(w.firstAttemptAt),
    delivered_at: iso(w.deliveredAt),
    next_attempt_at: w.status === 'pending' ? w.runAt.toISOString() : null,
    last_error: w.lastError ?? null,
  };
}

const attemptOf = (a: AttemptRecord): WebhookAttempt => ({
  attempt: a.attempt,
  at: a.at.toISOString(),
  status_code: a.statusCode ?? null,
  latency_ms: a.latencyMs,
  error: a.error ?? null,
  answer: a.answer ?? null,
});

/** A page's cursor: the last webhook's created_at (ms) and request_id. */
const cursorOf = (w: WebhookSummary) => `${w.createdAt.getTime()}_${w.requestId}`;
function parseCursor(cursor: string): WebhookCursor {
  const [createdAt, requestId] = cursor.split('_') as [string, string];
  return { createdAt: Number(createdAt), requestId };
}

export function makeWebhookDeliveries(deps: WebhookDeliveryDeps) {
  const { outbox } = deps;
  return {
    /** A page of the project's deliveries, newest first (a 400 for a range that ends before it starts). */
    async list(projectId: string, query: WebhookDeliveryQuery): Promise<Omit<WebhookDeliveries, 'request_id'>> {
      const from = query.from !== undefined ? new Date(query.from) : undefined;
      const to = query.to !== undefined ? new Date(query.to) : undefined;
      if (from && to && from.getTime() >= to.getTime()) throw new BadRequestError('from must be before to');
      if (query.event_type !== undefined && !isWebhookEventType(query.event_type))
        throw new BadRequestError(`event_type must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
      const limit = query.limit ?? 50;
      const rows = await outbox.page(
        projectId,
        {
          ...(query.status ? { status: query.status } : {}),
          ...(query.event_type ? { eventType: query.event_type } : {}),
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
        },
        limit + 1,
        query.cursor !== undefined ? parseCursor(query.cursor) : undefined,
      );
      const page = rows.slice(0, limit);
      return {
        deliveries: page.map(deliveryOf),
        next_cursor: rows.length > limit ? cursorOf(page[page.length - 1]!) : null,
      };
    },

    /** One delivery with its event and attempts; another project's is a 404. */
    async get(projectId: string, requestId: string): Promise<WebhookDeliveryDetail['delivery']> {
      const found = await outbox.findOf(projectId, requestId);
      if (!found) throw new NotFoundError('Webhook', requestId);
      const attempts = await outbox.attempts(requestId);
      return {
        ...deliveryOf(found),
        event: JSON.parse(found.body) as Record<string, unknown>,
        attempts_made: attempts.map(attemptOf),
      };
    },

    /** Queues the delivery again, due now (same event id and body); another project's is a 404. */
    async replay(projectId: string, requestId: string): Promise<WebhookDelivery> {
      if (!(await outbox.replay(requestId, deps.clock.now(), projectId))) throw new NotFoundError('Webhook', requestId);
      deps.webhooksQueued();
      const queued = await outbox.findOf(projectId, requestId);
      if (!queued) throw new NotFoundError('Webhook', requestId);
      return deliveryOf(queued);
    },
  };
}

export type WebhookDeliveryUseCases = ReturnType<typeof makeWebhookDeliveries>;
