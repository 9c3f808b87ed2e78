/**
 * Linking: the normalised keys accounts are matched on, and the confidence of a link between
 * two accounts from the identifiers they share. Pure functions; the repositories find the
 * accounts that share a key, this module says how much that is worth. docs/scoring.md
 * ("Linked accounts") explains the method with the same numbers.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { MatchType } from '../../api-types';
import { noisyOr } from '../numbers';

// ---------------------------------------------------------------- keys

/** The E.164 form of a phone number (`+14155550123`), or undefined when it is not a valid number. */
export function phoneKey(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const parsed = parsePhoneNumberFromString(raw.trim());
  return parsed?.isValid() ? parsed.number : undefined;
}

/** Compatibility decomposition, diacritics removed, lower case, whitespace collapsed. */
function foldName(part: string | undefined): string {
  return (part ?? '').normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** `first last`, folded (NFKD, no diacritics, lower case, one space); undefined unless both parts are given. */
export function nameKey(first?: string, last?: string): string | undefined {
  const f = foldName(first);
  const l = foldName(last);
  return f && l ? `${f} ${l}` : undefined;
}

/** The username trimmed and in lower case (locale-independent); undefined when empty. */
export function usernameKey(username?: string): string | undefined {
  const key = (username ?? '').trim().toLowerCase();
  return key || undefined;
}

// ---------------------------------------------------------------- link confidence

/**
 * Confidence of each kind of match when exactly two accounts share the identifier. A `browser`
 * is the same browser instance (the id the SDK keeps in the browser's own storage came back):
 * deterministic. A `device` is the same hardware and rendering fingerprint: same-model machines
 * with the same software look alike, so it is evidence, weaker the more accounts share it.
 */
export const LINK_BASE_WEIGHTS = {
  browser: 1,
  email: 0.9,
  phone: 0.85,
  mobile_id: 0.85,
  apple_device_check: 0.85,
  device: 0.8,
  username: 0.6,
  network: 0.3,
  name: 0.3,
} as const satisfies Record<MatchType, number>;

/**
 * The weight of a match halves for every this many accounts, beyond the two, that share the
 * identifier. A browser match (the stored id) is deterministic and does not decay.
 */
export const LINK_HALVING_ACCOUNTS = {
  email: 20,
  phone: 10,
  mobile_id: 5,
  apple_device_check: 5,
  device: 5,
  username: 20,
  network: 3,
  name: 2,
} as const satisfies Record<Exclude<MatchType, 'browser'>, number>;

/**
 * A shared identifier worth less than this is not evidence: too many accounts share it (a popular
 * device model, a corporate NAT, "John Smith"). It fixes each type's crowd limit (`crowdLimit`),
 * so the search reads no more of an identifier's sharers than can still count.
 */
export const LEAST_EVIDENCE = 0.01;

/**
 * Match types that never make a link on their own, only strengthen one: namesakes and neighbours
 * on an address are common, so two accounts sharing only a name or a network are not evidence of
 * one person. A link needs one shared identifier of another type that is still evidence.
 */
export const CORROBORATING: ReadonlySet<MatchType> = new Set<MatchType>(['name', 'network']);

/** The confidence a link must reach to exist, unless the project sets its own (`link_score_floor`). */
export const DEFAULT_LINK_SCORE_FLOOR = 0.1;

/**
 * The floors a project may set: from LEAST_EVIDENCE (under it the search reads nothing that
 * could count) to 1 (browser matches and certainties only).
 */
export const LINK_SCORE_FLOOR_RANGE = { min: LEAST_EVIDENCE, max: 1 } as const;

export interface LinkEvidence {
  type: MatchType;
  /** Accounts sharing this identifier, including both ends of the link (>= 2). */
  sharedBy: number;
}

/** base · 0.5^((sharedBy - 2) / halving); a browser match does not decay. */
function decayed(type: MatchType, sharedBy: number): number {
  if (type === 'browser') return LINK_BASE_WEIGHTS.browser;
  return LINK_BASE_WEIGHTS[type] * Math.pow(0.5, (sharedBy - 2) / LINK_HALVING_ACCOUNTS[type]);
}

/**
 * The weight of one shared identifier: its decayed base weight, or 0 below LEAST_EVIDENCE
 * (shared by more accounts than the type's crowd limit).
 */
export function evidenceWeight(e: LinkEvidence): number {
  const sharedBy = Number.isNaN(e.sharedBy) ? 2 : Math.max(2, e.sharedBy);
  const weight = decayed(e.type, sharedBy);
  return weight >= LEAST_EVIDENCE ? weight : 0;
}

/**
 * The most accounts (both ends included) that may share an identifier of the type for it to be
 * evidence; unbounded for a browser match. The link search reads no more sharers than this.
 */
export function crowdLimit(type: MatchType): number {
  if (type === 'browser') return Number.POSITIVE_INFINITY;
  let n = 2 + Math.floor(LINK_HALVING_ACCOUNTS[type] * Math.log2(LINK_BASE_WEIGHTS[type] / LEAST_EVIDENCE));
  // The logarithm's rounding may land one off the weight's own test: the test decides.
  while (decayed(type, n + 1) >= LEAST_EVIDENCE) n++;
  while (n > 2 && decayed(type, n) < LEAST_EVIDENCE) n--;
  return n;
}

/**
 * Confidence 0..1 of a link: the noisy-OR of the weights of the identifiers the two accounts
 * share, 1 - Π (1 - weight), when one of them is evidence of a type that is not CORROBORATING;
 * otherwise 0. A browser match alone makes it 1.
 */
export function linkScore(evidence: readonly LinkEvidence[]): number {
  const weights = evidence.map(evidenceWeight);
  const found = evidence.some((e, i) => weights[i]! > 0 && !CORROBORATING.has(e.type));
  return found ? noisyOr(weights) : 0;
}
