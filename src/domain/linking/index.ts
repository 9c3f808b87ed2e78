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

/** Above this many accounts on one IP address or subnet in the window, network matches are not counted. */
export const NETWORK_CROWD_LIMIT = 20;

export interface LinkEvidence {
  type: MatchType;
  /** Accounts sharing this identifier, including both ends of the link (>= 2). */
  sharedBy: number;
}

/**
 * The weight of one shared identifier: base · 0.5^((sharedBy - 2) / halving); a browser match
 * is 1; a network shared by more than NETWORK_CROWD_LIMIT accounts is 0.
 */
export function evidenceWeight(e: LinkEvidence): number {
  if (e.type === 'browser') return LINK_BASE_WEIGHTS.browser;
  const sharedBy = Number.isNaN(e.sharedBy) ? 2 : Math.max(2, e.sharedBy);
  if (e.type === 'network' && sharedBy > NETWORK_CROWD_LIMIT) return 0;
  return LINK_BASE_WEIGHTS[e.type] * Math.pow(0.5, (sharedBy - 2) / LINK_HALVING_ACCOUNTS[e.type]);
}

/**
 * Confidence 0..1 of a link: the noisy-OR of the weights of the identifiers the two accounts
 * share, 1 - Π (1 - weight). A browser match alone makes it 1. No evidence: 0.
 */
export function linkScore(evidence: readonly LinkEvidence[]): number {
  return noisyOr(evidence.map(evidenceWeight));
}
