/**
 * Retention (docs/deploy.md, "Retention"): the worker's pass that removes what each project's
 * periods make due (domain/retention.ts), in small batches: each batch is found by an index
 * range under a LIMIT, removed in a short transaction of its own, and the next one is taken
 * after yielding, so no statement spans a table and no lock is held for long. Per project:
 *
 * - delivered webhooks (never pending or failed ones) and their attempts;
 * - ended verification sessions' media: captures (rows, then the image files once committed),
 *   the result, the enrolled face and document keys, their delivered or failed webhook; the
 *   session row stays, marked erased (as an erased account's verification sessions stay);
 * - sessions, with their evaluations, facts and links; the identifier rows and the account
 *   aggregates they fed are recomputed without them, and an account left without sessions is
 *   erased as DELETE /account erases it (eraseAccounts). Its verifications keep to their own period.
 *
 * What was removed is counted in the metrics and in one log line per pass (counts only).
 */
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { Clock } from '../clock';
import { RETENTION_DEFAULTS } from '../config';
import { noneRemoved, retentionCutoffs, type RetentionCounts, type RetentionKind } from '../domain/retention';
import type { Logger } from '../logger';
import { overwriteErased, type Db } from '../storage/db';
import type { MediaStore } from '../storage/media';
import type { AccountRepository } from '../storage/repositories/accounts';
import type { AuditEventRepository } from '../storage/repositories/audit-events';
import type { CaseRepository } from '../storage/repositories/cases';
import type { LabelRepository } from '../storage/repositories/labels';
import type { ProjectRepository } from '../storage/repositories/projects';
import type { RetentionRepository } from '../storage/repositories/retention';
import type { VerificationIndex } from '../storage/repositories/verification-index';
import type { VerificationRepository } from '../storage/repositories/verifications';
import type { RetentionMetrics } from '../telemetry/metrics';
import type { Outbox } from '../webhooks/outbox';
import { eraseAccounts } from './accounts';
import { withDeps } from '../with-deps';

export interface RetentionDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  projects: Pick<ProjectRepository, 'withRetention'>;
  retention: RetentionRepository;
  accounts: AccountRepository;
  labels: LabelRepository;
  cases: CaseRepository;
  auditEvents: AuditEventRepository;
  verifications: VerificationRepository;
  verificationIndex: VerificationIndex;
  outbox: Outbox;
  media: Pick<MediaStore, 'delete'>;
  metrics?: RetentionMetrics;
}

export interface RetentionOptions {
  /** Rows per batch (1 to RETENTION_DEFAULTS.maxBatch; RETENTION_DEFAULTS.batch unless given). */
  batchSize?: number;
  /** Stops between batches once aborted (the worker's stop). */
  signal?: AbortSignal;
}

/** One pass's settings and tally, shared by the removals of each kind. */
interface Pass {
  deps: RetentionDeps;
  batchSize: number;
  signal: AbortSignal | undefined;
  now: Date;
  /** Adds `n` removed rows of a kind to the pass's counts and to the metrics. */
  count(kind: RetentionKind, n: number): void;
}

/**
 * Takes batches from `find` and gives each to `remove` (which returns how many rows it
 * removed), until a batch is short, removes nothing, or the signal aborts; yields between.
 */
async function drain(
  { batchSize, signal }: Pass,
  find: (limit: number) => Promise<string[]>,
  remove: (ids: string[]) => Promise<number>,
): Promise<number> {
  let batches = 0;
  while (!signal?.aborted) {
    const ids = await find(batchSize);
    if (ids.length === 0) break;
    const removed = await remove(ids);
    batches++;
    if (ids.length < batchSize || removed === 0) break;
    await yieldToEvents();
  }
  return batches;
}

/** The project's webhooks delivered before `before`, with their attempts; the number of batches. */
function removeDeliveredWebhooks(pass: Pass, p: string, before: Date): Promise<number> {
  const { db, outbox } = pass.deps;
  return drain(
    pass,
    (limit) => outbox.deliveredBefore(p, before, limit),
    async (ids) => {
      const n = await db.transaction((trx) => outbox.deleteDelivered(ids, trx));
      pass.count('delivered_webhooks', n);
      return n;
    },
  );
}

/** The media of the project's verification sessions ended before `before`, rows then files; the number of batches. */
function eraseVerificationMedia(pass: Pass, p: string, before: Date): Promise<number> {
  const { db, verifications, verificationIndex, media } = pass.deps;
  return drain(
    pass,
    (limit) => verifications.mediaDue(p, before, limit),
    async (ids) => {
      const { sessions, mediaIds } = await db.transaction(async (trx) => {
        await verificationIndex.forgetSessions(ids, trx);
        return verifications.eraseMedia(ids, pass.now, trx);
      });
      // The rows are gone; the images follow (a crash here leaves unreadable, unreferenced files only).
      for (const id of mediaIds) await media.delete(id);
      pass.count('verification_media', sessions);
      pass.count('media_files', mediaIds.length);
      return sessions;
    },
  );
}

/**
 * The project's sessions started before `before`, with the accounts' aggregates recomputed and
 * the accounts left without sessions erased; the number of batches.
 */
function removeSessions(pass: Pass, p: string, before: Date): Promise<number> {
  const { deps } = pass;
  return drain(
    pass,
    (limit) => deps.retention.sessionsDue(p, before, limit),
    async (ids) => {
      const { sessions, erased } = await deps.db.transaction(async (trx) => {
        const removed = await deps.retention.removeSessions(p, ids, trx);
        const left: string[] = [];
        // One account a statement, each by its key (with an IN list of them, PostgreSQL read the project's accounts).
        for (const id of removed.accounts) {
          await deps.accounts.refreshAggregates(p, [id], trx);
          if (await deps.retention.withoutSessions(p, id, trx)) left.push(id);
        }
        return { sessions: removed.sessions, erased: (await eraseAccounts(deps, p, left, trx)).length };
      });
      pass.count('sessions', sessions);
      pass.count('accounts', erased);
      return sessions;
    },
  );
}

/** One pass over every project with a period: what was removed, by kind, and in how many batches. */
async function runOnce(
  deps: RetentionDeps,
  options: RetentionOptions = {},
): Promise<RetentionCounts & { batches: number }> {
  const counts = noneRemoved();
  const pass: Pass = {
    deps,
    batchSize: Math.min(RETENTION_DEFAULTS.maxBatch, Math.max(1, options.batchSize ?? RETENTION_DEFAULTS.batch)),
    signal: options.signal,
    now: deps.clock.now(),
    count(kind, n) {
      counts[kind] += n;
      if (n > 0) deps.metrics?.removed(kind, n);
    },
  };
  let batches = 0;
  const projects = await deps.projects.withRetention();
  for (const project of projects) {
    const due = retentionCutoffs(project, pass.now);
    if (due.deliveredWebhooks) batches += await removeDeliveredWebhooks(pass, project.id, due.deliveredWebhooks);
    if (due.verificationMedia) batches += await eraseVerificationMedia(pass, project.id, due.verificationMedia);
    if (due.sessions) batches += await removeSessions(pass, project.id, due.sessions);
  }
  // What the pass removed stays in no free page or log of the file (as an account's erasure).
  if (Object.values(counts).some((n) => n > 0)) await overwriteErased(deps.db);
  deps.logger.info({ projects: projects.length, batches, removed: counts }, 'retention pass');
  return { ...counts, batches };
}

export function makeRetention(deps: RetentionDeps) {
  return { runOnce: withDeps(deps)(runOnce) };
}

export type Retention = ReturnType<typeof makeRetention>;
