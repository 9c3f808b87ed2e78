/**
 * What an evaluation writes, as plain data. The use case builds it from the outcome
 * (`evaluationWrite`), and the evaluation store applies it in one transaction
 * (storage/evaluation-store.ts): nothing here runs or names SQL, and storage calls nothing back.
 */
import type {
  Decision,
  EvaluatedRiskSignalScores,
  EvaluationRuleMatched,
  EvaluationRules,
  ListName,
  SubscribableEventType,
} from '../../api-types';
import { round3 } from '../numbers';
import { stepsToAdd, stepsToRemove, type MembershipStep } from '../lists';
import type { ListAction } from '../rules';
import type { CaseRecord } from '../cases';
import { snapshotOf } from '../cases';
import { listEvent, ruleMatchedEvent, subscribesToListEvents, type QueuedWebhook } from '../webhook-events';
import type { AccountRecord, EvaluationFacts, Scores } from './facts';
import type { EvaluationOutcome } from './outcome';
import { storedInputs } from './receipt';
import { rulesView } from './rules';

/** The session's evaluation as stored with it. */
export interface SessionEvaluation {
  decision: Decision;
  accountScore: number;
  at: Date;
  scores: EvaluatedRiskSignalScores;
  spoofedIp: boolean;
  /** What the project's rules did (absent or version 0: the project had none; stored as NULL). */
  rules?: EvaluationRules;
  /** Written only: the evaluation's request id and its receipt's compact inputs (receipt.ts). */
  receipt?: { requestId: string; inputs: string };
}

/** A list event, queued only if its step changes that membership when it runs (not as an earlier read saw it). */
export interface ListEvent {
  change: 'added' | 'removed';
  list: string;
  webhook: QueuedWebhook;
}

/** One membership step with the events it may cause. */
export interface MembershipWrite {
  step: MembershipStep;
  events: readonly ListEvent[];
}

export interface EvaluationWrite {
  projectId: string;
  sessionId: string;
  at: Date;
  evaluation: SessionEvaluation;
  /**
   * authenticate: the account as evaluated, as it was read (written only if unchanged since:
   * otherwise nothing is, and the evaluation runs again), whether this session links to it, and
   * its list changes in order (the request's lists, then the rules' actions).
   */
  account?: {
    record: AccountRecord;
    existing?: AccountRecord;
    linksSession: boolean;
    memberships: readonly MembershipWrite[];
    /** The case a rule's `open_case` opens, written only if the account is in no active case, and its audit event's id. */
    openCase?: { record: CaseRecord; auditId: string };
  };
  /** Queued with the write whatever it changes (`evaluation.rule_matched`). */
  webhooks: readonly QueuedWebhook[];
}

/** Whether committing the write may queue a webhook (the caller wakes its dispatcher once it has committed). */
export function queuesWebhooks(w: EvaluationWrite): boolean {
  return w.webhooks.length > 0 || (w.account?.memberships ?? []).some((m) => m.events.length > 0);
}

/** The scores as responses give them (and the account keeps them). */
export function roundedScores(s: Scores): Scores {
  return {
    account_score: round3(s.account_score),
    bot: round3(s.bot),
    multiple_accounts: round3(s.multiple_accounts),
    risk_signals: round3(s.risk_signals),
  };
}

/** Which request made an evaluation, for the events it sends. */
export interface Made {
  kind: 'authenticate' | 'unauthenticated';
  requestId: string;
  accountId?: string;
  /** Who asked, as list events name an actor (an API key's name; `cli` when nobody did). */
  actor: string;
}

/** What `evaluationWrite` is computed from. */
export interface WriteInput {
  project: { id: string; webhookUrl: string | null; webhookEvents: readonly SubscribableEventType[] };
  facts: EvaluationFacts;
  outcome: EvaluationOutcome;
  /** The lists the request asked for (authenticate's `account.lists`). */
  listInput: readonly ListName[];
  made: Made;
  at: Date;
  /** A fresh id for each event. */
  newId: () => string;
}

/** The evaluation's write: its stored evaluation and receipt, the account and its lists, the events. */
export function evaluationWrite(input: WriteInput): EvaluationWrite {
  const { project, facts, outcome, made, at, newId } = input;
  const account = outcome.account;
  const matched = ruleMatchedEvent(project, ruleMatchedData(facts, outcome, made), at, newId);
  return {
    projectId: project.id,
    sessionId: facts.session.id,
    at,
    evaluation: sessionEvaluation(facts, outcome, made, at),
    ...(account && {
      account: {
        record: {
          ...account.record,
          scores: roundedScores(outcome.scores),
          lastEvaluation: { requestId: made.requestId, at },
        },
        existing: facts.account?.existing,
        linksSession: account.linksSession,
        memberships: memberships(input, account.record.id),
        ...openCase(input, account.record.id),
      },
    }),
    webhooks: matched ? [matched] : [],
  };
}

function sessionEvaluation(facts: EvaluationFacts, outcome: EvaluationOutcome, made: Made, at: Date) {
  return {
    decision: outcome.decision,
    accountScore: outcome.scores.account_score,
    at,
    scores: outcome.signals.risk_signal_scores,
    spoofedIp: outcome.signals.risk_signals.spoofed_ip,
    rules: rulesView(outcome.rules),
    // What its receipt is rebuilt from: a JSON array of what the scores weighed (receipt.ts).
    receipt: {
      requestId: made.requestId,
      inputs: storedInputs(
        outcome.scoring,
        facts.project.decisionThreshold,
        facts.account?.record.id,
        facts.account ? facts.account.lists : facts.sessionAccountLists,
        {
          ...(outcome.account
            ? { account: { details: outcome.account.details, emailHistory: facts.account?.email, now: facts.now } }
            : {}),
          links: outcome.links,
          details: outcome.signals.risk_signal_details,
        },
      ),
    },
  } satisfies SessionEvaluation;
}

function ruleMatchedData(facts: EvaluationFacts, outcome: EvaluationOutcome, made: Made) {
  const { rules } = outcome;
  return {
    evaluation_request_id: made.requestId,
    kind: made.kind,
    session_id: facts.session.id,
    account_id: made.accountId ?? null,
    decision: outcome.decision,
    decided_by: rules.decidedBy ?? null,
    rules_version: rules.version,
    matched: rules.matched,
    tags: rules.tags,
  } satisfies EvaluationRuleMatched['data'];
}

/**
 * The account's list changes: the request's lists, then the rules' actions, each step with the
 * events of the memberships it may change (when the project is sent them).
 */
function memberships(input: WriteInput, accountId: string): MembershipWrite[] {
  const { project, made, at, newId } = input;
  const actions: readonly ListAction[] = input.outcome.rules.listActions;
  const withEvents = (steps: MembershipStep[], rule?: string): MembershipWrite[] =>
    steps.map((step) => ({
      step,
      events: subscribesToListEvents(project) ? eventsOf(step, rule ? `rule:${rule}` : made.actor) : [],
    }));
  const eventsOf = (step: MembershipStep, actor: string): ListEvent[] => {
    if (step.op === 'create') return [];
    const change = step.op === 'add' ? 'added' : 'removed';
    const lists = step.op === 'add' ? [step.list] : step.lists;
    return lists.flatMap((list) => {
      const webhook = listEvent(project, { change, accountId, listName: list, actor }, at, newId);
      return webhook ? [{ change, list, webhook }] : [];
    });
  };
  return [
    ...withEvents(stepsToAdd(input.listInput)),
    ...actions.flatMap((a) => withEvents(a.action === 'add' ? stepsToAdd([a.list]) : stepsToRemove([a.list]), a.rule)),
  ];
}

/** The case the first matching rule with `open_case` opens, with the evaluation's scores and signals. */
function openCase(input: WriteInput, accountId: string): { openCase?: { record: CaseRecord; auditId: string } } {
  const { outcome, made, at, newId } = input;
  const opening = outcome.rules.openCase;
  if (!opening) return {};
  const snapshot = snapshotOf({
    requestId: made.requestId,
    decision: outcome.decision,
    scores: roundedScores(outcome.scores),
    riskScores: outcome.signals.risk_signal_scores,
    spoofedIp: outcome.signals.risk_signals.spoofed_ip,
  });
  const record: CaseRecord = {
    id: newId(),
    projectId: input.project.id,
    status: 'open',
    outcome: null,
    accountIds: [accountId],
    reason: opening.reason,
    openedBy: `rule:${opening.rule}`,
    ruleId: opening.rule,
    snapshot,
    assignee: null,
    list: null,
    version: 1,
    createdAt: at,
    updatedAt: at,
    closedAt: null,
    closedBy: null,
  };
  return { openCase: { record, auditId: newId() } };
}
