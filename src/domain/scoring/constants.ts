/**
 * Every weight and constant of the scores, in one place. docs/scoring.md prints the same
 * numbers in its tables, and test/domain/scoring.test.ts fails when the two drift apart, so a
 * change here is a change to the documented method: edit both.
 *
 * The combination rule throughout is the noisy-OR: each piece of evidence `i` with weight
 * `w_i` and strength `x_i` (0..1) "explains" risk independently, and
 * `score = 1 - Π (1 - w_i · x_i)`. It stays in 0..1, never goes down when evidence is added,
 * and one piece of evidence raises it by at most `w_i · x_i`.
 */
import type { EvaluatedRiskSignalScores } from '../../api-types';
import { CORROBORATING, LEAST_EVIDENCE, LINK_BASE_WEIGHTS, LINK_HALVING_ACCOUNTS } from '../linking';

/** Bot score: a leaky noisy-OR of the bot evidence. */
export const BOT_WEIGHTS = {
  /** The leak: the bot score of a session with no bot evidence at all. */
  base: 0.02,
  /** The SDK found webdriver, a headless browser or a driver's globals. */
  automation: 0.9,
  /** The user agent is a known crawler, spider or HTTP library (isbot). */
  crawler: 0.8,
  /**
   * The session's reported facts are not its browser's: tampering found in the page, a forged or
   * replayed post, headers that contradict the post (device_risk's tampering conditions). Below
   * automation and crawler: an extension a person installed can trip the same checks.
   */
  tampering: 0.7,
  /** Weight of the interaction doubt when the session ended in a form submission. */
  no_interaction_interactive: 0.85,
  /** Weight of the interaction doubt when no form was submitted (a page view can be idle). */
  no_interaction_passive: 0.15,
} as const;

/** How the interaction counts turn into the interaction doubt (0 = plainly a person, 1 = no sign of one). */
export const INTERACTION = {
  /** Every this many pointer events (mouse, touch, click) halve the pointer doubt. */
  pointer_halving_events: 4,
  /** Every this many typing events (keyboard, clipboard) halve the typing doubt. */
  typing_halving_events: 2,
  /** Share of the pointer doubt in the interaction doubt of a web session. */
  pointer_share: 0.6,
  /** Share of the typing doubt in the interaction doubt of a web session (native apps: 0, pointer 1). */
  typing_share: 0.4,
  /** The interaction doubt is multiplied by this when the session's source is unknown. */
  unknown_source_factor: 0.5,
} as const;

/** Weight of each risk signal in the risk_signals score (spoofed_ip counts as 1 when true). */
export const RISK_SIGNAL_WEIGHTS = {
  device_risk: 0.9,
  tor: 0.8,
  location_spoofing: 0.7,
  recent_fraud_ip: 0.7,
  impossible_travel: 0.6,
  ip_reputation: 0.5,
  proxy: 0.5,
  spoofed_ip: 0.5,
  datacenter: 0.4,
  vpn: 0.3,
  device_network_mismatch: 0.3,
} as const satisfies Record<keyof EvaluatedRiskSignalScores | 'spoofed_ip', number>;

/** Multiple-accounts score: each linked account's link score counts with this weight. */
export const MULTIPLE_ACCOUNTS = {
  link_weight: 0.6,
} as const;

/** account_score: a noisy-OR of the parts, then discounted by a trusted email. */
export const ACCOUNT_WEIGHTS = {
  bot: 1,
  risk_signals: 0.8,
  multiple_accounts: 0.7,
  /** Weight of the positive part of email_score (0..1). */
  email_risk: 0.6,
  /** The account score is multiplied by 1 - email_trust · (trust), trust = the negative part of email_score. */
  email_trust: 0.1,
} as const;

/** Half-life of a session's weight in the account's risk_signal_average. */
export const SIGNAL_AVERAGE_HALF_LIFE_DAYS = 7;

/** FNV-1a (32 bits) of a text, as 8 hex digits. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/**
 * Which constants produced a score: a digest of every constant above and of the link score's,
 * so that any change of a weight is a new version. An evaluation's receipt (`GET /evaluation/{request_id}`) carries it.
 */
export const SCORING_VERSION = `scoring-${fnv1a(
  JSON.stringify({
    BOT_WEIGHTS,
    INTERACTION,
    RISK_SIGNAL_WEIGHTS,
    MULTIPLE_ACCOUNTS,
    ACCOUNT_WEIGHTS,
    SIGNAL_AVERAGE_HALF_LIFE_DAYS,
    // What a link's score is made of (docs/scoring.md, "Linked accounts").
    LINK_BASE_WEIGHTS,
    LINK_HALVING_ACCOUNTS,
    LEAST_EVIDENCE,
    CORROBORATING: [...CORROBORATING],
  }),
)}`;
