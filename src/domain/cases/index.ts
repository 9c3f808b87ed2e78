/**
 * Cases (docs/cases.md): an account, or a group of linked accounts, under review. The record as
 * storage keeps it, the contract's view of it, what the scores were when it opened, the rules of
 * its life (which status a change may move it to, which page of the queue comes next), all pure.
 */
import type {
  Case,
  CaseNote,
  CaseSnapshot,
  CaseStatus,
  Decision,
  EvaluatedRiskSignalScores,
  LabelValue,
} from '../../api-types';
import { signalFlags } from '../signals';
import type { Scores } from '../evaluation/facts';

export interface CaseRecord {
  id: string;
  projectId: string;
  status: CaseStatus;
  outcome: LabelValue | null;
  /** In order; the first is the account the case opened for. */
  accountIds: string[];
  reason: string;
  openedBy: string;
  ruleId: string | null;
  snapshot: CaseSnapshot | null;
  assignee: string | null;
  list: 'block' | 'allow' | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  closedBy: string | null;
}

export interface CaseNoteRecord {
  id: string;
  caseId: string;
  projectId: string;
  author: string;
  text: string;
  createdAt: Date;
}

/** The statuses `status=active` stands for. */
export const ACTIVE_STATUSES: readonly CaseStatus[] = ['open', 'in_review'];
export const isActive = (c: Pick<CaseRecord, 'status'>): boolean => ACTIVE_STATUSES.includes(c.status);

/** The names of the risk signals an evaluation raised. */
export function detectedSignals(scores: EvaluatedRiskSignalScores, spoofedIp: boolean): string[] {
  return Object.entries(signalFlags(scores, spoofedIp))
    .filter(([, on]) => on)
    .map(([name]) => name);
}

/** The scores and signals of one evaluation, as a case keeps them from when it opened. */
export function snapshotOf(evaluation: {
  requestId: string | null;
  decision: Decision;
  scores: Scores;
  riskScores?: EvaluatedRiskSignalScores;
  spoofedIp?: boolean;
}): CaseSnapshot {
  const { scores } = evaluation;
  return {
    evaluation_request_id: evaluation.requestId,
    decision: evaluation.decision,
    account_score: scores.account_score,
    bot: scores.bot,
    multiple_accounts: scores.multiple_accounts,
    risk_signals: scores.risk_signals,
    signals: evaluation.riskScores ? detectedSignals(evaluation.riskScores, evaluation.spoofedIp ?? false) : [],
  };
}

/** What the queue sorts by: the snapshot's account score, -1 without one (last when riskiest is first). */
export const sortScore = (snapshot: CaseSnapshot | null): number => snapshot?.account_score ?? -1;

export function caseView(c: CaseRecord, notes?: readonly CaseNoteRecord[]): Case {
  return {
    case_id: c.id,
    status: c.status,
    outcome: c.outcome,
    account_id: c.accountIds[0]!,
    account_ids: c.accountIds,
    reason: c.reason,
    opened_by: c.openedBy,
    rule_id: c.ruleId,
    snapshot: c.snapshot,
    assignee: c.assignee,
    list: c.list,
    version: c.version,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
    closed_at: c.closedAt?.toISOString() ?? null,
    closed_by: c.closedBy,
    ...(notes ? { notes: notes.map(noteView) } : {}),
  };
}

export function noteView(n: CaseNoteRecord): CaseNote {
  return { id: n.id, author: n.author, text: n.text, created_at: n.createdAt.toISOString() };
}

/** Why `update` may not be made to the case (undefined: it may). A closed case is reopened only by `open`. */
export function updateRefusal(
  c: CaseRecord,
  update: { status?: 'open' | 'in_review'; expectedVersion?: number },
): string | undefined {
  if (update.expectedVersion !== undefined && update.expectedVersion !== c.version)
    return `case ${c.id} is at version ${c.version}, not ${update.expectedVersion}: it changed since it was read`;
  if (!isActive(c) && update.status !== 'open') return `case ${c.id} is closed: reopen it with status open first`;
  return undefined;
}

export function closeRefusal(c: CaseRecord): string | undefined {
  return isActive(c) ? undefined : `case ${c.id} is already closed`;
}

/** The queue's order: `oldest` and `newest` by opening time, `score` riskiest first; the id breaks ties. */
export type CaseSort = 'oldest' | 'newest' | 'score';

/** Where a page of the queue starts: after the case with this sort value and id. */
export interface CaseCursor {
  value: number;
  id: string;
}

export function sortValue(c: CaseRecord, sort: CaseSort): number {
  return sort === 'score' ? sortScore(c.snapshot) : c.createdAt.getTime();
}

export function encodeCursor(c: CaseCursor): string {
  return Buffer.from(JSON.stringify([c.value, c.id])).toString('base64url');
}

/** The cursor `encodeCursor` wrote; undefined for anything else. */
export function decodeCursor(text: string): CaseCursor | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [value, id] = parsed as unknown[];
    if (typeof value !== 'number' || !Number.isFinite(value) || typeof id !== 'string' || id.length > 36)
      return undefined;
    return { value, id };
  } catch {
    return undefined;
  }
}
