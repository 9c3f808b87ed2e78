/**
 * Retention (docs/deploy.md, "Retention"): what each of a project's periods makes due at `now`.
 * Pure: the periods and the time come in; the worker's pass (usecases/retention.ts) removes.
 */
import { DAY_MS } from './numbers';

/** A project's periods in days; null keeps the data. */
export interface RetentionPeriods {
  retentionSessionsDays: number | null;
  retentionVerificationMediaDays: number | null;
  retentionDeliveredWebhooksDays: number | null;
}

/** What a pass removes, as counted in the metrics (`trustgate_retention_removed_total{kind}`) and its log line. */
export const RETENTION_KINDS = [
  /** Sessions (with their evaluations, facts and links). */
  'sessions',
  /** Accounts erased because their last session went. */
  'accounts',
  /** Verification sessions whose media, result, enrolled face and document keys were erased. */
  'verification_media',
  /** Captured image files removed from the media store. */
  'media_files',
  /** Delivered webhooks (with their attempts). */
  'delivered_webhooks',
] as const;

export type RetentionKind = (typeof RETENTION_KINDS)[number];

export type RetentionCounts = Record<RetentionKind, number>;

export const noneRemoved = (): RetentionCounts =>
  Object.fromEntries(RETENTION_KINDS.map((k) => [k, 0])) as RetentionCounts;

/** The times before which each kind of data is due (absent: kept): `now` less the period. */
export function retentionCutoffs(
  periods: RetentionPeriods,
  now: Date,
): { sessions?: Date; verificationMedia?: Date; deliveredWebhooks?: Date } {
  const before = (days: number | null) => (days === null ? undefined : new Date(now.getTime() - days * DAY_MS));
  return {
    sessions: before(periods.retentionSessionsDays),
    verificationMedia: before(periods.retentionVerificationMediaDays),
    deliveredWebhooks: before(periods.retentionDeliveredWebhooksDays),
  };
}
