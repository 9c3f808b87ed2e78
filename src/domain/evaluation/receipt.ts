/**
 * An evaluation's receipt (`GET /evaluation/{request_id}`, docs/rules.md "A receipt read line
 * by line"), rebuilt at read time. An evaluation keeps no receipt: beside what its session row
 * already keeps of it (decision, the signal scores and spoofed_ip, what the rules did), it keeps
 * one compact value (`storedInputs`, a JSON array of about 120–250 bytes, in the same statement
 * that records the evaluation on the session): what the scores weighed that nothing else keeps,
 * and what the rules read that nothing else keeps (for a backtest: backtest.ts). The receipt
 * re-runs the scoring on them (domain/scoring/breakdown.ts), which gives each score's terms and,
 * exactly, the score the evaluation computed.
 */
import type {
  AccountDetails,
  DecisionSource,
  EvaluatedRiskSignalScores,
  EvaluationReceipt,
  EvaluationRules,
  MatchType,
  RiskSignalDetails,
  SignalAverages,
} from '../../api-types';
import { round3 } from '../numbers';
import {
  accountScoreBreakdown,
  AVERAGED_SIGNALS,
  botBreakdown,
  BOT_WEIGHTS,
  breakdown,
  forcedBreakdown,
  listDecision,
  multipleAccountsBreakdown,
  riskSignalsBreakdown,
  SCORING_VERSION,
  type BotEvidence,
} from '../scoring';
import { conditionCode, conditionName } from '../signals';
import { forcedBot } from '../test-mode';
import type { Breakdowns, EmailHistoryFacts, ScoreInputs } from './facts';

/**
 * The stored value's layout: [format, scoring version, flags, threshold, doubt, email score,
 * account id, lists, link runs] and, since format 2, what the rules read that nothing else
 * keeps (a backtest replays it: backtest.ts): [account, link match types, signal details];
 * since format 3, the bot score's tampering strength. Format 1 rows (written before) have the
 * first nine only, format 2 rows the first twelve.
 */
const FORMAT = 3;
const INTERACTIVE = 1;
const AUTOMATION = 2;
const CRAWLER = 4;
const FORCED = { fake: 8, real: 16, signal: 32 } as const;

/** The match types, each a bit of a link's kept set (append-only: the bit is the index). */
export const MATCH_TYPES = [
  'browser',
  'device',
  'network',
  'email',
  'phone',
  'username',
  'name',
  'mobile_id',
  'apple_device_check',
] as const satisfies readonly MatchType[];

/**
 * What the rules read of an evaluation that its receipt does not need, as evaluate() has it:
 * (authenticate) the account's details and the inputs of its email intelligence (the history's
 * counts and dates and the evaluation's time: the address is read from the account row),
 * each link's match types, the signals' details.
 */
export interface ReplayFacts {
  account?: { details: AccountDetails; emailHistory?: EmailHistoryFacts; now: Date };
  links: readonly { matchTypes: readonly MatchType[] }[];
  details: RiskSignalDetails;
}

/** The account's details as kept: [sessions, country, countries, devices 1/7 d, networks 1/7 d, averages, group, email inputs]. */
type KeptAccountValue = [
  number,
  string | null,
  string[],
  number,
  number,
  number,
  number,
  number[],
  string,
  [number, number | null, number, number, number] | null,
];

function accountValue(a: NonNullable<ReplayFacts['account']>): KeptAccountValue {
  const d = a.details;
  const h = d.email ? a.emailHistory : undefined;
  return [
    d.num_sessions,
    d.country ?? null,
    d.countries,
    d.unique_devices['1_day'],
    d.unique_devices['7_day'],
    d.unique_networks['1_day'],
    d.unique_networks['7_day'],
    AVERAGED_SIGNALS.map((s) => d.risk_signal_average[s]),
    d.account.group,
    h
      ? [
          h.accountsFromDomain,
          h.addressFirstSeen?.getTime() ?? null,
          h.fraudAccountsWithAddress,
          h.fraudAccountsAtDomain,
          a.now.getTime(),
        ]
      : null,
  ];
}

function matchBits(types: readonly MatchType[]): number {
  let bits = 0;
  for (const t of types) bits |= 1 << MATCH_TYPES.indexOf(t as (typeof MATCH_TYPES)[number]);
  return bits;
}

/**
 * The compact value an evaluation keeps for its receipt and its replay: what its scores weighed
 * beyond the signal scores (which the session row keeps), the threshold it was decided at, its
 * account and the lists that weighed; link scores as runs `[score, count, …]` in their order;
 * then what the rules read beyond them (ReplayFacts: match types as bit sets, conditions by
 * id). No key names.
 */
export function storedInputs(
  scoring: ScoreInputs,
  threshold: number,
  accountId: string | undefined,
  lists: readonly string[],
  replay: ReplayFacts,
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
    replay.account ? accountValue(replay.account) : null,
    replay.links.map((l) => matchBits(l.matchTypes)),
    [replay.details.network.map(conditionCode), replay.details.device.map(conditionCode)],
    b.tampering,
  ]);
}

/** The account's details as a backtest rebuilds them (domain/evaluation/backtest.ts): all but its own fields. */
export interface KeptAccount {
  numSessions: number;
  country?: string;
  countries: string[];
  uniqueDevices: AccountDetails['unique_devices'];
  uniqueNetworks: AccountDetails['unique_networks'];
  riskSignalAverage: SignalAverages;
  group: string;
  /** The email intelligence's inputs but the address (read from the account row). */
  email?: { history: EmailHistoryFacts; now: Date };
}

/** What format 2 keeps for a backtest. */
export interface KeptReplay {
  account: KeptAccount | null;
  linkMatchTypes: MatchType[][];
  details: RiskSignalDetails;
}

function keptAccount(v: KeptAccountValue): KeptAccount {
  const [sessions, country, countries, d1, d7, n1, n7, averages, group, email] = v;
  return {
    numSessions: sessions,
    ...(country !== null ? { country } : {}),
    countries,
    uniqueDevices: { '1_day': d1, '7_day': d7 },
    uniqueNetworks: { '1_day': n1, '7_day': n7 },
    riskSignalAverage: Object.fromEntries(AVERAGED_SIGNALS.map((s, i) => [s, averages[i]!])) as SignalAverages,
    group,
    ...(email
      ? {
          email: {
            history: {
              accountsFromDomain: email[0],
              ...(email[1] !== null ? { addressFirstSeen: new Date(email[1]) } : {}),
              fraudAccountsWithAddress: email[2],
              fraudAccountsAtDomain: email[3],
            },
            now: new Date(email[4]),
          },
        }
      : {}),
  };
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
  /** What the rules read beyond the scores (format 2 on; absent on rows written before). */
  replay?: KeptReplay;
}

export function keptInputs(stored: string): KeptInputs {
  const [format, version, flags, threshold, doubt, email, accountId, lists, runs, account, links, details, tampering] =
    JSON.parse(stored) as [
      number,
      string,
      number,
      number,
      number,
      number | null,
      string | null,
      string[],
      number[],
      KeptAccountValue | null,
      number[],
      [(number | string)[], (number | string)[]],
      number | undefined,
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
      // Rows before format 3 keep none: they were scored without the term, so 0 gives the score they answered.
      tampering: tampering ?? 0,
      doubt,
    },
    ...(forced ? { forced } : {}),
    threshold,
    ...(email !== null ? { emailScore: email } : {}),
    accountId,
    lists,
    linkScores,
    ...(format >= 2
      ? {
          replay: {
            account: account ? keptAccount(account) : null,
            linkMatchTypes: links.map((bits) => MATCH_TYPES.filter((_, i) => (bits & (1 << i)) !== 0)),
            details: { network: details[0].map(conditionName), device: details[1].map(conditionName) },
          },
        }
      : {}),
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
  // A forced outcome sets the observed bot evidence and links aside (domain/test-mode).
  const bot = inputs.forced ? forcedBreakdown(forcedBot(inputs.forced)) : botBreakdown(inputs.bot);
  const multiple = inputs.forced
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

/** The list whose word decides (scoring's listDecision): block, else allow. */
export function decidingList(lists: readonly string[]): 'block' | 'allow' | undefined {
  return listDecision(lists)?.list;
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
