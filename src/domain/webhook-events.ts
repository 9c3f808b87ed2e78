/**
 * The webhook events a project can subscribe to (`webhook_events`, webhooks.yaml), one entry
 * each: whether a project that never chose is sent it, and how its queued body is turned into
 * the body sent at each attempt (the verification events sign their media URLs then). A new
 * event is one entry here and one in webhooks.yaml's SubscribableEventType; `satisfies` fails
 * the build when they differ.
 */
import type { EvaluationRuleMatched, ListAccountAdded, ListAccountRemoved, SubscribableEventType } from '../api-types';

export interface WebhookEventSpec {
  /** Sent to projects that never set `webhook_events` (what they were always sent). */
  byDefault: boolean;
  /** Whether the queued body is rendered afresh at each attempt (composition.ts wires how). */
  rendered: boolean;
}

export const WEBHOOK_EVENTS = {
  'verification.face-match.completed': { byDefault: true, rendered: true },
  'verification.id-check.completed': { byDefault: true, rendered: true },
  'list.account_added': { byDefault: false, rendered: false },
  'list.account_removed': { byDefault: false, rendered: false },
  'evaluation.rule_matched': { byDefault: false, rendered: false },
} as const satisfies Record<SubscribableEventType, WebhookEventSpec>;

export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as SubscribableEventType[];

/** What a project is sent when it never set `webhook_events`. */
export const DEFAULT_WEBHOOK_EVENTS: readonly SubscribableEventType[] = WEBHOOK_EVENT_TYPES.filter(
  (t) => WEBHOOK_EVENTS[t].byDefault,
);

export function isWebhookEventType(t: string): t is SubscribableEventType {
  return Object.hasOwn(WEBHOOK_EVENTS, t);
}

/** Whether the queued body of this event type is rendered afresh when sent. */
export function isRendered(eventType: string): boolean {
  return isWebhookEventType(eventType) && WEBHOOK_EVENTS[eventType].rendered;
}

/** Whether a project with these settings is sent `type`: subscribed to it, with a URL to send it to. */
export function subscribes(
  project: { webhookUrl: string | null; webhookEvents: readonly SubscribableEventType[] },
  type: SubscribableEventType,
): boolean {
  return project.webhookUrl !== null && project.webhookEvents.includes(type);
}

/** The project settings that decide what it is sent. */
type Subscriber = { id: string; webhookUrl: string | null; webhookEvents: readonly SubscribableEventType[] };

/** A webhook to queue: its event's id, project, unique key (the session's id, or the event's own), type and body. */
export interface QueuedWebhook {
  requestId: string;
  projectId: string;
  sessionId: string;
  eventType: string;
  body: string;
  now: Date;
}

/** An event that concerns no session: its own id is its unique key in the outbox. */
function ownEvent(body: { request_id: string; project_id: string; event_type: string }, now: Date): QueuedWebhook {
  const { request_id: requestId, project_id: projectId, event_type: eventType } = body;
  return { requestId, projectId, sessionId: requestId, eventType, body: JSON.stringify(body), now };
}

const LIST_EVENT_TYPE = {
  added: 'list.account_added',
  removed: 'list.account_removed',
} as const satisfies Record<'added' | 'removed', (ListAccountAdded | ListAccountRemoved)['event_type']>;

/**
 * The webhook of one list membership change, or undefined when the project is not sent its
 * event type. `actor` as ListAccountChange describes it (an API key's name, `cli`, or `rule:`
 * and a rule's id). `newId` is asked for the event's id only when there is an event.
 */
export function listEvent(
  project: Subscriber,
  membership: { change: 'added' | 'removed'; accountId: string; listName: string; actor: string },
  now: Date,
  newId: () => string,
): QueuedWebhook | undefined {
  const { change, accountId, listName, actor } = membership;
  const eventType = LIST_EVENT_TYPE[change];
  if (!subscribes(project, eventType)) return undefined;
  const body: ListAccountAdded | ListAccountRemoved = {
    request_id: newId(),
    project_id: project.id,
    event_type: eventType,
    occurred_at: now.toISOString(),
    data: { list_name: listName, account_id: accountId, actor },
  };
  return ownEvent(body, now);
}

/** Whether the project is sent either list event (an evaluation that changes lists then plans them). */
export function subscribesToListEvents(project: Omit<Subscriber, 'id'>): boolean {
  return subscribes(project, LIST_EVENT_TYPE.added) || subscribes(project, LIST_EVENT_TYPE.removed);
}

/** The `evaluation.rule_matched` webhook of an evaluation in which rules matched, when the project is sent it. */
export function ruleMatchedEvent(
  project: Subscriber,
  data: EvaluationRuleMatched['data'],
  now: Date,
  newId: () => string,
): QueuedWebhook | undefined {
  if (data.matched.length === 0 || !subscribes(project, 'evaluation.rule_matched')) return undefined;
  const body: EvaluationRuleMatched = {
    request_id: newId(),
    project_id: project.id,
    event_type: 'evaluation.rule_matched',
    occurred_at: now.toISOString(),
    data,
  };
  return ownEvent(body, now);
}

/** What an erased account's id becomes in the stored events that named it (a string: the list events require one). */
export const ERASED_ACCOUNT = '[erased]';

/** `value` with every string in `ids` made ERASED_ACCOUNT; `found` told of each. */
function redacted(value: unknown, ids: ReadonlySet<string>, found: () => void): unknown {
  if (typeof value === 'string') {
    if (!ids.has(value)) return value;
    found();
    return ERASED_ACCOUNT;
  }
  if (Array.isArray(value)) return value.map((v) => redacted(v, ids, found));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redacted(v, ids, found)]));
  return value;
}

/**
 * A stored event's body with every value that is one of the erased accounts' ids made
 * ERASED_ACCOUNT, wherever the event names it (a list event's or a rule match's `account_id`, a
 * verification's own account or one of its matches); undefined when it names none. Whole
 * values only: an id inside another text (a list's name, a tag) is that text's, not the account.
 */
export function withoutAccounts(body: string, accountIds: ReadonlySet<string>): string | undefined {
  let named = false;
  const out = redacted(JSON.parse(body) as unknown, accountIds, () => (named = true));
  return named ? JSON.stringify(out) : undefined;
}
