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

interface LabelledEvaluationDbRow {
  account_id: string;
  session_id: string;
  label: string;
  account_score: number | string;
  decision: string | null;
}

/** Adds the account's new label, which becomes its current one. */
export async function insertLabel(db: Knex, l: Omit<LabelRecord, 'seq'>): Promise<void> {
  await db('labels')
    .where({ project_id: l.projectId, account_id: l.accountId, current: true })
    .update({ current: false });
  await db('labels').insert({
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
}

/** The account's current label, if it has one. */
export async function currentLabel(db: Knex, projectId: string, accountId: string): Promise<LabelRecord | undefined> {
  const row = await db<LabelRow>('labels')
    .where({ project_id: projectId, account_id: accountId })
    .orderBy('seq', 'desc')
    .first();
  return row && toRecord(row);
}

/**
 * The current label of each of these accounts that has one: one statement over the unique index
 * of current labels, `(project_id, account_id) WHERE current` (at most 500 ids a statement).
 */
export async function currentLabels(
  db: Knex,
  projectId: string,
  accountIds: readonly string[],
): Promise<Map<string, LabelValue>> {
  const out = new Map<string, LabelValue>();
  for (let i = 0; i < accountIds.length; i += 500) {
    const rows: { account_id: string; label: string }[] = await db('labels')
      .where({ project_id: projectId, current: true })
      .whereIn('account_id', accountIds.slice(i, i + 500))
      .select('account_id', 'label');
    for (const r of rows) out.set(r.account_id, r.label as LabelValue);
  }
  return out;
}

/** The account's labels newest first, `limit` of them, before the label `beforeSeq` when given. */
export async function labelPage(
  db: Knex,
  projectId: string,
  accountId: string,
  limit: number,
  beforeSeq?: number,
): Promise<LabelRecord[]> {
  const q = db<LabelRow>('labels').where({ project_id: projectId, account_id: accountId });
  if (beforeSeq !== undefined) q.andWhere('seq', '<', beforeSeq);
  return (await q.orderBy('seq', 'desc').limit(limit)).map(toRecord);
}

/** Erasure: the account's labels (their notes are personal data) are deleted. */
export async function forgetLabels(db: Knex, projectId: string, accountId: string): Promise<number> {
  return db('labels').where({ project_id: projectId, account_id: accountId }).delete();
}

/**
 * A page of the evaluations of the project's labelled accounts evaluated in [from, to), in
 * (account, session) order after `after`: the sessions linked to each account with a current
 * label, with the latest evaluation each keeps (sessions without a score are left out).
 */
export async function labelledEvaluations(
  db: Knex,
  projectId: string,
  range: { from: Date; to: Date },
  limit: number,
  after?: { accountId: string; sessionId: string },
): Promise<LabelledEvaluationRow[]> {
  // CROSS JOINs with the join conditions in WHERE: SQLite then keeps this order (labels, their
  // sessions, each session by id); joined with ON, it walked the project's whole
  // session_accounts index (without ANALYZE, `project_id = ?` looks selective to it).
  // PostgreSQL plans both forms alike. test/storage/query-plans.test.ts checks both.
  const q = db('labels as l')
    .crossJoin(db.raw('?? as ??', ['session_accounts', 'sa']))
    .crossJoin(db.raw('?? as ??', ['sessions', 's']))
    .where('sa.project_id', db.ref('l.project_id'))
    .where('sa.account_id', db.ref('l.account_id'))
    .where('s.id', db.ref('sa.session_id'))
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
  const rows: LabelledEvaluationDbRow[] = await q;
  return rows.map((r) => ({
    accountId: r.account_id,
    sessionId: r.session_id,
    label: r.label as LabelValue,
    accountScore: Number(r.account_score),
    ...(r.decision ? { decision: r.decision as Decision } : {}),
  }));
}

/** Each method runs on `trx` when given, else on `db`. */
export function makeLabelRepository(db: Knex) {
  return {
    insert: (l: Omit<LabelRecord, 'seq'>, trx: Knex = db) => insertLabel(trx, l),
    current: (projectId: string, accountId: string, trx: Knex = db) => currentLabel(trx, projectId, accountId),
    currentOf: (projectId: string, accountIds: readonly string[], trx: Knex = db) =>
      currentLabels(trx, projectId, accountIds),
    page: (projectId: string, accountId: string, limit: number, beforeSeq?: number, trx: Knex = db) =>
      labelPage(trx, projectId, accountId, limit, beforeSeq),
    forgetAccount: (projectId: string, accountId: string, trx: Knex = db) => forgetLabels(trx, projectId, accountId),
    evaluations: (
      projectId: string,
      range: { from: Date; to: Date },
      limit: number,
      after?: { accountId: string; sessionId: string },
      trx: Knex = db,
    ) => labelledEvaluations(trx, projectId, range, limit, after),
  };
}

export type LabelRepository = ReturnType<typeof makeLabelRepository>;
