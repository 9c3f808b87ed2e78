/**
 * The scores of an evaluation: bot, risk_signals, multiple_accounts, account_score, the
 * decision, and the account's time-decayed risk_signal_average. Pure functions over plain
 * data: time comes in as `now`, nothing is read from a clock, a database or the network.
 *
 * Every score is 0..1, 1 = riskiest, and is a noisy-OR of weighted evidence (constants.ts),
 * so adding evidence never lowers a score and raises it by at most the evidence's weight.
 * docs/scoring.md explains the method with the same numbers.
 */
import { isbot } from 'isbot';
import type { Bot, Decision, EvaluatedRiskSignalScores, SignalAverages } from '../../api-types';
import {
  ACCOUNT_WEIGHTS,
  BOT_WEIGHTS,
  INTERACTION,
  MULTIPLE_ACCOUNTS,
  RISK_SIGNAL_WEIGHTS,
  SIGNAL_AVERAGE_HALF_LIFE_DAYS,
} from './constants';
import { remembered } from '../memo';
import { clamp01, DAY_MS, noisyOr, round3 } from '../numbers';

/** An event count; anything that is not a positive number counts as 0. */
function count(n: number): number {
  return n > 0 ? n : 0;
}

// ---------------------------------------------------------------- bot

export type SessionSource = 'web' | 'ios' | 'android';

export interface BotInputs {
  /** Interaction counts from the SDK. */
  bot: Bot;
  /** The SDK that made the session; undefined when unknown (sessions from before the field). */
  source: SessionSource | undefined;
  /** webdriver / headless / driver globals found by the SDK. */
  automation: boolean;
  /** The user agent is a crawler (see isCrawlerUserAgent). */
  crawler: boolean;
  /** Strength 0..1 of the tampering found (device_risk's tampering conditions: signals' deviceBotEvidence). */
  tampering: number;
  /** The session ended in a form submission (authenticate), so a person had to type or tap. */
  interactive: boolean;
}

/** The user agent names a crawler, spider, monitor, HTTP library or headless browser (isbot). */
export function isCrawlerUserAgent(ua?: string): boolean {
  return ua ? crawler(ua) : false;
}
/** isbot's one large regular expression, once per distinct user agent. */
const crawler = remembered(5_000, isbot);

/** Doubt left after `events` events when every `halving` events halve it: 0.5^(events / halving). */
function doubtAfter(events: number, halving: number): number {
  return Math.pow(0.5, count(events) / halving);
}

/**
 * How little the interaction counts look like a person: 0 = plainly a person, 1 = no sign of
 * one. Pointer events (mouse, touch, click) and typing events (keyboard, clipboard) each leave
 * a doubt that halves every few events; a web session weighs them 0.6 / 0.4. Native apps
 * (ios, android) weigh pointer events alone: the system keyboard's key presses are not visible
 * to an SDK. An unknown source halves the doubt, since its counts may not have been collected.
 */
export function interactionDoubt(bot: Bot, source: SessionSource | undefined): number {
  const pointer = count(bot.mouse_num_events) + count(bot.touch_num_events) + count(bot.click_num_events);
  const typing = count(bot.keyboard_num_events) + count(bot.clipboard_num_events);
  const pointerDoubt = doubtAfter(pointer, INTERACTION.pointer_halving_events);
  const typingDoubt = doubtAfter(typing, INTERACTION.typing_halving_events);
  if (source === 'ios' || source === 'android') return clamp01(pointerDoubt);
  const doubt = INTERACTION.pointer_share * pointerDoubt + INTERACTION.typing_share * typingDoubt;
  return clamp01(source === undefined ? doubt * INTERACTION.unknown_source_factor : doubt);
}

/**
 * bot = 1 - (1 - base)(1 - automation·A)(1 - crawler·C)(1 - tampering·T)(1 - doubt·N), with N the
 * weight for an interactive session (a form was submitted) or a passive one.
 */
export function botScore(i: BotInputs): number {
  return botEvidenceScore({ ...i, doubt: interactionDoubt(i.bot, i.source) });
}

/** What the bot score weighs: the conditions, the tampering and the interaction doubt (an evaluation keeps them, receipt.ts). */
export interface BotEvidence {
  automation: boolean;
  crawler: boolean;
  /** The tampering's strength, 0..1 (BotInputs). */
  tampering: number;
  interactive: boolean;
  /** interactionDoubt of the session's counts, 0..1. */
  doubt: number;
}

/** botScore from its evidence (the formula above). */
export function botEvidenceScore(e: BotEvidence): number {
  const noInteraction = e.interactive ? BOT_WEIGHTS.no_interaction_interactive : BOT_WEIGHTS.no_interaction_passive;
  return noisyOr([
    BOT_WEIGHTS.base,
    e.automation ? BOT_WEIGHTS.automation : 0,
    e.crawler ? BOT_WEIGHTS.crawler : 0,
    BOT_WEIGHTS.tampering * clamp01(e.tampering),
    noInteraction * e.doubt,
  ]);
}

// ---------------------------------------------------------------- risk signals

type ScoredSignal = keyof EvaluatedRiskSignalScores;

/** The signals that carry a score, in the order of RISK_SIGNAL_WEIGHTS. */
export const SCORED_SIGNALS = Object.keys(RISK_SIGNAL_WEIGHTS).filter((k) => k !== 'spoofed_ip') as ScoredSignal[];

/**
 * The session's signal scores taken together (weighted noisy-OR; spoofed_ip has no score,
 * its boolean counts as 1 or 0): 1 - Π (1 - w_s · score_s).
 */
export function riskSignalsScore(scores: EvaluatedRiskSignalScores, spoofedIp: boolean): number {
  const terms = SCORED_SIGNALS.map((s) => RISK_SIGNAL_WEIGHTS[s] * clamp01(scores[s]));
  terms.push(spoofedIp ? RISK_SIGNAL_WEIGHTS.spoofed_ip : 0);
  return noisyOr(terms);
}

// ---------------------------------------------------------------- multiple accounts

/**
 * From the link scores of the account's (or session's) linked accounts:
 * 1 - Π (1 - link_weight · link_score); 0 when the account is on main_account.
 */
export function multipleAccountsScore(linkScores: readonly number[], onMainAccount: boolean): number {
  if (onMainAccount) return 0;
  return noisyOr(linkScores.map((s) => MULTIPLE_ACCOUNTS.link_weight * clamp01(s)));
}

// ---------------------------------------------------------------- account score and decision

export interface AccountScoreParts {
  bot: number;
  risk_signals: number;
  multiple_accounts: number;
  /** -1..1 (negative = trusted), undefined when the account has no email. */
  email_score?: number;
}

/**
 * account_score = [1 - (1 - b·bot)(1 - r·risk_signals)(1 - m·multiple_accounts)(1 - e·risk)]
 *                 · (1 - t·trust)
 * where risk = max(0, email_score) and trust = max(0, -email_score); no email counts as 0.
 */
export function accountScore(parts: AccountScoreParts): number {
  const email =
    parts.email_score === undefined || Number.isNaN(parts.email_score)
      ? 0
      : Math.min(1, Math.max(-1, parts.email_score));
  const risk = noisyOr([
    ACCOUNT_WEIGHTS.bot * clamp01(parts.bot),
    ACCOUNT_WEIGHTS.risk_signals * clamp01(parts.risk_signals),
    ACCOUNT_WEIGHTS.multiple_accounts * clamp01(parts.multiple_accounts),
    ACCOUNT_WEIGHTS.email_risk * Math.max(0, email),
  ]);
  return clamp01(risk * (1 - ACCOUNT_WEIGHTS.email_trust * Math.max(0, -email)));
}

/**
 * Whether an account score reaches a threshold. The score is compared as the answer reports it
 * (rounded to 3 decimals): compared unrounded, a score of 0.9959 reported as 0.996 would be
 * Real at a threshold of 0.996, and the answer would contradict itself.
 */
export function reachesThreshold(accountScore: number, threshold: number): boolean {
  return round3(accountScore) >= threshold;
}

/**
 * What the lists decide, when one does: `block` forces Fake, `allow` Real (the two are mutually
 * exclusive; were both present, block wins).
 */
export function listDecision(lists: readonly string[]): { list: 'block' | 'allow'; decision: Decision } | undefined {
  if (lists.includes('block')) return { list: 'block', decision: 'Fake' };
  if (lists.includes('allow')) return { list: 'allow', decision: 'Real' };
  return undefined;
}

/** The lists' decision (listDecision), otherwise Fake exactly when the account score as reported reaches the threshold. */
export function decide(accountScore: number, threshold: number, lists: readonly string[]): Decision {
  return listDecision(lists)?.decision ?? (reachesThreshold(accountScore, threshold) ? 'Fake' : 'Real');
}

// ---------------------------------------------------------------- risk signal average

export interface ScoredSession {
  time: Date;
  scores: EvaluatedRiskSignalScores;
  spoofedIp: boolean;
}

/** The signals an account's `risk_signal_average` keeps (every one but `ip_reputation`). */
export const AVERAGED_SIGNALS = [
  'device_risk',
  'proxy',
  'vpn',
  'tor',
  'spoofed_ip',
  'datacenter',
  'recent_fraud_ip',
  'impossible_travel',
  'device_network_mismatch',
  'location_spoofing',
] as const satisfies readonly (keyof SignalAverages)[];

function zeroAverages(): SignalAverages {
  return Object.fromEntries(AVERAGED_SIGNALS.map((s) => [s, 0])) as SignalAverages;
}

/**
 * Time-decayed average of each signal's score over an account's sessions: a session `d` days
 * older than `now` weighs 0.5^(d / 7) (half-life SIGNAL_AVERAGE_HALF_LIFE_DAYS), spoofed_ip
 * counts 1 or 0. A session dated after `now` weighs as one at `now`; sessions with an invalid
 * time are left out. No sessions: every average is 0.
 *
 * Being a weighted mean, the result depends only on the sessions' ages relative to each other,
 * so the weights are computed from the newest session's age (exactly the same result, and no
 * underflow to 0/0 for an account whose sessions are all years old).
 */
export function riskSignalAverage(sessions: readonly ScoredSession[], now: Date): SignalAverages {
  const nowMs = now.getTime();
  const dated = sessions.filter((s) => Number.isFinite(s.time.getTime()));
  if (dated.length === 0) return zeroAverages();
  const ages = dated.map((s) => (Number.isFinite(nowMs) ? Math.max(0, nowMs - s.time.getTime()) : 0) / DAY_MS);
  const youngest = ages.reduce((a, b) => Math.min(a, b), Infinity);
  const weights = ages.map((age) => Math.pow(0.5, (age - youngest) / SIGNAL_AVERAGE_HALF_LIFE_DAYS));
  const total = weights.reduce((a, b) => a + b, 0);
  const out = zeroAverages();
  for (const signal of AVERAGED_SIGNALS) {
    let sum = 0;
    dated.forEach((s, i) => {
      const value = signal === 'spoofed_ip' ? (s.spoofedIp ? 1 : 0) : clamp01(s.scores[signal]);
      sum += weights[i]! * value; // weights has one entry per dated session
    });
    out[signal] = clamp01(sum / total);
  }
  return out;
}
