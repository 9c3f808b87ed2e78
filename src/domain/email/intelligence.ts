/**
 * The wire `EmailIntelligence`: the address's facts plus what this project's own history says
 * about it, as named signals and one score. Pure: the caller counts and passes `now`.
 *
 * Score = clamp(Σ weights of risk signals − Σ weights of trust signals, −1, 1), rounded to
 * hundredths. Every weight is positive, so a risk fact can only raise the score and a trust
 * fact only lower it (docs/email-intelligence.md).
 */
import type { EmailIntelligence } from '../../api-types';
import type { DomainType, EmailFacts } from './facts';

export interface EmailHistory {
  /** Accounts of the project with an address at the same domain (excluding this account). */
  accountsFromDomain: number;
  /** When the normalised address was first seen on any account of this project, if ever. */
  firstSeen?: Date;
  /** Accounts with this normalised address that were decided Fake or are on the block list. */
  fraudAccountsWithAddress: number;
  /** Accounts at this domain decided Fake or on the block list. */
  fraudAccountsAtDomain: number;
  now: Date;
}

export const RISK_WEIGHTS = {
  invalid_address: 0.6,
  disposable_domain: 0.6,
  address_seen_on_fraud_accounts: 0.6,
  domain_seen_on_fraud_accounts: 0.3,
  email_alias: 0.2,
  new_address: 0.1,
} as const;

export const TRUST_WEIGHTS = {
  email_age_greater_than_1_year: 0.2,
  email_age_greater_than_5_years: 0.2,
  government_domain: 0.3,
  education_domain: 0.2,
  business_domain: 0.1,
} as const;

export type RiskSignal = keyof typeof RISK_WEIGHTS;
export type TrustSignal = keyof typeof TRUST_WEIGHTS;

/**
 * Domains whose addresses one organisation hands out. Fraud elsewhere at such a domain is
 * evidence; at gmail.com it is the base rate of fraud on the internet, and disposable or
 * invalid domains already carry a heavier signal of their own.
 */
export const ORGANISATION_DOMAINS: ReadonlySet<DomainType> = new Set(['business', 'education', 'government']);

const DOMAIN_TRUST: Partial<Record<DomainType, TrustSignal>> = {
  business: 'business_domain',
  education: 'education_domain',
  government: 'government_domain',
};

/** A count from storage: non-negative integer, anything unusable reads as none. */
function count(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** Calendar years, so that leap years do not shift the threshold by a day. */
function olderThanYears(firstSeen: Date, now: Date, years: number): boolean {
  const threshold = new Date(firstSeen.getTime());
  threshold.setUTCFullYear(threshold.getUTCFullYear() + years);
  return now.getTime() > threshold.getTime();
}

function riskSignals(facts: EmailFacts, history: EmailHistory): RiskSignal[] {
  const signals: RiskSignal[] = [];
  if (!facts.valid) signals.push('invalid_address');
  if (facts.disposable) signals.push('disposable_domain');
  if (count(history.fraudAccountsWithAddress) > 0) signals.push('address_seen_on_fraud_accounts');
  if (count(history.fraudAccountsAtDomain) > 0 && ORGANISATION_DOMAINS.has(facts.domain_type))
    signals.push('domain_seen_on_fraud_accounts');
  if (facts.alias) signals.push('email_alias');
  if (history.firstSeen === undefined) signals.push('new_address');
  return signals;
}

function trustSignals(facts: EmailFacts, history: EmailHistory): TrustSignal[] {
  const signals: TrustSignal[] = [];
  // Age is only what this service has seen: a first sighting here, not the mailbox's creation.
  if (history.firstSeen && olderThanYears(history.firstSeen, history.now, 1))
    signals.push('email_age_greater_than_1_year');
  if (history.firstSeen && olderThanYears(history.firstSeen, history.now, 5))
    signals.push('email_age_greater_than_5_years');
  const domainTrust = DOMAIN_TRUST[facts.domain_type];
  if (domainTrust) signals.push(domainTrust);
  return signals;
}

export function emailScore(risk: readonly RiskSignal[], trust: readonly TrustSignal[]): number {
  const raw = risk.reduce((sum, s) => sum + RISK_WEIGHTS[s], 0) - trust.reduce((sum, s) => sum + TRUST_WEIGHTS[s], 0);
  // Rounding first hides float noise (0.1 + 0.2); rounding and clamping both keep the order.
  const rounded = Math.round(raw * 100) / 100;
  return Math.min(1, Math.max(-1, rounded)) + 0; // + 0 turns -0 into 0
}

export function emailIntelligence(facts: EmailFacts, history: EmailHistory): EmailIntelligence {
  const risk = riskSignals(facts, history);
  const trust = trustSignals(facts, history);
  return {
    email: facts.normalised,
    disposable: facts.disposable,
    personal: facts.personal,
    valid: facts.valid,
    domain_type: facts.domain_type,
    email_score: emailScore(risk, trust),
    trust_signals: trust,
    risk_signals: risk,
    num_account_from_domain: count(history.accountsFromDomain),
  };
}
