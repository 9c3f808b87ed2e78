/**
 * A project's settings, its webhook secret and its retention periods: each change made over the
 * settings version it was decided on, and counting it up.
 */
import type { Knex } from 'knex';
import type { SubscribableEventType } from '../../../api-types';
import {
  days,
  toProject,
  type Project,
  type ProjectRow,
  type ProjectSettingsRecord,
  type RetentionSettings,
} from './record';

/** The settings a change writes: the webhook events only when given. */
export type SettingsChange = Omit<ProjectSettingsRecord, 'webhookEvents'> & {
  webhookEvents?: readonly SubscribableEventType[];
};

/** A webhook secret rotation: the new secret, and the current one kept signing until `previousUntil`. */
export interface SecretRotation {
  secretEncrypted: string;
  previousEncrypted: string | null;
  previousUntil: Date | null;
}

/** The project's settings and their version (counted up by each change), read in one row. */
export async function findSettings(db: Knex, id: string): Promise<(Project & { settingsVersion: number }) | undefined> {
  const row = await db<ProjectRow & { settings_version: number | string }>('projects').where({ id }).first();
  return row && { ...toProject(row), settingsVersion: Number(row.settings_version) };
}

/**
 * Writes the settings if they are still at `version` (the one the change was decided on),
 * and counts the version up; false when another change came first. The webhook events are
 * written only when given (a project that never chose keeps following the default ones).
 */
export async function updateSettings(db: Knex, id: string, version: number, next: SettingsChange): Promise<boolean> {
  const updated = await db('projects')
    .where({ id, settings_version: version })
    .update({
      name: next.name,
      decision_threshold: next.decisionThreshold,
      link_score_floor: next.linkScoreFloor,
      groups_enabled: next.groupsEnabled,
      webhook_url: next.webhookUrl,
      ...(next.webhookEvents ? { webhook_events: JSON.stringify(next.webhookEvents) } : {}),
      retention_sessions_days: next.retentionSessionsDays,
      retention_verification_media_days: next.retentionVerificationMediaDays,
      retention_delivered_webhooks_days: next.retentionDeliveredWebhooksDays,
      settings_version: version + 1,
    });
  return updated > 0;
}

/** The webhook secret being rotated out (encrypted) and the end of its grace period, if any. */
export async function previousWebhookSecret(
  db: Knex,
  id: string,
): Promise<{ secretEncrypted: string; until: Date } | undefined> {
  const row = await db('projects')
    .where({ id })
    .first('webhook_secret_previous_encrypted', 'webhook_secret_previous_until');
  if (!row?.webhook_secret_previous_encrypted || row.webhook_secret_previous_until == null) return undefined;
  return {
    secretEncrypted: row.webhook_secret_previous_encrypted,
    until: new Date(Number(row.webhook_secret_previous_until)),
  };
}

/**
 * A new webhook secret; the current one signs beside it until `previousUntil` (no grace: null).
 * Only over the settings version it was decided on; false when another change came first.
 */
export async function rotateWebhookSecret(
  db: Knex,
  id: string,
  version: number,
  next: SecretRotation,
): Promise<boolean> {
  const updated = await db('projects')
    .where({ id, settings_version: version })
    .update({
      webhook_secret_encrypted: next.secretEncrypted,
      webhook_secret_previous_encrypted: next.previousEncrypted,
      webhook_secret_previous_until: next.previousUntil?.getTime() ?? null,
      settings_version: version + 1,
    });
  return updated > 0;
}

/** The projects with a retention period set, and their periods (the retention pass's list; the table is small). */
export async function projectsWithRetention(db: Knex): Promise<({ id: string } & RetentionSettings)[]> {
  const rows = await db<ProjectRow>('projects')
    .whereNotNull('retention_sessions_days')
    .orWhereNotNull('retention_verification_media_days')
    .orWhereNotNull('retention_delivered_webhooks_days')
    .orderBy('id')
    .select('id', 'retention_sessions_days', 'retention_verification_media_days', 'retention_delivered_webhooks_days');
  return rows.map((r) => ({
    id: r.id,
    retentionSessionsDays: days(r.retention_sessions_days),
    retentionVerificationMediaDays: days(r.retention_verification_media_days),
    retentionDeliveredWebhooksDays: days(r.retention_delivered_webhooks_days),
  }));
}
