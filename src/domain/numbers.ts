/** The arithmetic the domain's rules share, one copy of each. */

/** The time units, from the foundation (the configuration reads them too): the domain's home for them. */
export { DAY_MS, HOUR_MS, MINUTE_MS } from '../clock';

/** `x` held to 0..1; anything that is not a number (NaN, undefined) counts as 0. */
export function clamp01(x: number | undefined): number {
  if (x === undefined || Number.isNaN(x)) return 0;
  return Math.min(1, Math.max(0, x));
}

/**
 * Independent pieces of evidence combined: `1 − Π (1 − termᵢ)`, each term held to 0..1. Never
 * lower than the strongest piece; no terms: 0.
 */
export function noisyOr(terms: readonly number[]): number {
  let none = 1;
  for (const term of terms) none *= 1 - clamp01(term);
  return clamp01(1 - none);
}

/** Scores, similarities and weights are reported to 3 decimals. */
export const round3 = (x: number): number => Math.round(x * 1000) / 1000;
