/**
 * The single-use challenges of SDK posts (table ingest_challenges). Plain records; one
 * statement per method. `consume` is the single-use guarantee: a conditional update that only
 * one post, of any process, can win.
 */
import type { Knex } from 'knex';
import type { ChallengeRecord } from '../../domain/session/integrity';

interface ChallengeRow {
  id: string;
  project_id: string;
  key: string;
  expires_at: number | string;
  session_id: string | null;
}

const toRecord = (row: ChallengeRow): ChallengeRecord => ({
  id: row.id,
  projectId: row.project_id,
  key: Buffer.from(row.key, 'hex'),
  expiresAt: new Date(Number(row.expires_at)),
  sessionId: row.session_id,
});

export function makeIngestChallengeRepository(db: Knex) {
  return {
    async insert(c: Omit<ChallengeRecord, 'sessionId'>, trx: Knex = db): Promise<void> {
      await trx('ingest_challenges').insert({
        id: c.id,
        project_id: c.projectId,
        key: c.key.toString('hex'),
        expires_at: c.expiresAt.getTime(),
        session_id: null,
        consumed_at: null,
      });
    },

    async find(id: string, trx: Knex = db): Promise<ChallengeRecord | undefined> {
      const row: ChallengeRow | undefined = await trx('ingest_challenges')
        .where({ id })
        .first('id', 'project_id', 'key', 'expires_at', 'session_id');
      return row ? toRecord(row) : undefined;
    },

    /** Gives the unconsumed, unexpired challenge to the session; false when another post had it first, or it expired. */
    async consume(id: string, sessionId: string, now: Date, trx: Knex = db): Promise<boolean> {
      const changed = await trx('ingest_challenges')
        .where({ id })
        .whereNull('session_id')
        .where('expires_at', '>', now.getTime())
        .update({ session_id: sessionId, consumed_at: now.getTime() });
      return changed === 1;
    },

    /** Drops the challenges that expired before `before`; returns how many went. */
    async deleteExpired(before: Date, trx: Knex = db): Promise<number> {
      return trx('ingest_challenges').where('expires_at', '<', before.getTime()).delete();
    },
  };
}

export type IngestChallengeRepository = ReturnType<typeof makeIngestChallengeRepository>;
