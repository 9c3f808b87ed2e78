/**
 * Which email history an account's evaluation reads: the question (its address's key and
 * domain) and whether fraud at the domain counts for it.
 */
import { emailFacts, ORGANISATION_DOMAINS, type EmailFacts } from '../email';
import type { AccountRecord, EmailQuery } from './facts';

/**
 * Whether the email history weighs fraud at the domain: for organisations' domains only (fraud
 * at a free-mail domain says nothing about an address there).
 */
export function weighsDomainFraud(email: EmailFacts): boolean {
  return ORGANISATION_DOMAINS.has(email.domain_type);
}

/** Whose email history the account's address has (none without an address). */
export function emailQueryOf(record: AccountRecord): EmailQuery | undefined {
  if (record.email === undefined) return undefined;
  const email = emailFacts(record.email);
  return {
    domain: email.domain || undefined,
    key: email.normalised || undefined,
    excludeAccount: record.id,
    domainFraud: weighsDomainFraud(email),
  };
}
