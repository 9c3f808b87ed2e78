/** Verification sessions and their single terminal transition. */
import type { Knex } from 'knex';
import type { SecretBox } from '../../security/secrets';

export type VerificationType = 'face-match' | 'id-check';

export interface VerificationRecord {
  id: string;
  projectId: string;
  type: VerificationType;
  accountId?: string;
  referringSessionId?: string;
  redirectUrl?: string;
  tokenHash: string;
  attempts: number;
  state: 'open' | 'ended';
  outcome?: string;
  result?: unknown;
  webhookRequestId?: string;
  createdAt: Date;
  expiresAt: Date;
  endedAt?: Date;
}

export interface CaptureRecord {
  id: string;
  sessionId: string;
  kind: 'selfie' | 'id_front' | 'id_back';
  mediaId: string;
  contentType: string;
  size: number;
  createdAt: Date;
}

function toRecord(r: Record<string, unknown>, box: SecretBox): VerificationRecord {
  const opt = (v: unknown) => (v === null || v === undefined ? undefined : String(v));
  return {
    id: String(r.id),
    projectId: String(r.project_id),
    type: r.type as VerificationType,
    accountId: opt(r.account_id),
    referringSessionId: opt(r.referring_session_id),
    redirectUrl: opt(r.redirect_url),
    tokenHash: String(r.token_hash),
    attempts: Number(r.attempts),
    state: r.state as 'open' | 'ended',
    outcome: opt(r.outcome),
    // The result holds personal data (names, dates of birth, document numbers): sealed at rest.
    result: typeof r.result === 'string' ? JSON.parse(box.decrypt(r.result)) : undefined,
    webhookRequestId: opt(r.webhook_request_id),
    createdAt: new Date(Number(r.created_at)),
    expiresAt: new Date(Number(r.expires_at)),
    endedAt: r.ended_at === null || r.ended_at === undefined ? undefined : new Date(Number(r.ended_at)),
  };
}

function captureOf(r: Record<string, unknown>): CaptureRecord {
  return {
    id: String(r.id),
    sessionId: String(r.session_id),
    kind: r.kind as CaptureRecord['kind'],
    mediaId: String(r.media_id),
    contentType: String(r.content_type),
    size: Number(r.size),
    createdAt: new Date(Number(r.created_at)),
  };
}

export function makeVerificationRepository(db: Knex, box: SecretBox) {
  /** The newest capture of each kind of each of these sessions (by `(session_id, kind, created_at)`). */
  async function latestCapturesOf(
    sessionIds: readonly string[],
    trx: Knex = db,
  ): Promise<Map<string, CaptureRecord[]>> {
    const out = new Map<string, CaptureRecord[]>(sessionIds.map((id) => [id, []]));
    if (sessionIds.length === 0) return out;
    const rows = await trx('verification_captures')
      .whereIn('session_id', [...sessionIds])
      .orderBy([
        { column: 'session_id' },
        { column: 'kind' },
        { column: 'created_at', order: 'desc' },
        { column: 'id' },
      ]);
    const seen = new Set<string>();
    for (const r of rows) {
      const key = `${r.session_id}\u0000${r.kind}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.get(String(r.session_id))?.push(captureOf(r));
    }
    return out;
  }

  return {
    async insert(v: VerificationRecord, trx: Knex = db): Promise<void> {
      await trx('verification_sessions').insert({
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
    },

    async find(id: string, trx: Knex = db): Promise<VerificationRecord | undefined> {
      const row = await trx('verification_sessions').where({ id }).first();
      return row && toRecord(row, box);
    },

    /**
     * The terminal transition: only an open session ends, once. True when this call ended it
     * (the caller then queues the webhook in the same transaction).
     */
    async end(
      id: string,
      e: { outcome: string; result?: unknown; webhookRequestId: string; at: Date },
      trx: Knex,
    ): Promise<boolean> {
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
    },

    /** Records a captured image of an open session. */
    /**
     * Ties a session to an account (enroll): only a session without one, or already this
     * account's. False when it is another account's (a concurrent enroll may have won).
     */
    async tieToAccount(id: string, accountId: string, trx: Knex = db): Promise<boolean> {
      const changed = await trx('verification_sessions')
        .where('id', id)
        .where((q) => q.whereNull('account_id').orWhere('account_id', accountId))
        .update({ account_id: accountId });
      return changed === 1;
    },

    async addCapture(c: CaptureRecord, trx: Knex = db): Promise<void> {
      await trx('verification_captures').insert({
        id: c.id,
        session_id: c.sessionId,
        kind: c.kind,
        media_id: c.mediaId,
        content_type: c.contentType,
        size: c.size,
        created_at: c.createdAt.getTime(),
      });
    },

    /** The newest capture of each kind of a session. */
    async latestCaptures(sessionId: string, trx: Knex = db): Promise<CaptureRecord[]> {
      return (await latestCapturesOf([sessionId], trx)).get(sessionId) ?? [];
    },

    /**
     * The account's sessions, newest first, at most `limit`, with whether their media and result
     * were erased (an index range of `(project_id, account_id, created_at)`, migration 0033).
     */
    async ofAccount(
      projectId: string,
      accountId: string,
      limit: number,
      trx: Knex = db,
    ): Promise<(VerificationRecord & { mediaErased: boolean })[]> {
      const rows = await trx('verification_sessions')
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
    },

    latestCapturesOf,

    /** Counts one failed attempt of an open session; the new count, or undefined when it is not open. */
    async addAttempt(id: string, trx: Knex): Promise<number | undefined> {
      const changed = await trx('verification_sessions').where({ id, state: 'open' }).increment('attempts', 1);
      if (changed !== 1) return undefined;
      const row = await trx('verification_sessions').where({ id }).first('attempts');
      return Number(row.attempts);
    },

    /**
     * Erases what the account's verification sessions hold about the person (forgetSessions).
     * Returns the media ids to remove from the media store and how many sessions were touched.
     */
    async forgetAccount(
      projectId: string,
      accountId: string,
      trx: Knex,
    ): Promise<{ mediaIds: string[]; sessions: number }> {
      const ids = (
        await trx('verification_sessions').where({ project_id: projectId, account_id: accountId }).select('id')
      ).map((r: { id: string }) => r.id);
      const mediaIds: string[] = [];
      for (let i = 0; i < ids.length; i += 500) mediaIds.push(...(await forgetSessions(trx, ids.slice(i, i + 500))));
      return { mediaIds, sessions: ids.length };
    },

    /**
     * Retention: the project's ended sessions created before `before` whose media and result
     * are not yet erased, oldest first, at most `limit` (a range of
     * `(project_id, media_erased_at, created_at)`: those erased before are not read again).
     */
    async mediaDue(projectId: string, before: Date, limit: number, trx: Knex = db): Promise<string[]> {
      return trx('verification_sessions')
        .where({ project_id: projectId, state: 'ended' })
        .whereNull('media_erased_at')
        .where('created_at', '<', before.getTime())
        .orderBy('created_at')
        .limit(limit)
        .pluck('id');
    },

    /**
     * Retention: marks these sessions erased at `at` and erases their media, results and
     * delivered or failed webhooks (forgetSessions). Returns how many this call marked (a
     * concurrent pass that marked one first has it counted there) and the media ids to remove
     * from the media store.
     */
    async eraseMedia(ids: readonly string[], at: Date, trx: Knex): Promise<{ sessions: number; mediaIds: string[] }> {
      if (ids.length === 0) return { sessions: 0, mediaIds: [] };
      const sessions = await trx('verification_sessions')
        .whereIn('id', [...ids])
        .whereNull('media_erased_at')
        .update({ media_erased_at: at.getTime() });
      return { sessions, mediaIds: await forgetSessions(trx, ids) };
    },

    /** Open sessions past their 30 days, oldest first. */
    async expired(now: Date, limit: number, trx: Knex = db): Promise<VerificationRecord[]> {
      const rows = await trx('verification_sessions')
        .where({ state: 'open' })
        .where('expires_at', '<=', now.getTime())
        .orderBy('expires_at')
        .limit(limit);
      return rows.map((r) => toRecord(r, box));
    },
  };
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

export type VerificationRepository = ReturnType<typeof makeVerificationRepository>;
