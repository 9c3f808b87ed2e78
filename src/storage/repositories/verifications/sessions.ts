/** Verification sessions: created open, they end once (the single terminal transition). */
import type { Knex } from 'knex';
import type { SecretBox } from '../../../security/secrets';
import { toRecord, type VerificationRecord } from './record';

/** How a session ends: its outcome, its result (sealed at rest) and the webhook that reports it. */
export interface Ending {
  outcome: string;
  result?: unknown;
  webhookRequestId: string;
  at: Date;
}

export async function insertVerification(db: Knex, v: VerificationRecord): Promise<void> {
  await db('verification_sessions').insert({
    id: v.id,
    project_id: v.projectId,
    type: v.type,
    account_id: v.accountId ?? null,
    referring_session_id: v.referringSessionId ?? null,
    redirect_url: v.redirectUrl ?? null,
    token_hash: v.tokenHash,
    attempts: v.attempts,
    state: v.state,
    created_at: v.createdAt.getTime(),
    expires_at: v.expiresAt.getTime(),
  });
}

export async function findVerification(db: Knex, box: SecretBox, id: string): Promise<VerificationRecord | undefined> {
  const row = await db('verification_sessions').where({ id }).first();
  return row && toRecord(row, box);
}

/**
 * The terminal transition: only an open session ends, once. True when this call ended it
 * (the caller then queues the webhook in the same transaction).
 */
export async function endVerification(trx: Knex, box: SecretBox, id: string, e: Ending): Promise<boolean> {
  const changed = await trx('verification_sessions')
    .where({ id, state: 'open' })
    .update({
      state: 'ended',
      outcome: e.outcome,
      result: e.result === undefined ? null : box.encrypt(JSON.stringify(e.result)),
      webhook_request_id: e.webhookRequestId,
      ended_at: e.at.getTime(),
    });
  return changed === 1;
}

/**
 * Ties a session to an account (enroll): only a session without one, or already this
 * account's. False when it is another account's (a concurrent enroll may have won).
 */
export async function tieToAccount(db: Knex, id: string, accountId: string): Promise<boolean> {
  const changed = await db('verification_sessions')
    .where('id', id)
    .where((q) => q.whereNull('account_id').orWhere('account_id', accountId))
    .update({ account_id: accountId });
  return changed === 1;
}

/** Counts one failed attempt of an open session; the new count, or undefined when it is not open. */
export async function addAttempt(trx: Knex, id: string): Promise<number | undefined> {
  const changed = await trx('verification_sessions').where({ id, state: 'open' }).increment('attempts', 1);
  if (changed !== 1) return undefined;
  const row = await trx('verification_sessions').where({ id }).first('attempts');
  return Number(row.attempts);
}

/**
 * The account's sessions, newest first, at most `limit`, with whether their media and result
 * were erased (an index range of `(project_id, account_id, created_at)`, migration 0033).
 */
export async function verificationsOfAccount(
  db: Knex,
  box: SecretBox,
  projectId: string,
  accountId: string,
  limit: number,
): Promise<(VerificationRecord & { mediaErased: boolean })[]> {
  const rows = await db('verification_sessions')
    .where({ project_id: projectId, account_id: accountId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);
  // Retention marks the sessions it erased; an erased account's ended sessions lost their result.
  return rows.map((r: Record<string, unknown>) => ({
    ...toRecord(r, box),
    mediaErased: r.media_erased_at != null || (r.outcome === 'success' && r.result == null),
  }));
}

/** Open sessions past their 30 days, oldest first. */
export async function expiredVerifications(
  db: Knex,
  box: SecretBox,
  now: Date,
  limit: number,
): Promise<VerificationRecord[]> {
  const rows = await db('verification_sessions')
    .where({ state: 'open' })
    .where('expires_at', '<=', now.getTime())
    .orderBy('expires_at')
    .limit(limit);
  return rows.map((r) => toRecord(r, box));
}
