/**
 * A stored result in the shape results have now. A result is stored once, as it was produced,
 * and sent again later (verify-face / verify-id, a webhook's retry, the account page), so one
 * stored by an earlier release is brought up to date as it is read, never rewritten: results
 * are sealed at rest, and a migration cannot open them. Pure.
 */
import type { FaceMatchResult, IdCheckResult, RiskFlag } from '../../api-types';
import { completeSessionData } from './result';

/**
 * Flag names of releases up to 0.2.0, renamed to the production service's published names.
 * `id_invalid` became the flag named as the result's `id_validity`, which it was raised with.
 */
const RENAMED: Record<string, (idValidity: string | undefined) => RiskFlag> = {
  device_risk: () => 'high_device_risk',
  id_invalid: (idValidity) => (idValidity === 'likely_fake_id' ? 'likely_fake_id' : 'cannot_confirm_id_is_authentic'),
};

/** A stored result's flags under today's names; `idValidity` is its `document_signals.id_validity`. */
export function currentFlags(flags: readonly string[], idValidity?: string): RiskFlag[] {
  return flags.map((f) => RENAMED[f]?.(idValidity) ?? (f as RiskFlag));
}

export function currentResult<T extends FaceMatchResult | IdCheckResult>(stored: T): T {
  const idValidity = 'document_signals' in stored ? stored.document_signals.id_validity : undefined;
  return {
    ...stored,
    risk_flags: currentFlags(stored.risk_flags, idValidity),
    session_data: completeSessionData(stored.session_data),
  };
}
