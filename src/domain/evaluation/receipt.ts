/**
 * An evaluation's receipt (`GET /evaluation/{request_id}`, docs/rules.md "A receipt read line
 * by line"): what the pure evaluation computed, as it computed it: each score's terms (the very
 * terms the score was combined from, domain/scoring/breakdown.ts), the threshold, what decided,
 * the rules, the constants' version, and the inputs read beyond the stored session. Small: no
 * linked account's id, no personal data beyond the authenticated account's id.
 */
import type { DecisionSource, EvaluationReceipt, ReceiptInputs } from '../../api-types';
import { round3 } from '../numbers';
import { interactionDoubt, SCORING_VERSION } from '../scoring';
import type { EvaluationFacts } from './facts';
import { botEvidence, previousOf, type EvaluationOutcome } from './index';
import { replayableSubject, ruleSubject, rulesView, type ReplayableSubject } from './rules';

/** Where the receipt was made: the request, its project, its time. */
export interface ReceiptContext {
  requestId: string;
  projectId: string;
  at: Date;
}

/** The lists whose word decides (docs/scoring.md): block forces Fake, allow Real. */
export function decidingList(lists: readonly string[]): string | undefined {
  return lists.includes('block') ? 'block' : lists.includes('allow') ? 'allow' : undefined;
}

/** What set the decision: a test project's forced scores (with the list that decided them, if one did), a rule, a deciding list, or the threshold. */
export function decidedBy(facts: EvaluationFacts, outcome: EvaluationOutcome): DecisionSource {
  // A forced outcome is decided by its scores and the lists after the rules' actions (domain/test-mode).
  if (outcome.forced) return { source: 'test_mode', list: decidingList(outcome.lists) ?? null, rule: null };
  const rule = outcome.rules.decidedBy;
  if (rule) return { source: 'rule', list: null, rule };
  const list = decidingList(listsWeighed(facts));
  if (list) return { source: 'list', list, rule: null };
  return { source: 'threshold', list: null, rule: null };
}

/** The lists the scores and the decision read (before the rules' list actions). */
function listsWeighed(facts: EvaluationFacts): string[] {
  return facts.account ? facts.account.lists : facts.sessionAccountLists;
}

/** What the rules read of the evaluation (but its decision), kept beside the receipt for a backtest (backtest.ts). */
export function replayableOf(facts: EvaluationFacts, outcome: EvaluationOutcome): ReplayableSubject {
  return replayableSubject(ruleSubject(facts, { ...outcome, lists: listsWeighed(facts) }));
}

/** What the evaluation read beyond the stored session. */
export function receiptInputs(facts: EvaluationFacts, outcome: EvaluationOutcome): ReceiptInputs {
  const s = facts.session.facts;
  const previous = previousOf(facts);
  const history = facts.account?.email;
  const email = outcome.account?.email;
  const n = facts.network;
  return {
    interactive: facts.interactive,
    ...botEvidence(facts, outcome.signals),
    interaction_doubt: interactionDoubt(s.bot, s.source ?? undefined),
    ip_lists: [...facts.ipLists].sort(),
    previous_ip_lists: [...facts.previousIpLists].sort(),
    network: {
      fraud_on_ip: n.fraudOnIp,
      fraud_on_block: n.fraudOnBlock,
      ip_fake_sessions: n.ipFakeSessions,
      ip_blocked_accounts: n.ipBlockedAccounts,
      ip_distinct_accounts: n.ipDistinctAccounts,
    },
    previous: previous ? { start_time: previous.time.toISOString(), anonymised: previous.anonymised } : null,
    email:
      history && email
        ? {
            accounts_from_domain: history.accountsFromDomain,
            fraud_accounts_with_address: history.fraudAccountsWithAddress,
            fraud_accounts_at_domain: history.fraudAccountsAtDomain,
            email_score: email.email_score,
          }
        : null,
    lists: listsWeighed(facts),
    accounts_linked: outcome.links.length,
  };
}

/** The receipt of an evaluation: from the facts it read and the outcome it returned. */
export function receiptOf(facts: EvaluationFacts, outcome: EvaluationOutcome, at: ReceiptContext): EvaluationReceipt {
  const { breakdown: b } = outcome;
  return {
    request_id: at.requestId,
    project_id: at.projectId,
    session_id: facts.session.id,
    account_id: facts.account?.record.id ?? null,
    operation: facts.interactive ? 'authenticateSession' : 'evaluateUnauthenticatedSession',
    created_at: at.at.toISOString(),
    scoring_version: SCORING_VERSION,
    decision: outcome.decision,
    decided_by: decidedBy(facts, outcome),
    threshold: facts.project.decisionThreshold,
    scores: {
      account_score: round3(b.account_score.value),
      bot: round3(b.bot.value),
      multiple_accounts: round3(b.multiple_accounts.value),
      risk_signals: round3(b.risk_signals.value),
    },
    breakdown: b,
    rules: rulesView(outcome.rules),
    inputs: receiptInputs(facts, outcome),
  };
}
