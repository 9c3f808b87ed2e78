/** Forgetting what verification sessions hold about the person: an account's erasure, and retention. */
import type { Knex } from 'knex';

/**
 * Erases what the account's verification sessions hold about the person (forgetSessions).
 * Returns the media ids to remove from the media store and how many sessions were touched.
 */
export async function forgetAccount(
  trx: Knex,
  projectId: string,
  accountId: string,
): Promise<{ mediaIds: string[]; sessions: number }> {
  const ids = (
    await trx('verification_sessions').where({ project_id: projectId, account_id: accountId }).select('id')
  ).map((r: { id: string }) => r.id);
  const mediaIds: string[] = [];
  for (let i = 0; i < ids.length; i += 500) mediaIds.push(...(await forgetSessions(trx, ids.slice(i, i + 500))));
  return { mediaIds, sessions: ids.length };
}

/**
 * Retention: the project's ended sessions created before `before` whose media and result
 * are not yet erased, oldest first, at most `limit` (a range of
 * `(project_id, media_erased_at, created_at)`: those erased before are not read again).
 */
export async function mediaDue(db: Knex, projectId: string, before: Date, limit: number): Promise<string[]> {
  return db('verification_sessions')
    .where({ project_id: projectId, state: 'ended' })
    .whereNull('media_erased_at')
    .where('created_at', '<', before.getTime())
    .orderBy('created_at')
    .limit(limit)
    .pluck('id');
}

/**
 * Retention: marks these sessions erased at `at` and erases their media, results and
 * delivered or failed webhooks (forgetSessions). Returns how many this call marked (a
 * concurrent pass that marked one first has it counted there) and the media ids to remove
 * from the media store.
 */
export async function eraseMedia(
  trx: Knex,
  ids: readonly string[],
  at: Date,
): Promise<{ sessions: number; mediaIds: string[] }> {
  if (ids.length === 0) return { sessions: 0, mediaIds: [] };
  const sessions = await trx('verification_sessions')
    .whereIn('id', [...ids])
    .whereNull('media_erased_at')
    .update({ media_erased_at: at.getTime() });
  return { sessions, mediaIds: await forgetSessions(trx, ids) };
}

/**
 * Erases what the verification sessions `ids` (at most 500) hold about the person: their
 * results, their captures' rows and the webhooks already delivered or failed (with their
 * attempts; a pending one is the customer's own data on its way to them). Returns the media
 * ids of the captures, for the caller to remove once the transaction has committed.
 */
async function forgetSessions(trx: Knex, ids: readonly string[]): Promise<string[]> {
  const chunk = [...ids];
  const mediaIds: string[] = await trx('verification_captures').whereIn('session_id', chunk).pluck('media_id');
  await trx('verification_captures').whereIn('session_id', chunk).delete();
  await trx('verification_sessions').whereIn('id', chunk).update({ result: null });
  // Read first, then deleted by key: as one statement, PostgreSQL walked the whole attempts index.
  const done: string[] = await trx('webhooks')
    .whereIn('session_id', chunk)
    .whereIn('status', ['delivered', 'failed'])
    .pluck('request_id');
  if (done.length > 0) {
    await trx('webhook_attempts').whereIn('request_id', done).delete();
    await trx('webhooks').whereIn('request_id', done).delete();
  }
  return mediaIds;
}
