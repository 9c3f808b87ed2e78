/** Accounts' labels (fraud / legit) as history, and the labelled evaluations the report reads. */
import type { Knex } from 'knex';
import type { Decision, LabelValue } from '../../api-types';

export interface LabelRecord {
  /** The order of the labels, and the cursor of a page. */
  seq: number;
  id: string;
  projectId: string;
  accountId: string;
  label: LabelValue;
  note: string | null;
  actor: string;
  requestId: string | null;
  createdAt: Date;
}

interface LabelRow {
  seq: number | string;
  id: string;
  project_id: string;
  account_id: string;
  label: string;
  note: string | null;
  actor: string;
  request_id: string | null;
  created_at: number | string;
}

function toRecord(row: LabelRow): LabelRecord {
  return {
    seq: Number(row.seq),
    id: row.id,
    projectId: row.project_id,
    accountId: row.account_id,
    label: row.label as LabelValue,
    note: row.note,
    actor: row.actor,
    requestId: row.request_id,
    createdAt: new Date(Number(row.created_at)),
  };
}

/** One evaluation (a session's latest) of a labelled account, with the account's current label. */
export interface LabelledEvaluationRow {
  accountId: string;
  sessionId: string;
  label: LabelValue;
  accountScore: number;
  decision?: Decision;
}

export function makeLabelRepository(db: Knex) {
  return {
    /** Adds the account's new label, which becomes its current one. */
    async insert(l: Omit<LabelRecord, 'seq'>, trx: Knex = db): Promise<void> {
      await trx('labels')
        .where({ project_id: l.projectId, account_id: l.accountId, current: true })
        .update({ current: false });
      await trx('labels').insert({
        id: l.id,
        project_id: l.projectId,
        account_id: l.accountId,
        label: l.label,
        note: l.note,
        current: true,
        actor: l.actor,
        request_id: l.requestId,
        created_at: l.createdAt.getTime(),
      });
    },

    /** The account's current label, if it has one. */
    async current(projectId: string, accountId: string, trx: Knex = db): Promise<LabelRecord | undefined> {
      const row = await trx<LabelRow>('labels')
        .where({ project_id: projectId, account_id: accountId })
        .orderBy('seq', 'desc')
        .first();
      return row && toRecord(row);
    },

    /** The account's labels newest first, `limit` of them, before the label `beforeSeq` when given. */
    async page(
      projectId: string,
      accountId: string,
      limit: number,
      beforeSeq?: number,
      trx: Knex = db,
    ): Promise<LabelRecord[]> {
      const q = trx<LabelRow>('labels').where({ project_id: projectId, account_id: accountId });
      if (beforeSeq !== undefined) q.andWhere('seq', '<', beforeSeq);
      return (await q.orderBy('seq', 'desc').limit(limit)).map(toRecord);
    },

    /** Erasure: the account's labels (their notes are personal data) are deleted. */
    async forgetAccount(projectId: string, accountId: string, trx: Knex = db): Promise<number> {
      return trx('labels').where({ project_id: projectId, account_id: accountId }).delete();
    },

    /**
     * A page of the evaluations of the project's labelled accounts evaluated in [from, to), in
     * (account, session) order after `after`: the sessions linked to each account with a current
     * label, with the latest evaluation each keeps (sessions without a score are left out).
     */
    async evaluations(
      projectId: string,
      range: { from: Date; to: Date },
      limit: number,
      after?: { accountId: string; sessionId: string },
      trx: Knex = db,
    ): Promise<LabelledEvaluationRow[]> {
      // CROSS JOINs with the join conditions in WHERE: SQLite then keeps this order (labels, their
      // sessions, each session by id); joined with ON, it walked the project's whole
      // session_accounts index (without ANALYZE, `project_id = ?` looks selective to it).
      // PostgreSQL plans both forms alike. test/storage/query-plans.test.ts checks both.
      const q = trx('labels as l')
        .crossJoin(trx.raw('?? as ??', ['session_accounts', 'sa']))
        .crossJoin(trx.raw('?? as ??', ['sessions', 's']))
        .where('sa.project_id', trx.ref('l.project_id'))
        .where('sa.account_id', trx.ref('l.account_id'))
        .where('s.id', trx.ref('sa.session_id'))
        .where({ 'l.project_id': projectId, 'l.current': true })
        .where('s.evaluated_at', '>=', range.from.getTime())
        .where('s.evaluated_at', '<', range.to.getTime())
        .whereNotNull('s.account_score')
        .orderBy([
          { column: 'l.account_id', order: 'asc' },
          { column: 'sa.session_id', order: 'asc' },
        ])
        .limit(limit)
        .select('l.account_id', 'sa.session_id', 'l.label', 's.account_score', 's.decision');
      // The `>=` lets both engines seek the labels index to the page's first account.
      if (after)
        q.where('l.account_id', '>=', after.accountId).where(function () {
          this.where('l.account_id', '>', after.accountId).orWhere(function () {
            this.where('l.account_id', '=', after.accountId).andWhere('sa.session_id', '>', after.sessionId);
          });
        });
      const rows: {
        account_id: string;
        session_id: string;
        label: string;
        account_score: number | string;
        decision: string | null;
      }[] = await q;
      return rows.map((r) => ({
        accountId: r.account_id,
        sessionId: r.session_id,
        label: r.label as LabelValue,
        accountScore: Number(r.account_score),
        ...(r.decision ? { decision: r.decision as Decision } : {}),
      }));
    },
  };
}

export type LabelRepository = ReturnType<typeof makeLabelRepository>;
