/** The audit of changes to projects' settings and of labels set on accounts. Rows are mapped to plain records here and nowhere else. */
import type { Knex } from 'knex';

export type AuditValue = string | number | boolean | null;

export interface AuditChangeRecord {
  field: string;
  before: AuditValue;
  after: AuditValue;
}

export interface AuditEventRecord {
  /** The order of the events, and the cursor of a page. */
  seq: number;
  id: string;
  projectId: string;
  actor: string;
  action: string;
  requestId: string | null;
  /** The account the event concerns (a label); null for a project's settings, and once the account is erased. */
  accountId: string | null;
  changes: AuditChangeRecord[];
  createdAt: Date;
}

interface AuditEventRow {
  seq: number | string;
  id: string;
  project_id: string;
  actor: string;
  action: string;
  request_id: string | null;
  account_id: string | null;
  changes: string;
  created_at: number | string;
}

function toRecord(row: AuditEventRow): AuditEventRecord {
  return {
    seq: Number(row.seq),
    id: row.id,
    projectId: row.project_id,
    actor: row.actor,
    action: row.action,
    requestId: row.request_id,
    accountId: row.account_id,
    changes: JSON.parse(row.changes) as AuditChangeRecord[],
    createdAt: new Date(Number(row.created_at)),
  };
}

/**
 * Erasure: the ring blocks that named the account among those they blocked (a `blocked_account`
 * change) name `[erased]` in its place. The project's ring blocks are a range of
 * `(project_id, action, seq)` (migration 0046), narrowed with LIKE (the id as JSON, its
 * wildcards escaped); each change is then compared exactly.
 */
async function forgetBlockedAccount(trx: Knex, projectId: string, accountId: string): Promise<void> {
  const pattern = `%${JSON.stringify(accountId).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows: { id: string; changes: string }[] = await trx('audit_events')
    .where({ project_id: projectId, action: 'ring.blocked' })
    .whereRaw(`changes LIKE ? ESCAPE '\\'`, [pattern])
    .select('id', 'changes');
  for (const row of rows) {
    const changes = JSON.parse(row.changes) as AuditChangeRecord[];
    const named = (c: AuditChangeRecord) => c.field === 'blocked_account' && c.after === accountId;
    if (!changes.some(named)) continue;
    const redacted = changes.map((c) => (named(c) ? { ...c, after: '[erased]' } : c));
    await trx('audit_events')
      .where({ id: row.id })
      .update({ changes: JSON.stringify(redacted) });
  }
}

export function makeAuditEventRepository(db: Knex) {
  return {
    async insert(
      e: Omit<AuditEventRecord, 'seq' | 'accountId'> & { accountId?: string },
      trx: Knex = db,
    ): Promise<void> {
      await trx('audit_events').insert({
        id: e.id,
        project_id: e.projectId,
        actor: e.actor,
        action: e.action,
        request_id: e.requestId,
        account_id: e.accountId ?? null,
        changes: JSON.stringify(e.changes),
        created_at: e.createdAt.getTime(),
      });
    },

    /** The project's events newest first, `limit` of them, before the event `beforeSeq` when given. */
    async page(projectId: string, limit: number, beforeSeq?: number, trx: Knex = db): Promise<AuditEventRecord[]> {
      const q = trx<AuditEventRow>('audit_events').where({ project_id: projectId });
      if (beforeSeq !== undefined) q.andWhere('seq', '<', beforeSeq);
      const rows = await q.orderBy('seq', 'desc').limit(limit);
      return rows.map(toRecord);
    },

    /**
     * Erasure: the project's events no longer name the account (they stay, about an erased
     * account); without an account, no event of the project names one (a reset deleted them all).
     */
    async forgetAccount(projectId: string, accountId: string | undefined, trx: Knex = db): Promise<number> {
      const q = trx('audit_events').where({ project_id: projectId });
      if (accountId === undefined) q.whereNotNull('account_id');
      else q.where({ account_id: accountId });
      if (accountId !== undefined) await forgetBlockedAccount(trx, projectId, accountId);
      return q.update({ account_id: null });
    },
  };
}

export type AuditEventRepository = ReturnType<typeof makeAuditEventRepository>;
