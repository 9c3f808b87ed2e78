/**
 * Labels: people's fraud / legit judgement of accounts, kept as history (the newest is the
 * account's current label), audited in the label's transaction, and the report of how the
 * scores fare against them (domain/labels/report.ts) over a bounded range read in pages.
 */
import type { AccountLabel, AccountLabelled, AccountLabels, LabelReport, LabelValue } from '../api-types';
import type { Clock, Random } from '../clock';
import { addToReport, emptyReport, labelReport } from '../domain/labels/report';
import { DAY_MS } from '../domain/numbers';
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import type { Db } from '../storage/db';
import type { AccountRepository } from '../storage/repositories/accounts';
import type { AuditEventRepository } from '../storage/repositories/audit-events';
import type { LabelRecord, LabelRepository } from '../storage/repositories/labels';
import { isUniqueViolation } from '../storage/sql';
import { actorName, type Actor } from './actor';
import { withDeps } from '../with-deps';

export interface LabelDeps {
  db: Db;
  clock: Clock;
  random: Random;
  accounts: AccountRepository;
  labels: LabelRepository;
  auditEvents: AuditEventRepository;
  /** The report's page size and most evaluations counted (tests make them small); REPORT_PAGE and MAX_REPORT_EVALUATIONS. */
  reportPage?: number;
  maxReportEvaluations?: number;
}

/** The longest note kept (the contract's maxLength; the CLI's notes are held to it too). */
export const MAX_LABEL_NOTE_LENGTH = 1000;
/** The report's longest range, its default one, and the most evaluations it counts. */
export const MAX_REPORT_RANGE_MS = 92 * DAY_MS;
export const DEFAULT_REPORT_RANGE_MS = 30 * DAY_MS;
export const MAX_REPORT_EVALUATIONS = 100_000;
/** How many labelled evaluations one read of the report takes. */
const REPORT_PAGE = 1000;

/** A stored label in the contract's shape. */
export function labelOf(l: LabelRecord): AccountLabel {
  return { id: l.id, label: l.label, note: l.note, actor: l.actor, created_at: l.createdAt.toISOString() };
}

async function mustExist({ accounts }: LabelDeps, projectId: string, accountId: string): Promise<void> {
  if (!(await accounts.find(projectId, accountId))) throw new NotFoundError('account', accountId);
}

/**
 * Labels the account (which must be the project's): the label and its audit event in one
 * transaction. A concurrent label of the same account that committed first: 409.
 */
async function label(
  deps: LabelDeps,
  projectId: string,
  accountId: string,
  input: { label: LabelValue; note?: string },
  actor: Actor,
  requestId: string | null = null,
): Promise<AccountLabelled> {
  const { db, clock, random } = deps;
  if (input.label !== 'fraud' && input.label !== 'legit') throw new BadRequestError('label must be fraud or legit');
  const note = input.note ?? null;
  if (note !== null && note.length > MAX_LABEL_NOTE_LENGTH)
    throw new BadRequestError(`note must NOT have more than ${MAX_LABEL_NOTE_LENGTH} characters`);
  await mustExist(deps, projectId, accountId);
  const record: LabelRecord = {
    seq: 0,
    id: random.uuid(),
    projectId,
    accountId,
    label: input.label,
    note,
    actor: actorName(actor),
    requestId,
    createdAt: clock.now(),
  };
  try {
    await db.transaction((trx) => writeLabel(deps, record, trx));
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ConflictError('The account was labelled by another request at the same time; retry');
    throw err;
  }
  return { request_id: requestId ?? '', account_id: accountId, ...labelOf(record) };
}

/** Stores the label as the account's current one, and its audit event, in the caller's transaction. */
export async function writeLabel(
  deps: Pick<LabelDeps, 'random' | 'labels' | 'auditEvents'>,
  record: LabelRecord,
  trx: Db,
): Promise<void> {
  const before = await deps.labels.current(record.projectId, record.accountId, trx);
  await deps.labels.insert(record, trx);
  await deps.auditEvents.insert(
    {
      id: deps.random.uuid(),
      projectId: record.projectId,
      actor: record.actor,
      action: 'account.labelled',
      requestId: record.requestId,
      accountId: record.accountId,
      changes: [{ field: 'label', before: before?.label ?? null, after: record.label }],
      createdAt: record.createdAt,
    },
    trx,
  );
}

/** A page of the account's labels, newest first; `cursor` is the previous page's `next_cursor`. */
async function list(
  deps: LabelDeps,
  projectId: string,
  accountId: string,
  limit: number,
  cursor: string | undefined,
  requestId: string,
): Promise<AccountLabels> {
  await mustExist(deps, projectId, accountId);
  const rows = await deps.labels.page(
    projectId,
    accountId,
    limit + 1,
    cursor === undefined ? undefined : Number(cursor),
  );
  const page = rows.slice(0, limit);
  return {
    request_id: requestId,
    account_id: accountId,
    labels: page.map(labelOf),
    next_cursor: rows.length > limit ? String(page[page.length - 1]!.seq) : null,
  };
}

/**
 * Precision and recall per threshold over the evaluations of labelled accounts in [from, to):
 * at most MAX_REPORT_RANGE_MS of range, read REPORT_PAGE rows at a time, at most
 * MAX_REPORT_EVALUATIONS counted (`truncated` past that).
 */
async function report(
  deps: LabelDeps,
  projectId: string,
  range: { from?: string; to?: string },
  requestId: string,
): Promise<LabelReport> {
  const pageSize = deps.reportPage ?? REPORT_PAGE;
  const cap = deps.maxReportEvaluations ?? MAX_REPORT_EVALUATIONS;
  const to = range.to === undefined ? deps.clock.now() : new Date(range.to);
  const from = range.from === undefined ? new Date(to.getTime() - DEFAULT_REPORT_RANGE_MS) : new Date(range.from);
  if (from.getTime() >= to.getTime()) throw new BadRequestError('from must be before to');
  if (to.getTime() - from.getTime() > MAX_REPORT_RANGE_MS)
    throw new BadRequestError(`to must be at most ${MAX_REPORT_RANGE_MS / DAY_MS} days after from`);
  const acc = emptyReport();
  let after: { accountId: string; sessionId: string } | undefined;
  let truncated = false;
  for (;;) {
    const room = cap - acc.evaluations;
    const rows = await deps.labels.evaluations(projectId, { from, to }, Math.min(pageSize, room + 1), after);
    if (rows.length > room) {
      truncated = true;
      rows.length = room;
    }
    addToReport(acc, rows);
    if (truncated || rows.length < pageSize) break;
    const last = rows[rows.length - 1]!;
    after = { accountId: last.accountId, sessionId: last.sessionId };
  }
  const { rules: _none, ...table } = labelReport(acc);
  return { request_id: requestId, from: from.toISOString(), to: to.toISOString(), truncated, ...table };
}

export function makeLabelUseCases(deps: LabelDeps) {
  const given = withDeps(deps);
  return { label: given(label), list: given(list), report: given(report) };
}

export type LabelUseCases = ReturnType<typeof makeLabelUseCases>;
