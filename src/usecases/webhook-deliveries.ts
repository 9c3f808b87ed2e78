/**
 * The project's webhook deliveries as the console's webhooks page reads them
 * (listWebhookDeliveries, getWebhookDelivery) and replays one (replayWebhookDelivery): the
 * outbox's rows (webhooks/outbox.ts), scoped to the project, in the contract's shapes.
 * A replay queues the same row again (same request_id, sent as x-event-id, same body), as
 * `trustgate webhooks replay` does (receivers de-duplicate on the event id), and is audited as
 * `webhook.replayed` in the same transaction.
 */
import type {
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryQuery,
  WebhookDeliveries,
} from '../api-types';
import type { Knex } from 'knex';
import type { Clock, Random } from '../clock';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from '../domain/webhook-events';
import { BadRequestError, NotFoundError } from '../errors';
import type { AuditEventRepository } from '../storage/repositories/audit-events';
import type { AttemptRecord, Outbox, WebhookCursor, WebhookSummary } from '../webhooks/outbox';
import { actorName, type Actor } from './actor';

export interface WebhookDeliveryDeps {
  db: Knex;
  clock: Clock;
  random: Random;
  auditEvents: Pick<AuditEventRepository, 'insert'>;
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

    /**
     * Queues the delivery again, due now (same event id and body), and audits it as
     * `webhook.replayed` in the same transaction; only the project's when `projectId` is given
     * (the API), any project's from the CLI. Another project's, or none, is a 404.
     */
    async replay(
      projectId: string | undefined,
      id: string,
      actor: Actor,
      requestId: string | null,
    ): Promise<WebhookDelivery> {
      const now = deps.clock.now();
      const replayed = await deps.db.transaction(async (trx) => {
        const r = await outbox.replay(id, now, projectId, trx);
        if (!r) return undefined;
        await deps.auditEvents.insert(
          {
            id: deps.random.uuid(),
            projectId: r.queued.projectId,
            actor: actorName(actor),
            action: 'webhook.replayed',
            requestId,
            changes: [
              { field: 'webhook_request_id', before: id, after: id },
              { field: 'webhook_status', before: r.before, after: 'pending' },
            ],
            createdAt: now,
          },
          trx,
        );
        return r.queued;
      });
      if (!replayed) throw new NotFoundError('Webhook', id);
      deps.webhooksQueued();
      return deliveryOf(replayed);
    },
  };
}

export type WebhookDeliveryUseCases = ReturnType<typeof makeWebhookDeliveries>;
