/**
 * What one evaluation comes to (`evaluate`, evaluate.ts): its own module, so that rules.ts, which
 * evaluate() calls last, can take the type without importing what calls it.
 */
import type { AccountDetails, Decision, EmailIntelligence } from '../../api-types';
import type { RulesOutcome } from '../rules';
import type { SignalResult } from '../signals';
import type { AccountRecord, ScoreInputs, Scores } from './facts';
import type { Link } from './links';

export interface EvaluationOutcome {
  signals: SignalResult;
  scores: Scores;
  /** What the scores were computed from beyond the signals (kept with the evaluation: receipt.ts). */
  scoring: ScoreInputs;
  decision: Decision;
  /** The lists that weighed in the decision (the account's, or the session's accounts'). */
  lists: string[];
  links: Link[];
  /** authenticate: the account's details, and the record to write (decision and aggregates). */
  account?: { details: AccountDetails; record: AccountRecord; email?: EmailIntelligence; linksSession: boolean };
  /** What the project's rules did (rules.ts): applied last, they may have set `decision` and changed `lists`. */
  rules: RulesOutcome;
}
