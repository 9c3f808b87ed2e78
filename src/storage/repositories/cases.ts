/**
 * Cases, their accounts and notes (migration 0045). Rows are mapped to the domain's plain records
 * (domain/cases) here and nowhere else.
 */
import type { Knex } from 'knex';
import type { CaseSnapshot, CaseStatus, LabelValue } from '../../api-types';
import {
  isActive,
  sortScore,
  type CaseCursor,
  type CaseNoteRecord,
  type CaseRecord,
  type CaseSort,
} from '../../domain/cases';
import type { Statement } from '../statements';

interface CaseRow {
  id: string;
  project_id: string;
  status: string;
  outcome: string | null;
  reason: string;
  opened_by: string;
  rule_id: string | null;
  snapshot: string | null;
  sort_score: number | string;
  assignee: string | null;
  list: string | null;
  version: number | string;
  created_at: number | string;
  updated_at: number | string;
  closed_at: number | string | null;
  closed_by: string | null;
}

interface NoteRow {
  id: string;
  case_id: string;
  project_id: string;
  author: string;
  text: string;
  created_at: number | string;
}

function toRecord(row: CaseRow, accountIds: string[]): CaseRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    status: row.status as CaseStatus,
    outcome: row.outcome as LabelValue | null,
    accountIds,
    reason: row.reason,
    openedBy: row.opened_by,
    ruleId: row.rule_id,
    snapshot: row.snapshot === null ? null : (JSON.parse(row.snapshot) as CaseSnapshot),
    assignee: row.assignee,
    list: row.list as CaseRecord['list'],
    version: Number(row.version),
    createdAt: new Date(Number(row.created_at)),
    updatedAt: new Date(Number(row.updated_at)),
    closedAt: row.closed_at === null ? null : new Date(Number(row.closed_at)),
    closedBy: row.closed_by,
  };
}

function rowOf(c: CaseRecord): CaseRow {
  return {
    id: c.id,
    project_id: c.projectId,
    status: c.status,
    outcome: c.outcome,
    reason: c.reason,
    opened_by: c.openedBy,
    rule_id: c.ruleId,
    snapshot: c.snapshot === null ? null : JSON.stringify(c.snapshot),
    sort_score: sortScore(c.snapshot),
    assignee: c.assignee,
    list: c.list,
    version: c.version,
    created_at: c.createdAt.getTime(),
    updated_at: c.updatedAt.getTime(),
    closed_at: c.closedAt?.getTime() ?? null,
    closed_by: c.closedBy,
  };
}

const noteRecord = (r: NoteRow): CaseNoteRecord => ({
  id: r.id,
  caseId: r.case_id,
  projectId: r.project_id,
  author: r.author,
  text: r.text,
  createdAt: new Date(Number(r.created_at)),
});

/** What the queue is filtered by. */
export interface CaseFilter {
  /** undefined: every status. */
  statuses?: readonly CaseStatus[];
  /** null: the unassigned ones. */
  assignee?: string | null;
  ruleId?: string;
  accountId?: string;
}

/**
 * Each column's placeholder, typed: PostgreSQL cannot infer a bare parameter's type in a SELECT
 * list, and a null's type is the column's.
 */
const NUMERIC: Partial<Record<keyof CaseRow, string>> = {
  sort_score: 'double precision',
  version: 'integer',
  created_at: 'bigint',
  updated_at: 'bigint',
  closed_at: 'bigint',
};
const placeholders = (columns: readonly string[], numeric: Record<string, string | undefined> = NUMERIC) =>
  columns.map((c) => `CAST(? AS ${numeric[c] ?? 'text'})`).join(', ');

/**
 * What a rule's `open_case` writes in the evaluation's transaction (storage/evaluation/write.ts):
 * the case of one account, only if that account is in no active case, and its audit event. The
 * accounts' row follows the case's (none when it was not inserted) and gives way to a
 * concurrent evaluation's case; a case left without its account is then deleted.
 */
export function openCaseStatements(c: CaseRecord, audit: { id: string; requestId: string }): Statement[] {
  const row = rowOf(c);
  const accountId = c.accountIds[0]!;
  const values = Object.values(row);
  const auditRow = {
    id: audit.id,
    project_id: c.projectId,
    actor: c.openedBy,
    action: 'case.opened',
    request_id: audit.requestId,
    account_id: accountId,
    changes: JSON.stringify([{ field: 'case_id', before: null, after: c.id }]),
    created_at: c.createdAt.getTime(),
  };
  return [
    {
      sql:
        `INSERT INTO cases (${Object.keys(row).join(', ')}) SELECT ${placeholders(Object.keys(row))} ` +
        'WHERE NOT EXISTS (SELECT 1 FROM case_accounts WHERE project_id = ? AND active_account_id = ?)',
      bindings: [...values, c.projectId, accountId],
    },
    {
      sql:
        'INSERT INTO case_accounts (case_id, project_id, account_id, position, active_account_id) ' +
        'SELECT id, project_id, CAST(? AS text), 0, CAST(? AS text) FROM cases WHERE id = ? ' +
        'ON CONFLICT (project_id, active_account_id) DO NOTHING',
      bindings: [accountId, accountId, c.id],
    },
    {
      sql: 'DELETE FROM cases WHERE id = ? AND NOT EXISTS (SELECT 1 FROM case_accounts WHERE case_id = ?)',
      bindings: [c.id, c.id],
    },
    {
      sql:
        `INSERT INTO audit_events (${Object.keys(auditRow).join(', ')}) ` +
        `SELECT ${placeholders(Object.keys(auditRow), { created_at: 'bigint' })} WHERE EXISTS (SELECT 1 FROM cases WHERE id = ?)`,
      bindings: [...Object.values(auditRow), c.id],
    },
  ];
}

/** The accounts of each case, in order. */
async function accountsOf(caseIds: readonly string[], trx: Knex): Promise<Map<string, string[]>> {
  const byCase = new Map<string, string[]>(caseIds.map((id) => [id, []]));
  if (caseIds.length === 0) return byCase;
  const rows: { case_id: string; account_id: string }[] = await trx('case_accounts')
    .whereIn('case_id', caseIds)
    .orderBy([{ column: 'case_id' }, { column: 'position' }])
    .select('case_id', 'account_id');
  for (const r of rows) byCase.get(r.case_id)!.push(r.account_id);
  return byCase;
}

async function records(rows: CaseRow[], trx: Knex): Promise<CaseRecord[]> {
  const accounts = await accountsOf(
    rows.map((r) => r.id),
    trx,
  );
  return rows.map((r) => toRecord(r, accounts.get(r.id) ?? []));
}

/** A page of the project's cases in `sort` order, after `after` when given. */
async function casePage(
  projectId: string,
  filter: CaseFilter,
  sort: CaseSort,
  limit: number,
  after: CaseCursor | undefined,
  trx: Knex,
): Promise<CaseRecord[]> {
  const q = trx<CaseRow>('cases').where({ project_id: projectId });
  if (filter.statuses) q.whereIn('status', filter.statuses);
  if (filter.assignee === null) q.whereNull('assignee');
  else if (filter.assignee !== undefined) q.where({ assignee: filter.assignee });
  if (filter.ruleId !== undefined) q.where({ rule_id: filter.ruleId });
  if (filter.accountId !== undefined)
    q.whereIn(
      'id',
      trx('case_accounts').where({ project_id: projectId, account_id: filter.accountId }).select('case_id'),
    );
  const column = sort === 'score' ? 'sort_score' : 'created_at';
  // Riskiest and newest first read the index backwards, ties by id backwards too.
  const dir = sort === 'oldest' ? 'asc' : 'desc';
  const beyond = dir === 'asc' ? '>' : '<';
  if (after)
    q.where((w) =>
      w
        .where(column, beyond, after.value)
        .orWhere((e) => e.where(column, after.value).andWhere('id', beyond, after.id)),
    );
  const rows = await q
    .orderBy([
      { column, order: dir },
      { column: 'id', order: dir },
    ])
    .limit(limit);
  return records(rows, trx);
}

/**
 * Erasure: the account leaves its cases; a case left with no account goes, with its notes
 * (they are about the account). A group's case stays with its other accounts.
 */
async function forgetCaseAccount(projectId: string, accountId: string, trx: Knex): Promise<void> {
  const caseIds: string[] = await trx('case_accounts')
    .where({ project_id: projectId, account_id: accountId })
    .pluck('case_id');
  if (caseIds.length === 0) return;
  await trx('case_accounts').where({ project_id: projectId, account_id: accountId }).delete();
  const emptied = trx('cases')
    .where({ project_id: projectId })
    .whereIn('id', caseIds)
    .whereNotExists(trx('case_accounts').whereRaw('case_accounts.case_id = cases.id').select(trx.raw('1')))
    .select('id');
  await trx('case_notes').whereIn('case_id', emptied.clone()).delete();
  await trx('cases').whereIn('id', emptied).delete();
}

export function makeCaseRepository(db: Knex) {
  const accountRows = (c: CaseRecord) =>
    c.accountIds.map((accountId, position) => ({
      case_id: c.id,
      project_id: c.projectId,
      account_id: accountId,
      position,
      active_account_id: isActive(c) ? accountId : null,
    }));

  return {
    async find(projectId: string, id: string, trx: Knex = db): Promise<CaseRecord | undefined> {
      const row: CaseRow | undefined = await trx('cases').where({ project_id: projectId, id }).first();
      return row ? (await records([row], trx))[0] : undefined;
    },

    /** The active case each of `accountIds` is in, by account (those in none are absent). */
    async activeCases(projectId: string, accountIds: readonly string[], trx: Knex = db): Promise<Map<string, string>> {
      const rows: { active_account_id: string; case_id: string }[] = await trx('case_accounts')
        .where({ project_id: projectId })
        .whereIn('active_account_id', accountIds)
        .select('active_account_id', 'case_id');
      return new Map(rows.map((r) => [r.active_account_id, r.case_id]));
    },

    /** Inserts the case and its accounts; an account already in an active case fails it with a unique violation. */
    async insert(c: CaseRecord, trx: Knex): Promise<void> {
      await trx('cases').insert(rowOf(c));
      await trx('case_accounts').insert(accountRows(c));
    },

    openStatements: openCaseStatements,

    /**
     * Stores `c` (the case after a change) over version `fromVersion`, its accounts' active marks
     * with it; false (nothing written) when another change came first. Reopening fails with a
     * unique violation when an account went into another active case meanwhile.
     */
    async update(c: CaseRecord, fromVersion: number, trx: Knex): Promise<boolean> {
      const { id: _id, project_id: _p, ...changed } = rowOf(c);
      const updated = await trx('cases')
        .where({ project_id: c.projectId, id: c.id, version: fromVersion })
        .update(changed);
      if (updated === 0) return false;
      await trx('case_accounts')
        .where({ case_id: c.id })
        .update({ active_account_id: isActive(c) ? trx.ref('account_id') : null });
      return true;
    },

    /** A page of the project's cases in `sort` order, after `after` when given. */
    page: (projectId: string, filter: CaseFilter, sort: CaseSort, limit: number, after?: CaseCursor, trx: Knex = db) =>
      casePage(projectId, filter, sort, limit, after, trx),

    async notes(caseId: string, trx: Knex = db): Promise<CaseNoteRecord[]> {
      const rows: NoteRow[] = await trx('case_notes').where({ case_id: caseId }).orderBy(['created_at', 'id']);
      return rows.map(noteRecord);
    },

    async insertNote(n: CaseNoteRecord, trx: Knex): Promise<void> {
      await trx('case_notes').insert({
        id: n.id,
        case_id: n.caseId,
        project_id: n.projectId,
        author: n.author,
        text: n.text,
        created_at: n.createdAt.getTime(),
      });
    },

    forgetAccount: forgetCaseAccount,
  };
}

export type CaseRepository = ReturnType<typeof makeCaseRepository>;
