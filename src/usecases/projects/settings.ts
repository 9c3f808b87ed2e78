/** A project's settings: the rules a change must follow, and the difference the audit records. */
import type { AuditEvent, SubscribableEventType } from '../../api-types';
import { LINK_SCORE_FLOOR_RANGE } from '../../domain/linking';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from '../../domain/webhook-events';
import { BadRequestError } from '../../errors';
import type { AuditValue } from '../../storage/repositories/audit-events';
import type { ProjectSettingsRecord } from '../../storage/repositories/projects';

/** A change of settings: the members given are changed, the others left as they are. */
export interface ProjectSettingsChange {
  name?: string;
  decisionThreshold?: number;
  /** The confidence a link must reach (domain/linking LINK_SCORE_FLOOR_RANGE). */
  linkScoreFloor?: number;
  groupsEnabled?: boolean;
  webhookUrl?: string | null;
  /** The webhook events the project is sent (replaces the list). */
  webhookEvents?: readonly string[];
  /** Retention periods in days (null: kept; usecases/retention.ts). */
  retentionSessionsDays?: number | null;
  retentionVerificationMediaDays?: number | null;
  retentionDeliveredWebhooksDays?: number | null;
}

/** The longest retention period: 100 years (36500 days), as the contract's RetentionDays. */
export const MAX_RETENTION_DAYS = 36_500;

const SETTING_FIELDS = [
  ['name', 'name'],
  ['decisionThreshold', 'decision_threshold'],
  ['linkScoreFloor', 'link_score_floor'],
  ['groupsEnabled', 'groups_enabled'],
  ['webhookUrl', 'webhook_url'],
  ['webhookEvents', 'webhook_events'],
  ['retentionSessionsDays', 'retention_sessions_days'],
  ['retentionVerificationMediaDays', 'retention_verification_media_days'],
  ['retentionDeliveredWebhooksDays', 'retention_delivered_webhooks_days'],
] as const satisfies readonly (readonly [keyof ProjectSettingsRecord, string])[];

/**
 * The settings after `change`, checked against the rules the schema cannot state (a name
 * not blank once trimmed, an http(s) webhook URL, groups never turned off); each message names
 * the field and the rule.
 */
export function nextSettings(current: ProjectSettingsRecord, change: ProjectSettingsChange): ProjectSettingsRecord {
  const next = { ...current };
  if (change.name !== undefined) {
    next.name = change.name.trim();
    if (!next.name) throw new BadRequestError('name must not be empty once trimmed');
  }
  if (change.decisionThreshold !== undefined) {
    const t = change.decisionThreshold;
    if (!Number.isFinite(t) || t < 0 || t > 1) throw new BadRequestError('decision_threshold must be between 0 and 1');
    next.decisionThreshold = t;
  }
  if (change.linkScoreFloor !== undefined) {
    const f = change.linkScoreFloor;
    const { min, max } = LINK_SCORE_FLOOR_RANGE;
    if (!Number.isFinite(f) || f < min || f > max)
      throw new BadRequestError(`link_score_floor must be between ${min} and ${max}`);
    next.linkScoreFloor = f;
  }
  if (change.groupsEnabled !== undefined) {
    if (current.groupsEnabled && !change.groupsEnabled)
      throw new BadRequestError('groups_enabled cannot be turned off once on');
    next.groupsEnabled = change.groupsEnabled;
  }
  if (change.webhookUrl !== undefined) {
    try {
      next.webhookUrl = change.webhookUrl === null ? null : validateWebhookUrl(change.webhookUrl);
    } catch (e) {
      throw e instanceof BadRequestError ? new BadRequestError(`webhook_url: ${e.message}`) : e;
    }
  }
  if (change.webhookEvents !== undefined) next.webhookEvents = webhookEvents(change.webhookEvents);
  for (const [key, field] of RETENTION_FIELDS) {
    const given = change[key];
    if (given === undefined) continue;
    if (given !== null && (!Number.isInteger(given) || given < 1 || given > MAX_RETENTION_DAYS))
      throw new BadRequestError(`${field} must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, or null`);
    next[key] = given;
  }
  return next;
}

const RETENTION_FIELDS = SETTING_FIELDS.filter(
  (f): f is Extract<(typeof SETTING_FIELDS)[number], readonly [`retention${string}`, string]> =>
    f[0].startsWith('retention'),
);

/** The event types given, each known and given once (in the registry's order). */
function webhookEvents(given: readonly string[]): SubscribableEventType[] {
  for (const t of given)
    if (!isWebhookEventType(t))
      throw new BadRequestError(
        `webhook_events: ${JSON.stringify(t)} is not an event type (one of ${WEBHOOK_EVENT_TYPES.join(', ')})`,
      );
  if (new Set(given).size !== given.length) throw new BadRequestError('webhook_events must not repeat an event type');
  return WEBHOOK_EVENT_TYPES.filter((t) => given.includes(t));
}

/** A setting as the audit records it (a list of event types: joined by spaces). */
const auditValue = (v: ProjectSettingsRecord[keyof ProjectSettingsRecord]): AuditValue =>
  Array.isArray(v) ? v.join(' ') : (v as AuditValue);

/** Each setting that differs, before and after, in the contract's names. */
export function settingsDiff(before: ProjectSettingsRecord, after: ProjectSettingsRecord): AuditEvent['changes'] {
  return SETTING_FIELDS.map(([key, field]) => ({
    field,
    before: auditValue(before[key]),
    after: auditValue(after[key]),
  })).filter((c) => c.before !== c.after);
}

export function validateWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BadRequestError(`webhook URL ${JSON.stringify(url)} is not a valid URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new BadRequestError('webhook URL must use http or https');
  }
  return parsed.toString();
}
