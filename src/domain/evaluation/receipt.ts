/**
 * An evaluation's receipt (`GET /evaluation/{request_id}`, docs/rules.md "A receipt read line
 * by line"), rebuilt at read time. An evaluation keeps no receipt: beside what its session row
 * already keeps of it (decision, the signal scores and spoofed_ip, what the rules did), it keeps
 * one compact value (`storedInputs`, a JSON array of about 60–200 bytes, in the same statement
 * that records the evaluation on the session): what the scores weighed that nothing else keeps.
 * The receipt re-runs the scoring on them (domain/scoring/breakdown.ts), which gives each
 * score's terms and, exactly, the score the evaluation computed.
 */
import type { DecisionSource, EvaluatedRiskSignalScores, EvaluationReceipt, EvaluationRules } from '../../api-types';
import { round3 } from '../numbers';
import {
  accountScoreBreakdown,
  botBreakdown,
  BOT_WEIGHTS,
  breakdown,
  forcedBreakdown,
  multipleAccountsBreakdown,
  riskSignalsBreakdown,
  SCORING_VERSION,
  type BotEvidence,
} from '../scoring';
import { FORCED_BOT } from '../test-mode';
import type { Breakdowns, ScoreInputs } from './facts';

/** The stored value's layout: [format, scoring version, flags, threshold, doubt, email score, account id, lists, link runs]. */
const FORMAT = 1;
const INTERACTIVE = 1;
const AUTOMATION = 2;
const CRAWLER = 4;
const FORCED = { fake: 8, real: 16, signal: 32 } as const;

/**
 * The compact value an evaluation keeps for its receipt: what its scores weighed beyond the
 * signal scores (which the session row keeps), the threshold it was decided at, its account and
 * the lists that weighed. Link scores as runs `[score, count, …]` in their order. No key names.
 */
export function storedInputs(
  scoring: ScoreInputs,
  threshold: number,
  accountId: string | undefined,
  lists: readonly string[],
): string {
  const b = scoring.bot;
  const flags =
    (b.interactive ? INTERACTIVE : 0) |
    (b.automation ? AUTOMATION : 0) |
    (b.crawler ? CRAWLER : 0) |
    (scoring.forced ? FORCED[scoring.forced] : 0);
  const runs: number[] = [];
  for (const s of scoring.linkScores) {
    if (runs.length > 0 && runs[runs.length - 2] === s) runs[runs.length - 1]!++;
    else runs.push(s, 1);
  }
  return JSON.stringify([
    FORMAT,
    SCORING_VERSION,
    flags,
    threshold,
    b.doubt,
    scoring.emailScore ?? null,
    accountId ?? null,
    lists,
    runs,
  ]);
}

/** The stored value read back. */
export interface KeptInputs {
  scoringVersion: string;
  bot: BotEvidence;
  forced?: ScoreInputs['forced'];
  threshold: number;
  emailScore?: number;
  accountId: string | null;
  lists: string[];
  linkScores: number[];
}

export function keptInputs(stored: string): KeptInputs {
  const [, version, flags, threshold, doubt, email, accountId, lists, runs] = JSON.parse(stored) as [
    number,
    string,
    number,
    number,
    number,
    number | null,
    string | null,
    string[],
    number[],
  ];
  const linkScores: number[] = [];
  for (let i = 0; i < runs.length; i += 2) for (let n = 0; n < runs[i + 1]!; n++) linkScores.push(runs[i]!);
  const forced = (Object.keys(FORCED) as (keyof typeof FORCED)[]).find((k) => (flags & FORCED[k]) !== 0);
  return {
    scoringVersion: version,
    bot: {
      interactive: (flags & INTERACTIVE) !== 0,
      automation: (flags & AUTOMATION) !== 0,
      crawler: (flags & CRAWLER) !== 0,
      doubt,
    },
    ...(forced ? { forced } : {}),
    threshold,
    ...(email !== null ? { emailScore: email } : {}),
    accountId,
    lists,
    linkScores,
  };
}

/** An evaluation as its session row keeps it: what a receipt or a backtest is rebuilt from. */
export interface KeptEvaluation {
  requestId: string;
  projectId: string;
  sessionId: string;
  at: Date;
  decision: EvaluationReceipt['decision'];
  riskScores: EvaluatedRiskSignalScores;
  spoofedIp: boolean;
  /** What the rules did (version 0 when the project had none). */
  rules: EvaluationRules;
  inputs: KeptInputs;
}

/**
 * The four scores' breakdowns, by the scoring the evaluation ran (domain/evaluation scoresOf,
 * then in a test project domain/test-mode forcedOutcome): each `value` is the unrounded score.
 */
export function breakdownsOf(e: Pick<KeptEvaluation, 'riskScores' | 'spoofedIp' | 'inputs'>): Breakdowns {
  const { inputs } = e;
  let bot = botBreakdown(inputs.bot);
  if (inputs.forced === 'fake' && bot.value < FORCED_BOT) bot = forcedBreakdown(FORCED_BOT);
  if (inputs.forced === 'real') bot = forcedBreakdown(BOT_WEIGHTS.base);
  const multiple =
    inputs.forced === 'real'
      ? breakdown([])
      : multipleAccountsBreakdown(inputs.linkScores, inputs.lists.includes('main_account'));
  const risk = riskSignalsBreakdown(e.riskScores, e.spoofedIp);
  return {
    bot,
    risk_signals: risk,
    multiple_accounts: multiple,
    account_score: accountScoreBreakdown({
      bot: bot.value,
      risk_signals: risk.value,
      multiple_accounts: multiple.value,
      email_score: inputs.emailScore,
    }),
  };
}

/** The lists whose word decides (docs/scoring.md): block forces Fake, allow Real. */
export function decidingList(lists: readonly string[]): string | undefined {
  return lists.includes('block') ? 'block' : lists.includes('allow') ? 'allow' : undefined;
}

/** What set the decision: a test project's forced scores, a rule, a deciding list, or the threshold. */
export function decidedBy(e: Pick<KeptEvaluation, 'inputs' | 'rules'>): DecisionSource {
  const list = decidingList(e.inputs.lists);
  if (e.inputs.forced) return { source: 'test_mode', list: list ?? null, rule: null };
  if (e.rules.decided_by) return { source: 'rule', list: null, rule: e.rules.decided_by };
  if (list) return { source: 'list', list, rule: null };
  return { source: 'threshold', list: null, rule: null };
}

/** The receipt of a kept evaluation. */
export function receiptOf(e: KeptEvaluation): EvaluationReceipt {
  const b = breakdownsOf(e);
  const { inputs } = e;
  return {
    request_id: e.requestId,
    project_id: e.projectId,
    session_id: e.sessionId,
    account_id: inputs.accountId,
    operation: inputs.bot.interactive ? 'authenticateSession' : 'evaluateUnauthenticatedSession',
    created_at: e.at.toISOString(),
    scoring_version: inputs.scoringVersion,
    decision: e.decision,
    decided_by: decidedBy(e),
    threshold: inputs.threshold,
    scores: {
      account_score: round3(b.account_score.value),
      bot: round3(b.bot.value),
      multiple_accounts: round3(b.multiple_accounts.value),
      risk_signals: round3(b.risk_signals.value),
    },
    breakdown: b,
    rules: e.rules,
    inputs: {
      interactive: inputs.bot.interactive,
      automation: inputs.bot.automation,
      crawler: inputs.bot.crawler,
      interaction_doubt: inputs.bot.doubt,
      email_score: inputs.emailScore ?? null,
      lists: inputs.lists,
      accounts_linked: inputs.linkScores.length,
      test_mode: inputs.forced ?? null,
    },
  };
}
