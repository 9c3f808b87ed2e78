/**
 * A score as its terms: every score of docs/scoring.md is a noisy-OR of weighted evidence
 * (account_score then discounted by a trusted email), so it is computed here from a list of
 * terms, and an evaluation's receipt gives the same list. The score and its receipt cannot
 * diverge: the score is `combined(terms)`.
 *
 *   value = clamp01( (1 − Π (1 − pᵢ)^countᵢ) · (1 − discount.p) ),  pᵢ = clamp01(weightᵢ · strengthᵢ)
 *
 * the product taken term by term in the list's order (each counted `count` times), so that a
 * reader who multiplies the receipt's terms in that order gets the very same number.
 */
import type { ScoreBreakdown, ScoreTerm } from '../../api-types';
import { clamp01 } from '../numbers';

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

/** A score forced to `value` (test mode): one term that is the value. */
export function forced(value: number): ScoreBreakdown {
  return breakdown([term('test_mode', 1, value)]);
}
