/**
 * Sessions past their project's retention period (usecases/retention.ts): found a batch at a
 * time from `sessions (project_id, start_time, id)` (migration 0028), and removed with what
 * hangs on them: their facts, their links to accounts (with the addresses copied there) and the
 * identifier rows (`identifier_accounts`) that no session of the account still carries. The
 * accounts' aggregates are recomputed by the caller (accounts.refreshAggregates).
 */
import type { Knex } from 'knex';
import { SESSION_IDENTIFIER_COLUMNS, type SessionIdentifierKind } from './identifier-accounts';

/** An identifier value an expired session gave one of its accounts. */
interface FedIdentifier {
  accountId: string;
  kind: SessionIdentifierKind;
  value: string;
}

const IDENTIFIER_KINDS = Object.keys(SESSION_IDENTIFIER_COLUMNS) as SessionIdentifierKind[];

export function makeRetentionRepository(db: Knex) {
  return {
    /** The project's sessions that started before `before`, oldest first, at most `limit`. */
    async sessionsDue(projectId: string, before: Date, limit: number, trx: Knex = db): Promise<string[]> {
      return trx('sessions')
        .where({ project_id: projectId })
        .where('start_time', '<', before.getTime())
        .orderBy('start_time')
        .orderBy('id')
        .limit(limit)
        .pluck('id');
    },

    /**
     * Removes the project's sessions `ids` (at most 500), their facts and links, and the
     * identifier rows only they gave their accounts. Returns how many sessions went and the
     * accounts they were linked to (whose aggregates the caller recomputes).
     */
    async removeSessions(
      projectId: string,
      ids: readonly string[],
      trx: Knex,
    ): Promise<{ sessions: number; accounts: string[] }> {
      if (ids.length === 0) return { sessions: 0, accounts: [] };
      const list = [...ids];
      const links: { session_id: string; account_id: string }[] = await trx('session_accounts')
        .whereIn('session_id', list)
        .select('session_id', 'account_id');
      const columns = IDENTIFIER_KINDS.map((k) => SESSION_IDENTIFIER_COLUMNS[k]);
      const carried: Record<string, string | null>[] = links.length
        ? await trx('sessions')
            .where({ project_id: projectId })
            .whereIn('id', [...new Set(links.map((l) => l.session_id))])
            .select('id', ...columns)
        : [];
      const fed = fedIdentifiers(links, carried);

      await trx('session_facts').whereIn('session_id', list).delete();
      await trx('session_accounts').whereIn('session_id', list).delete();
      const sessions = await trx('sessions').where({ project_id: projectId }).whereIn('id', list).delete();

      // An identifier row stays while another session of the account (one not removed) carries the value.
      for (const f of fed) {
        const column = SESSION_IDENTIFIER_COLUMNS[f.kind];
        await trx('identifier_accounts')
          .where({ project_id: projectId, kind: f.kind, value: f.value, account_id: f.accountId })
          .whereNotExists(
            trx('session_accounts as sa')
              .join('sessions as s', 's.id', 'sa.session_id')
              .where({ 'sa.project_id': projectId, 'sa.account_id': f.accountId, [`s.${column}`]: f.value })
              .select(trx.raw('1')),
          )
          .delete();
      }
      return { sessions, accounts: [...new Set(links.map((l) => l.account_id))] };
    },

    /** Whether the account is left without a session (num_sessions 0, once recomputed): one key lookup. */
    async withoutSessions(projectId: string, accountId: string, trx: Knex = db): Promise<boolean> {
      const row = await trx('accounts').where({ project_id: projectId, id: accountId }).first('num_sessions');
      return row !== undefined && Number(row.num_sessions) === 0;
    },
  };
}

/** Each (account, kind, value) the sessions gave their accounts, once. */
function fedIdentifiers(
  links: readonly { session_id: string; account_id: string }[],
  carried: readonly Record<string, string | null>[],
): FedIdentifier[] {
  const byId = new Map(carried.map((r) => [String(r.id), r]));
  const out = new Map<string, FedIdentifier>();
  for (const link of links) {
    const row = byId.get(link.session_id);
    if (!row) continue;
    for (const kind of IDENTIFIER_KINDS) {
      const value = row[SESSION_IDENTIFIER_COLUMNS[kind]];
      if (!value) continue;
      out.set(JSON.stringify([link.account_id, kind, value]), { accountId: link.account_id, kind, value });
    }
  }
  return [...out.values()];
}

export type RetentionRepository = ReturnType<typeof makeRetentionRepository>;
