/**
 * The service's history outside an evaluation (storage/evaluation/ has the evaluation's): an
 * account's sessions and their evaluations (the Account API), one session's identifiers and the
 * accounts sharing one (verification matches). Every query starts from an index and is bounded.
 */
import type { Knex } from 'knex';
import type { PastSession } from '../../domain/evaluation';
import { toPastSession } from '../evaluation/decode';
import { identifierSearch, type SessionIdentifierKind } from './identifier-accounts';

const SESSION_COLUMNS = [
  's.id',
  's.start_time',
  's.device_id',
  's.browser_fingerprint',
  's.ip_address',
  's.ip_block',
  's.connection_type',
  's.country_code',
  's.mobile_id',
  's.apple_device_key',
  's.risk_scores',
];

export function makeHistoryRepository(db: Knex) {
  return {
    /** One session's searchable identifiers, as linking follows them. */
    async sessionRow(projectId: string, sessionId: string, trx: Knex = db): Promise<PastSession | undefined> {
      const row = await trx('sessions as s')
        .where({ 's.project_id': projectId, 's.id': sessionId })
        .first(SESSION_COLUMNS);
      return row && toPastSession(row);
    },

    /**
     * Accounts (other than `excludeAccount`) with a session from `ip` that started within
     * `window`, at most `limit`: one range of the session links' address index, as the link
     * search's network branch reads it.
     */
    async accountsOnAddress(
      projectId: string,
      ip: string,
      window: { from: Date; to: Date },
      excludeAccount: string | undefined,
      limit: number,
      trx: Knex = db,
    ): Promise<string[]> {
      const rows: { account_id: string }[] = await trx('session_accounts as sa')
        .distinct('sa.account_id')
        .where({ 'sa.project_id': projectId, 'sa.ip_address': ip })
        .whereBetween('sa.session_start', [window.from.getTime(), window.to.getTime()])
        .modify((q) => {
          if (excludeAccount !== undefined) q.whereNot('sa.account_id', excludeAccount);
        })
        .limit(limit);
      return rows.map((r) => r.account_id);
    },

    /**
     * Accounts (other than `excludeAccount`) that presented an identifier value, at most `limit`:
     * the link search's own aggregate (identifier_accounts), so a verification match and an
     * evaluation find the same accounts.
     */
    async accountsSharing(
      projectId: string,
      kind: SessionIdentifierKind,
      value: string,
      excludeAccount: string | undefined,
      limit: number,
      trx: Knex = db,
    ): Promise<string[]> {
      const bindings = [projectId, kind, value, ...(excludeAccount === undefined ? [] : [excludeAccount])];
      const result = await trx.raw(identifierSearch(excludeAccount !== undefined, limit), bindings);
      const rows: { account_id: string }[] = Array.isArray(result) ? result : result.rows;
      return rows.map((r) => r.account_id);
    },

    /** The latest evaluation of each of these sessions. */
    async evaluations(
      projectId: string,
      sessionIds: string[],
      trx: Knex = db,
    ): Promise<Map<string, { decision: 'Real' | 'Fake'; accountScore: number }>> {
      const out = new Map<string, { decision: 'Real' | 'Fake'; accountScore: number }>();
      if (sessionIds.length === 0) return out;
      const rows = await trx('sessions')
        .where('project_id', projectId)
        .whereIn('id', sessionIds)
        .whereNotNull('decision')
        .select('id', 'decision', 'account_score');
      for (const r of rows as { id: string; decision: 'Real' | 'Fake'; account_score: number }[])
        out.set(r.id, { decision: r.decision, accountScore: Number(r.account_score) });
      return out;
    },
  };
}

export type HistoryRepository = ReturnType<typeof makeHistoryRepository>;
