/**
 * The outbox's records as the rest of the code reads them (rows mapped, bodies opened), and what
 * its statements run on.
 */
import type { Knex } from 'knex';
import type { SecretBox } from '../../security/secrets';
import type { WebhookRows } from '../../storage/repositories/webhook-rows';

export type WebhookStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookRecord {
  requestId: string;
  projectId: string;
  /** The webhook's unique key: the verification session's id (one webhook each); other events: their request_id. */
  sessionId: string;
  eventType: string;
  body: string;
  status: WebhookStatus;
  attempts: number;
  runAt: Date;
  lockedBy?: string;
  lastError?: string;
  firstAttemptAt?: Date;
  deliveredAt?: Date;
  createdAt: Date;
}

export interface AttemptRecord {
  attempt: number;
  at: Date;
  worker: string;
  statusCode?: number;
  latencyMs: number;
  error?: string;
  /** The first ANSWER_KEPT_BYTES of the receiver's answer body (getWebhookDelivery). */
  answer?: string;
}

/** How much of a receiver's answer each attempt keeps. */
export const ANSWER_KEPT_BYTES = 512;

/** Which of a project's webhooks a page lists (listWebhookDeliveries). */
export interface WebhookFilter {
  status?: WebhookStatus;
  eventType?: string;
  /** Queued at or after. */
  from?: Date;
  /** Queued before. */
  to?: Date;
}

/** Where a page starts: after this webhook, in the order newest first (created_at, request_id). */
export interface WebhookCursor {
  createdAt: number;
  requestId: string;
}

/** What one attempt ended in, as the dispatcher settles it. */
export interface Outcome {
  status: WebhookStatus;
  /** The next attempt's time, when rescheduled (status pending). */
  runAt?: Date;
  error?: string;
}

/** A claimed row's settlement: its attempt (when one was made) and its outcome. */
export interface Settlement {
  requestId: string;
  attempt?: AttemptRecord;
  outcome: Outcome;
}

/** What the outbox's statements run on. */
export interface OutboxDeps {
  db: Knex;
  box: SecretBox;
  /** PostgreSQL: claims skip locked rows, replays lock theirs, queueing notifies the workers. */
  postgres: boolean;
  rows: WebhookRows;
}

const date = (v: unknown) => (v === null || v === undefined ? undefined : new Date(Number(v)));

/** The columns of a webhook but its body. */
export const SUMMARY_COLUMNS = [
  'request_id',
  'project_id',
  'session_id',
  'event_type',
  'status',
  'attempts',
  'run_at',
  'locked_by',
  'last_error',
  'first_attempt_at',
  'delivered_at',
  'created_at',
];

/** A webhook without its body (listing never opens the sealed bodies). */
export type WebhookSummary = Omit<WebhookRecord, 'body'>;

export function toSummary(r: Record<string, unknown>): WebhookSummary {
  return {
    requestId: String(r.request_id),
    projectId: String(r.project_id),
    sessionId: String(r.session_id),
    eventType: String(r.event_type),
    status: r.status as WebhookStatus,
    attempts: Number(r.attempts),
    runAt: new Date(Number(r.run_at)),
    lockedBy: (r.locked_by as string | null) ?? undefined,
    lastError: (r.last_error as string | null) ?? undefined,
    firstAttemptAt: date(r.first_attempt_at),
    deliveredAt: date(r.delivered_at),
    createdAt: new Date(Number(r.created_at)),
  };
}

export function toRecord(r: Record<string, unknown>, box: SecretBox): WebhookRecord {
  // Bodies carry personal data (an ID Check's document data): sealed at rest.
  return { ...toSummary(r), body: box.decrypt(String(r.body)) };
}
