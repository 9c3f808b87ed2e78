/**
 * Email intelligence: facts about an address (emailFacts) and, with the project's history,
 * the wire EmailIntelligence (emailIntelligence). Rules and score: docs/email-intelligence.md.
 */
export { emailFacts, type DomainType, type EmailFacts } from './facts';
export {
  emailIntelligence,
  emailScore,
  ORGANISATION_DOMAINS,
  RISK_WEIGHTS,
  TRUST_WEIGHTS,
  type EmailHistory,
  type RiskSignal,
  type TrustSignal,
} from './intelligence';
export { NOT_MAIL_PROVIDERS, RELAY_DOMAINS } from './lists';
export { RESERVED_DOMAINS } from './suffix';
