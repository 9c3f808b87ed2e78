/**
 * The webhook events a project can subscribe to (`webhook_events`, webhooks.yaml), one entry
 * each: whether a project that never chose is sent it, and how its queued body is turned into
 * the body sent at each attempt (the verification events sign their media URLs then). A new
 * event is one entry here and one in webhooks.yaml's SubscribableEventType; `satisfies` fails
 * the build when they differ.
 */
import type { SubscribableEventType } from '../api-types';

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
