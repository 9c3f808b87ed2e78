/**
 * The Session API's evaluations and the Account API's reads of them, one module per use case,
 * each: gather facts (storage/evaluation-store.ts) → evaluate (pure, domain/evaluation) → commit
 * once → respond. docs/pipeline.md describes the steps and what each costs.
 */
import { withDeps } from '../../with-deps';
import { accountDetails, linked, ringLinks } from './account-reads';
import { authenticate } from './authenticate';
import { evaluationContext, type EvaluationDeps } from './deps';
import { findSession, getSession } from './get-session';
import { receipt } from './receipt';
import { applyInput } from './steps';
import { evaluateUnauthenticated } from './unauthenticated';

export type { EvaluationDeps, EvaluationOptions, IpListLookup } from './deps';
export { EVALUATION_WINDOW_MS } from './steps';

export function makeEvaluation(deps: EvaluationDeps) {
  const bound = withDeps(evaluationContext(deps));
  return {
    /** GET /session/{id}: the top-level form, with signals recomputed (no ip_reputation there). */
    get: bound(getSession),
    /** GET /evaluation/{request_id}: the receipt of one of the project's evaluations. */
    receipt: bound(receipt),
    /** The session in GET /session/{id}'s form, or undefined when the project has no such session. */
    find: bound(findSession),
    authenticate: bound(authenticate),
    evaluateUnauthenticated: bound(evaluateUnauthenticated),
    /** An account's linked accounts (the Account API), found as authenticate finds them. */
    linked: bound(linked),
    /** What an account's ring is assembled from: its links, its linked accounts' links and the accounts (the Account API). */
    ringLinks: bound(ringLinks),
    /** An account's details as authenticate's `account` gives them, and how many accounts are linked to it (the Account API). */
    accountDetails: bound(accountDetails),
    /** The stored account with an Account API input applied, or a 400 naming the rule. */
    applyInput: bound(applyInput),
  };
}

export type EvaluationUseCases = ReturnType<typeof makeEvaluation>;
