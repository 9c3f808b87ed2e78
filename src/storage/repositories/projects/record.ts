/** A project as the code sees it, and its row. Rows are mapped to plain records here and nowhere else. */
import type { RulesDocument, SubscribableEventType } from '../../../api-types';
import { DEFAULT_WEBHOOK_EVENTS, isWebhookEventType } from '../../../domain/webhook-events';

export interface Project {
  id: string;
  name: string;
  decisionThreshold: number;
  /** The confidence a link must reach to be a linked account (domain/linking). */
  linkScoreFloor: number;
  groupsEnabled: boolean;
  webhookUrl: string | null;
  webhookSecretEncrypted: string;
  /** The webhook events the project is sent (webhooks/events.ts; the default ones until it chooses). */
  webhookEvents: SubscribableEventType[];
  /** The project of the /demo page. */
  demo: boolean;
  /** A test project (docs/test-mode.md): `tg_test_` keys, forced outcomes for documented account ids. */
  test: boolean;
  /** Days sessions (with their evaluations) are kept from their start; null: kept (usecases/retention.ts). */
  retentionSessionsDays: number | null;
  /** Days an ended verification session keeps its media, result and enrolled face and document; null: kept. */
  retentionVerificationMediaDays: number | null;
  /** Days a delivered webhook is kept; null: kept. */
  retentionDeliveredWebhooksDays: number | null;
  createdAt: Date;
  /** The current rules document and its version (docs/rules.md), when the project has one and it was read (findWithRules). */
  rules?: { version: number; document: RulesDocument };
}

/** The settings of a project that PATCH /project and `trustgate project set` change. */
export type ProjectSettingsRecord = Pick<
  Project,
  | 'name'
  | 'decisionThreshold'
  | 'linkScoreFloor'
  | 'groupsEnabled'
  | 'webhookUrl'
  | 'webhookEvents'
  | 'retentionSessionsDays'
  | 'retentionVerificationMediaDays'
  | 'retentionDeliveredWebhooksDays'
>;

/** The retention settings: a new project has none (null: kept) until it chooses. */
export type RetentionSettings = Pick<
  Project,
  'retentionSessionsDays' | 'retentionVerificationMediaDays' | 'retentionDeliveredWebhooksDays'
>;

export interface ProjectRow {
  id: string;
  name: string;
  decision_threshold: number;
  link_score_floor: number;
  groups_enabled: boolean | number;
  webhook_url: string | null;
  webhook_secret_encrypted: string;
  /** A JSON array of event types; null: the default ones. */
  webhook_events: string | null;
  demo: boolean | number;
  test: boolean | number;
  retention_sessions_days: number | string | null;
  retention_verification_media_days: number | string | null;
  retention_delivered_webhooks_days: number | string | null;
  created_at: number;
}

export const days = (v: number | string | null) => (v == null ? null : Number(v));

export function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    decisionThreshold: Number(row.decision_threshold),
    linkScoreFloor: Number(row.link_score_floor),
    groupsEnabled: Boolean(row.groups_enabled),
    webhookUrl: row.webhook_url,
    webhookSecretEncrypted: row.webhook_secret_encrypted,
    webhookEvents: webhookEventsOf(row.webhook_events),
    demo: Boolean(row.demo),
    test: Boolean(row.test),
    retentionSessionsDays: days(row.retention_sessions_days),
    retentionVerificationMediaDays: days(row.retention_verification_media_days),
    retentionDeliveredWebhooksDays: days(row.retention_delivered_webhooks_days),
    createdAt: new Date(Number(row.created_at)),
  };
}

/** The stored list of event types (one no longer known is left out); null: the default ones. */
function webhookEventsOf(stored: string | null): SubscribableEventType[] {
  if (stored === null) return [...DEFAULT_WEBHOOK_EVENTS];
  return (JSON.parse(stored) as string[]).filter(isWebhookEventType);
}
