/**
 * Cases (docs/cases.md): the review queue's use cases. Each change is audited in its own
 * transaction; closing a case labels its accounts and puts them on a list in that same one, by
 * the code the label and list calls use (labels.ts writeLabel, list-events.ts recordMemberships).
 * A rule's `open_case` opens a case in the evaluation's write instead (domain/evaluation/write.ts).
 */
import type { Case, CaseClose, CaseInput, CaseNote, CasePage, CaseStatus, CaseUpdate } from '../api-types';
import type { Clock, Random } from '../clock';
import {
  ACTIVE_STATUSES,
  caseView,
  closeRefusal,
  decodeCursor,
  encodeCursor,
  noteView,
  snapshotOf,
  sortValue,
  updateRefusal,
  type CaseRecord,
  type CaseSort,
} from '../domain/cases';
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import type { Db } from '../storage/db';
import type { AccountRepository } from '../storage/repositories/accounts';
import type { AuditChangeRecord, AuditEventRepository } from '../storage/repositories/audit-events';
import type { CaseFilter, CaseRepository } from '../storage/repositories/cases';
import type { LabelRepository } from '../storage/repositories/labels';
import type { ListRepository, MembershipChange } from '../storage/repositories/lists';
import type { OperatorRepository } from '../storage/repositories/operators';
import type { Project } from '../storage/repositories/projects';
import type { ReceiptRepository } from '../storage/repositories/receipts';
import { isUniqueViolation } from '../storage/sql';
import type { Outbox } from '../webhooks/outbox';
import { withDeps } from '../with-deps';
import { actorName, type Actor } from './actor';
import { writeLabel } from './labels';
import { listsChangedAudit, recordMemberships } from './list-events';

export interface CaseDeps {
  db: Db;
  clock: Clock;
  random: Random;
  cases: CaseRepository;
  accounts: AccountRepository;
  operators: OperatorRepository;
  receipts: ReceiptRepository;
  labels: LabelRepository;
  lists: ListRepository;
  auditEvents: AuditEventRepository;
  outbox: Outbox;
  /** Called once a transaction that queued a webhook (a list event) has committed. */
  webhooksQueued(): void;
}

export interface CaseQuery {
  status?: 'active' | CaseStatus | 'all';
  assignee?: string;
  rule_id?: string;
  account_id?: string;
  sort?: CaseSort;
  limit?: number;
  cursor?: string;
}

async function mustFind(deps: CaseDeps, projectId: string, caseId: string): Promise<CaseRecord> {
  const found = await deps.cases.find(projectId, caseId);
  if (!found) throw new NotFoundError('case', caseId);
  return found;
}

/** The assignee as given, if it is an analyst or admin of the project who may sign in; else a 400 naming it. */
async function assignable(deps: CaseDeps, projectId: string, assignee: string | null | undefined): Promise<void> {
  if (assignee === null || assignee === undefined) return;
  const operator = (await deps.operators.list(projectId)).find((o) => o.id === assignee);
  if (!operator || operator.disabledAt !== null || operator.role === 'viewer')
    throw new BadRequestError(`assignee ${assignee} is not an analyst or admin of this project who may sign in`);
}

/** One audit event of a case, in the caller's transaction. */
function audit(deps: CaseDeps, c: CaseRecord, action: string, actor: string, requestId: string, trx: Db) {
  return (changes: AuditChangeRecord[], at: Date) =>
    deps.auditEvents.insert(
      {
        id: deps.random.uuid(),
        projectId: c.projectId,
        actor,
        action,
        requestId,
        accountId: c.accountIds[0]!,
        // An opening names the case as new; the other events name the case they changed.
        changes: [{ field: 'case_id', before: action === 'case.opened' ? null : c.id, after: c.id }, ...changes],
        createdAt: at,
      },
      trx,
    );
}

/** The changes between two states of a case, as the audit records them. */
function changesOf(before: CaseRecord, after: CaseRecord): AuditChangeRecord[] {
  const fields = ['status', 'assignee', 'outcome', 'list'] as const;
  return fields.filter((f) => before[f] !== after[f]).map((f) => ({ field: f, before: before[f], after: after[f] }));
}

async function list(deps: CaseDeps, projectId: string, query: CaseQuery, requestId: string): Promise<CasePage> {
  const sort = query.sort ?? 'oldest';
  const limit = query.limit ?? 50;
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (query.cursor !== undefined && !after) throw new BadRequestError('cursor must be a next_cursor of GET /cases');
  const status = query.status ?? 'active';
  const filter: CaseFilter = {
    ...(status === 'all' ? {} : { statuses: status === 'active' ? ACTIVE_STATUSES : [status] }),
    ...(query.assignee === undefined ? {} : { assignee: query.assignee === 'none' ? null : query.assignee }),
    ...(query.rule_id === undefined ? {} : { ruleId: query.rule_id }),
    ...(query.account_id === undefined ? {} : { accountId: query.account_id }),
  };
  const rows = await deps.cases.page(projectId, filter, sort, limit + 1, after);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    request_id: requestId,
    cases: page.map((c) => caseView(c)),
    next_cursor: rows.length > limit && last ? encodeCursor({ value: sortValue(last, sort), id: last.id }) : null,
  };
}

/** The first account's latest evaluation, as the case keeps it; null when it was never evaluated. */
async function currentSnapshot(deps: CaseDeps, projectId: string, accountId: string) {
  const account = await deps.accounts.find(projectId, accountId);
  if (!account?.decision || !account.scores) return null;
  const requestId = account.lastEvaluation?.requestId ?? null;
  const kept = requestId === null ? undefined : await deps.receipts.find(projectId, requestId);
  return snapshotOf({
    requestId,
    decision: account.decision,
    scores: account.scores,
    ...(kept ? { riskScores: kept.riskScores, spoofedIp: kept.spoofedIp } : {}),
  });
}

async function open(
  deps: CaseDeps,
  projectId: string,
  input: CaseInput,
  actor: Actor,
  requestId: string,
): Promise<Case> {
  const ids = input.account_ids;
  const found = new Set((await deps.accounts.findMany(projectId, [...ids])).map((a) => a.id));
  ids.forEach((id, i) => {
    if (!found.has(id)) throw new BadRequestError(`account_ids[${i}] ${id} is not an account of this project`);
  });
  await assignable(deps, projectId, input.assignee);
  const now = deps.clock.now();
  const who = actorName(actor);
  const record: CaseRecord = {
    id: deps.random.uuid(),
    projectId,
    status: 'open',
    outcome: null,
    accountIds: [...ids],
    reason: input.reason,
    openedBy: who,
    ruleId: null,
    snapshot: await currentSnapshot(deps, projectId, ids[0]!),
    assignee: input.assignee ?? null,
    list: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
    closedAt: null,
    closedBy: null,
  };
  try {
    await deps.db.transaction(async (trx) => {
      await deps.cases.insert(record, trx);
      await audit(deps, record, 'case.opened', who, requestId, trx)([], now);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw await inAnotherCase(deps, projectId, ids);
    throw err;
  }
  return caseView(record, []);
}

/** The 409 of accounts already in an active case, naming the first one and its case. */
async function inAnotherCase(deps: CaseDeps, projectId: string, ids: readonly string[]): Promise<ConflictError> {
  const active = await deps.cases.activeCases(projectId, ids);
  const [accountId, caseId] = [...active][0] ?? [ids[0], 'another'];
  return new ConflictError(`account ${accountId} is already in the active case ${caseId}`);
}

async function get(deps: CaseDeps, projectId: string, caseId: string): Promise<Case> {
  const found = await mustFind(deps, projectId, caseId);
  return caseView(found, await deps.cases.notes(caseId));
}

async function update(
  deps: CaseDeps,
  projectId: string,
  caseId: string,
  input: CaseUpdate,
  actor: Actor,
  requestId: string,
): Promise<Case> {
  const before = await mustFind(deps, projectId, caseId);
  const refusal = updateRefusal(before, {
    ...(input.status ? { status: input.status } : {}),
    ...(input.expected_version === undefined ? {} : { expectedVersion: input.expected_version }),
  });
  if (refusal) throw new ConflictError(refusal);
  if (input.assignee !== undefined) await assignable(deps, projectId, input.assignee);
  const now = deps.clock.now();
  const reopened = input.status === 'open' && before.status === 'closed';
  const after: CaseRecord = {
    ...before,
    ...(input.status ? { status: input.status } : {}),
    ...(input.assignee !== undefined ? { assignee: input.assignee } : {}),
    ...(reopened ? { outcome: null, list: null, closedAt: null, closedBy: null } : {}),
    version: before.version + 1,
    updatedAt: now,
  };
  const changes = changesOf(before, after);
  if (changes.length === 0) return caseView(before, await deps.cases.notes(caseId));
  const who = actorName(actor);
  try {
    await deps.db.transaction(async (trx) => {
      if (!(await deps.cases.update(after, before.version, trx))) throw changedMeanwhile(caseId);
      await audit(deps, after, 'case.updated', who, requestId, trx)(changes, now);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw await inAnotherCase(deps, projectId, before.accountIds);
    throw err;
  }
  return caseView(after, await deps.cases.notes(caseId));
}

const changedMeanwhile = (caseId: string) =>
  new ConflictError(`case ${caseId} was changed by another request at the same time; read it again`);

async function close(
  deps: CaseDeps,
  project: Project,
  caseId: string,
  input: CaseClose,
  actor: Actor,
  requestId: string,
): Promise<Case> {
  const before = await mustFind(deps, project.id, caseId);
  const refusal = closeRefusal(before);
  if (refusal) throw new ConflictError(refusal);
  const now = deps.clock.now();
  const who = actorName(actor);
  const after: CaseRecord = {
    ...before,
    status: 'closed',
    outcome: input.outcome,
    list: input.list ?? null,
    closedAt: now,
    closedBy: who,
    version: before.version + 1,
    updatedAt: now,
  };
  const note = input.note ?? null;
  const queued = await deps.db
    .transaction(async (trx) => {
      if (!(await deps.cases.update(after, before.version, trx))) throw changedMeanwhile(caseId);
      let events = 0;
      for (const accountId of before.accountIds) {
        await writeLabel(
          deps,
          {
            seq: 0,
            id: deps.random.uuid(),
            projectId: project.id,
            accountId,
            label: input.outcome,
            note,
            actor: who,
            requestId,
            createdAt: now,
          },
          trx,
        );
        if (input.list) {
          const changes: MembershipChange[] = await deps.lists.apply(project.id, accountId, [input.list], now, trx);
          const changed = [{ accountId, changes }];
          const audit = listsChangedAudit(accountId, changes);
          events += await recordMemberships(deps, project, actor, requestId, now, changed, audit, trx);
        }
      }
      if (note !== null)
        await deps.cases.insertNote(
          { id: deps.random.uuid(), caseId, projectId: project.id, author: who, text: note, createdAt: now },
          trx,
        );
      await audit(deps, after, 'case.closed', who, requestId, trx)(changesOf(before, after), now);
      return events;
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err))
        throw new ConflictError('An account of the case was labelled by another request at the same time; retry');
      throw err;
    });
  if (queued > 0) deps.webhooksQueued();
  return caseView(after, await deps.cases.notes(caseId));
}

async function addNote(
  deps: CaseDeps,
  projectId: string,
  caseId: string,
  text: string,
  actor: Actor,
  requestId: string,
): Promise<CaseNote> {
  const found = await mustFind(deps, projectId, caseId);
  const now = deps.clock.now();
  const who = actorName(actor);
  const note = { id: deps.random.uuid(), caseId, projectId, author: who, text, createdAt: now };
  await deps.db.transaction(async (trx) => {
    await deps.cases.insertNote(note, trx);
    await audit(deps, found, 'case.noted', who, requestId, trx)([], now);
  });
  return noteView(note);
}

export function makeCaseUseCases(deps: CaseDeps) {
  const given = withDeps(deps);
  return {
    list: given(list),
    open: given(open),
    get: given(get),
    update: given(update),
    close: given(close),
    addNote: given(addNote),
  };
}

export type CaseUseCases = ReturnType<typeof makeCaseUseCases>;
