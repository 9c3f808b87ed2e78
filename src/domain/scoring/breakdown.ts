/**
 * A score as its terms, for an evaluation's receipt (`GET /evaluation/{request_id}`): every
 * score of docs/scoring.md is a noisy-OR of weighted evidence (account_score then discounted by
 * a trusted email). The hot path computes the scores as numbers (scores.ts); a receipt rebuilds
 * them here from what the evaluation kept, as terms:
 *
 *   value = clamp01( (1 − Π (1 − pᵢ)^countᵢ) · (1 − discount.p) ),  pᵢ = clamp01(weightᵢ · strengthᵢ)
 *
 * the product taken term by term in the order scores.ts multiplies them (each counted `count`
 * times), so that `value` is the very number the evaluation computed, and a reader who
 * multiplies the receipt's terms in that order gets it too. test/domain/scoring.test.ts holds
 * each breakdown to its score function over many inputs.
 */
import type { EvaluatedRiskSignalScores, ScoreBreakdown, ScoreTerm } from '../../api-types';
import { clamp01 } from '../numbers';
import { ACCOUNT_WEIGHTS, BOT_WEIGHTS, MULTIPLE_ACCOUNTS, RISK_SIGNAL_WEIGHTS } from './constants';
import type { AccountScoreParts, BotEvidence } from './scores';

export type { ScoreBreakdown, ScoreTerm };

/** A term: `weight · strength`, counted `count` times (default once). */
export function term(name: string, weight: number, strength: number, count = 1): ScoreTerm {
  const p = clamp01(weight * strength);
  return { name, weight, strength, p, raised: p > 0, count };
}

/** The score of the terms (and discount): the formula above. */
export function combine(terms: readonly ScoreTerm[], discount?: ScoreTerm): number {
  let none = 1;
  for (const t of terms) for (let i = 0; i < t.count; i++) none *= 1 - t.p;
  const risk = clamp01(1 - none);
  return discount ? clamp01(risk * (1 - discount.p)) : risk;
}

/** The breakdown of the terms: the terms, the discount, and the score they make. */
export function breakdown(terms: ScoreTerm[], discount?: ScoreTerm): ScoreBreakdown {
  return { value: combine(terms, discount), terms, discount: discount ?? null };
}

/** A score a test project's account id forced to `value` (domain/test-mode): one term, the value as it was set. */
export function forcedBreakdown(value: number): ScoreBreakdown {
  return { value, terms: [term('test_mode', 1, value)], discount: null };
}

/** botEvidenceScore's terms. */
export function botBreakdown(e: BotEvidence): ScoreBreakdown {
  const noInteraction = e.interactive ? BOT_WEIGHTS.no_interaction_interactive : BOT_WEIGHTS.no_interaction_passive;
  return breakdown([
    term('base', BOT_WEIGHTS.base, 1),
    term('automation', BOT_WEIGHTS.automation, e.automation ? 1 : 0),
    term('crawler', BOT_WEIGHTS.crawler, e.crawler ? 1 : 0),
    term('tampering', BOT_WEIGHTS.tampering, clamp01(e.tampering)),
    term('no_interaction', noInteraction, e.doubt),
  ]);
}

/** riskSignalsScore's terms: each scored signal in the order of RISK_SIGNAL_WEIGHTS, then spoofed_ip. */
export function riskSignalsBreakdown(scores: EvaluatedRiskSignalScores, spoofedIp: boolean): ScoreBreakdown {
  const scored = Object.keys(RISK_SIGNAL_WEIGHTS).filter(
    (k) => k !== 'spoofed_ip',
  ) as (keyof EvaluatedRiskSignalScores)[];
  return breakdown([
    ...scored.map((s) => term(s, RISK_SIGNAL_WEIGHTS[s], clamp01(scores[s]))),
    term('spoofed_ip', RISK_SIGNAL_WEIGHTS.spoofed_ip, spoofedIp ? 1 : 0),
  ]);
}

/**
 * multipleAccountsScore's terms: one per linked account in the links' order, a run of equal
 * scores as one term counted as many times (the product's order is kept, so is its value).
 */
export function multipleAccountsBreakdown(linkScores: readonly number[], onMainAccount: boolean): ScoreBreakdown {
  if (onMainAccount) return breakdown([]);
  const terms: ScoreTerm[] = [];
  for (const s of linkScores) {
    const last = terms.at(-1);
    if (last && last.strength === clamp01(s)) last.count++;
    else terms.push(term('linked_account', MULTIPLE_ACCOUNTS.link_weight, clamp01(s)));
  }
  return breakdown(terms);
}

/** accountScore's terms: the three scores unrounded and the email's risk, discounted by its trust. */
export function accountScoreBreakdown(parts: AccountScoreParts): ScoreBreakdown {
  const email =
    parts.email_score === undefined || Number.isNaN(parts.email_score)
      ? 0
      : Math.min(1, Math.max(-1, parts.email_score));
  return breakdown(
    [
      term('bot', ACCOUNT_WEIGHTS.bot, clamp01(parts.bot)),
      term('risk_signals', ACCOUNT_WEIGHTS.risk_signals, clamp01(parts.risk_signals)),
      term('multiple_accounts', ACCOUNT_WEIGHTS.multiple_accounts, clamp01(parts.multiple_accounts)),
      term('email_risk', ACCOUNT_WEIGHTS.email_risk, Math.max(0, email)),
    ],
    term('email_trust', ACCOUNT_WEIGHTS.email_trust, Math.max(0, -email)),
  );
}
