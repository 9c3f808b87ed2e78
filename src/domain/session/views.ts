/**
 * The session's two forms in the interface, projected from the stored (fullest) form:
 * the top-level form of GET /session/{session_id}, and the embedded `session` member of
 * authenticate and unauthenticated, which alone carries `network.asn`, `network.subnet`
 * and `ip_reputation`.
 */
import type { EvaluatedSession, Session } from '../../api-types';

export interface SessionIds {
  account_ids: string[];
  request_id: string;
  project_id: string;
  session_id: string;
}

export function toTopLevelSession(facts: EvaluatedSession, ids: SessionIds): Session {
  const { network, risk_signals, risk_signal_scores, ...rest } = facts;
  const { asn: _asn, subnet: _subnet, ...sessionNetwork } = network;
  const { ip_reputation: _signal, ...signals } = risk_signals;
  const { ip_reputation: _score, ...scores } = risk_signal_scores;
  return {
    ...ids,
    ...rest,
    network: sessionNetwork,
    risk_signals: signals,
    risk_signal_scores: scores,
  };
}
