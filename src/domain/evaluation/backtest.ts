/**
 * A backtest (`POST /rules/test`, docs/rules.md "Backtest"): a draft rules document and
 * threshold replayed over stored evaluations. Each evaluation's scores are rebuilt from what its
 * session row keeps (receipt.ts, exactly the unrounded scores it had), and what the rules read
 * of it (the rule subject) from the scores, the lists that weighed, its session's stored facts
 * and signal scores and (rows written since format 2) the kept account details, links' match
 * types and signal details; the account's own address and metadata from its row as it is now.
 * A row written before keeps none of these: a draft naming one (`keptSince2`) over such a row is
 * refused. Pure: the rows, the accounts and the labels come in as arguments.
 */
import type { Decision, DecisionSource, EvaluatedSession, LabelValue, RulesTestResult } from '../../api-types';
import { addToReport, confusionRow, emptyReport, type LabelledEvaluation } from '../labels/report';
import { round3 } from '../numbers';
import type { CompiledRules, RuleSubject } from '../rules';
import { decide } from '../scoring';
import { signalFlags } from '../signals';
import type { AccountRecord, Breakdowns } from './facts';
import { accountEmail } from './evaluate';
import { LINK_CAP } from './links';
import { breakdownsOf, decidedBy, decidingList, type KeptEvaluation, type KeptReplay } from './receipt';
import { decidedWithRules } from './rules';

/** One stored evaluation: as its session row keeps it, with the session's stored facts. */
export interface ReplayableEvaluation {
  kept: KeptEvaluation;
  session: EvaluatedSession;
}

/**
 * The fields an evaluation keeps since format 2 (receipt.ts): the signals' details, the linked
 * accounts' match types, and the account's details but its id (kept since format 1). A row
 * written before cannot replay them (an unauthenticated one has no account: its account fields
 * replay, as absent).
 */
export function keptSince2(field: string): boolean {
  if (field === 'account.account.id') return false;
  return (
    field.startsWith('account.') ||
    field === 'linked_accounts.match_type' ||
    field.startsWith('session.risk_signal_details.')
  );
}

/** Whether the stored evaluation replays the field exactly. */
export function replaysField(e: Pick<KeptEvaluation, 'inputs'>, field: string): boolean {
  if (e.inputs.replay || !keptSince2(field)) return true;
  return field.startsWith('account.') && e.inputs.accountId === null;
}

/** The fields read from the account's row at backtest time (the session row keeps no personal data). */
export function readFromAccountRow(field: string): boolean {
  return (
    field === 'account.account.email' ||
    field.startsWith('account.account.metadata.') ||
    field.startsWith('account.email.')
  );
}

/**
 * The account's details as the rules read them at evaluation time: the kept ones, and its
 * address (with the email intelligence recomputed from it and the kept history) and metadata
 * from its row now (`row`: absent when the draft names neither).
 */
function keptAccountDetails(id: string, r: KeptReplay, row?: AccountRecord): RuleSubject['account'] {
  const a = r.account!;
  const email = row && a.email ? accountEmail(row, a.email.history, a.email.now) : undefined;
  return {
    account: {
      id,
      metadata: row?.metadata ?? {},
      ...(row?.email !== undefined ? { email: row.email } : {}),
      group: a.group,
    },
    num_sessions: a.numSessions,
    countries: a.countries,
    ...(a.country !== undefined ? { country: a.country } : {}),
    unique_devices: a.uniqueDevices,
    unique_networks: a.uniqueNetworks,
    risk_signal_average: a.riskSignalAverage,
    ...(email ? { email } : {}),
  } as RuleSubject['account'];
}

/** What the rules read of a stored evaluation, its decision the scores' and lists' at `threshold`. */
export function keptSubject(
  e: ReplayableEvaluation,
  b: Breakdowns,
  decision: Decision,
  row?: AccountRecord,
): RuleSubject {
  const { kept } = e;
  const r = kept.inputs.replay;
  return {
    decision,
    account_score: round3(b.account_score.value),
    bot: round3(b.bot.value),
    multiple_accounts: round3(b.multiple_accounts.value),
    risk_signals: round3(b.risk_signals.value),
    accounts_linked: Math.min(kept.inputs.linkScores.length, LINK_CAP),
    lists: kept.inputs.lists,
    session: {
      ...e.session,
      risk_signals: signalFlags(kept.riskScores, kept.spoofedIp),
      risk_signal_scores: kept.riskScores,
      risk_signal_details: r?.details ?? { network: [], device: [] },
    },
    ...(kept.inputs.accountId !== null
      ? {
          account: r?.account
            ? keptAccountDetails(kept.inputs.accountId, r, row)
            : ({ account: { id: kept.inputs.accountId } } as unknown as RuleSubject['account']),
        }
      : {}),
    // Only the match types are named by rules: the id and score are not kept.
    linked_accounts: (r?.linkMatchTypes ?? []).map((match_type) => ({ account_id: '', score: 0, match_type })),
  };
}

/** The decision a document and threshold come to on one stored evaluation, what set it, the rules that matched. */
export function replay(
  e: ReplayableEvaluation,
  rules: CompiledRules,
  threshold: number,
  row?: AccountRecord,
): { decision: Decision; decidedBy: DecisionSource; matched: string[]; accountScore: number } {
  const { kept } = e;
  const b = breakdownsOf(kept);
  const lists = kept.inputs.lists;
  const byScores = decide(b.account_score.value, threshold, lists);
  const { ruled, decision } = decidedWithRules(rules, keptSubject(e, b, byScores, row), lists);
  const accountScore = b.account_score.value;
  // A test project's forced outcome: its scores and lists decide, not the rules (domain/test-mode).
  if (kept.inputs.forced)
    return { decision: byScores, decidedBy: decidedBy(kept), matched: ruled.matched, accountScore };
  const list = decidingList(lists);
  const by: DecisionSource = ruled.decidedBy
    ? { source: 'rule', list: null, rule: ruled.decidedBy }
    : list
      ? { source: 'list', list, rule: null }
      : { source: 'threshold', list: null, rule: null };
  return { decision, decidedBy: by, matched: ruled.matched, accountScore };
}

/** The labelled evaluations' confusion counts (domain/labels/report.ts): the decisions' row and each rule's, by name. */
function confusion(evaluations: readonly LabelledEvaluation[]) {
  const acc = addToReport(emptyReport([]), evaluations, []);
  return { decision: confusionRow(acc.decision), rules: acc.rules, fraud: acc.fraud, legit: acc.legit };
}

/**
 * The draft over the evaluations (newest first): how many decisions change and which way,
 * the newest `maxExamples` changes, each rule's matches and decisions, and with labels (by
 * account id) precision and recall of the current decisions, the draft's and each rule's.
 */
export interface ReplayedEvaluation {
  kept: Pick<KeptEvaluation, 'requestId' | 'sessionId' | 'at' | 'decision'> & { accountId: string | null };
  after: ReturnType<typeof replay>;
}

/** One stored evaluation replayed with the draft (at the draft's threshold, or else its own): what a backtest keeps of it. */
export function replayed(
  e: ReplayableEvaluation,
  draft: CompiledRules,
  draftThreshold?: number,
  row?: AccountRecord,
): ReplayedEvaluation {
  const k = e.kept;
  return {
    kept: {
      requestId: k.requestId,
      sessionId: k.sessionId,
      at: k.at,
      decision: k.decision,
      accountId: k.inputs.accountId,
    },
    after: replay(e, draft, draftThreshold ?? k.inputs.threshold, row),
  };
}

/**
 * The draft's replays: how many decisions change and which way, the first `maxExamples`
 * changes, each rule's matches and decisions, and with labels (by account id) precision and
 * recall of the current decisions, the draft's and each rule's.
 */
export function backtest(
  evaluations: readonly ReplayedEvaluation[],
  draft: CompiledRules,
  labelsByAccount?: ReadonlyMap<string, LabelValue>,
  maxExamples = 10,
): Omit<RulesTestResult, 'request_id' | 'truncated' | 'truncated_by'> {
  const perRule = new Map(draft.rules.map((r) => [r.id, { id: r.id, matched: 0, decided: 0 }]));
  const examples: RulesTestResult['examples'] = [];
  const labelled: { before: Decision; after: Decision; matched: string[]; label: LabelValue; score: number }[] = [];
  let toFake = 0;
  let toReal = 0;
  for (const { kept: k, after } of evaluations) {
    for (const id of after.matched) perRule.get(id)!.matched++;
    if (after.decidedBy.rule) perRule.get(after.decidedBy.rule)!.decided++;
    if (after.decision !== k.decision) {
      if (after.decision === 'Fake') toFake++;
      else toReal++;
      if (examples.length < maxExamples)
        examples.push({
          request_id: k.requestId,
          session_id: k.sessionId,
          account_id: k.accountId,
          created_at: k.at.toISOString(),
          before: k.decision,
          after: after.decision,
          decided_by: after.decidedBy,
        });
    }
    const label = k.accountId !== null ? labelsByAccount?.get(k.accountId) : undefined;
    if (label)
      labelled.push({
        before: k.decision,
        after: after.decision,
        matched: after.matched,
        label,
        score: after.accountScore,
      });
  }
  return {
    evaluations: evaluations.length,
    changed: toFake + toReal,
    to_fake: toFake,
    to_real: toReal,
    examples,
    rules: [...perRule.values()],
    labels: labelled.length > 0 ? labelsOf(labelled, draft) : null,
  };
}

/** The current decisions', the draft's and each draft rule's counts against the labels. */
function labelsOf(
  labelled: readonly { before: Decision; after: Decision; matched: string[]; label: LabelValue; score: number }[],
  draft: CompiledRules,
): NonNullable<RulesTestResult['labels']> {
  const current = confusion(labelled.map((l) => ({ label: l.label, accountScore: l.score, decision: l.before })));
  const drafted = confusion(
    labelled.map((l) => ({ label: l.label, accountScore: l.score, decision: l.after, rules: l.matched })),
  );
  return {
    labelled: labelled.length,
    current: current.decision,
    draft: drafted.decision,
    rules: draft.rules.map((rule) => {
      const fired = drafted.rules.get(rule.id) ?? { fraud: 0, legit: 0 };
      return {
        id: rule.id,
        ...confusionRow({
          true_positives: fired.fraud,
          false_positives: fired.legit,
          false_negatives: drafted.fraud - fired.fraud,
          true_negatives: drafted.legit - fired.legit,
        }),
      };
    }),
  };
}
