/**
 * The verification's verdict: its risk flags, the risk score that combines them, the decision
 * and the rules that made it. Pure: the findings, the project's matches and the capture
 * device's signals come in as plain data. docs/analysis.md explains the weights.
 */
import type { Decision, RiskFlag, Rule } from '../../api-types';
import { noisyOr, round3 } from '../numbers';
import { byCodeUnits } from '../order';
import { FACE_THRESHOLDS } from './faces';

/** How much each flag alone adds to the risk score; flags combine by noisy-OR. */
export const FLAG_WEIGHTS: Record<RiskFlag, number> = {
  liveness_failed: 0.9,
  low_id_face_match_score: 0.85,
  // The two document flags weigh what the one flag they replace weighed (renamed after 0.2.0, to the published names).
  likely_fake_id: 0.8,
  cannot_confirm_id_is_authentic: 0.8,
  repeat_face: 0.7,
  repeat_id: 0.7,
  id_expired: 0.6,
  id_age_below_16: 0.5,
  moderate_id_face_match_score: 0.4,
  high_device_risk: 0.4,
  ip_document_country_mismatch: 0.3,
  repeat_device: 0.3,
};

export interface VerdictInput {
  /** Flags from the face and the document. */
  flags: RiskFlag[];
  /** The selfie's liveness, 0..1. */
  liveness: number;
  /** Other accounts sharing the face, the document or the capture device. */
  repeat: { face: boolean; document: boolean; device: boolean };
  deviceRisk: boolean;
  ipDocumentCountryMismatch: boolean;
  /** The account's standard lists. */
  lists: string[];
  /** The project's decision threshold (risk at or above it is Fake). */
  threshold: number;
}

export interface Verdict {
  risk_flags: RiskFlag[];
  risk_score: number;
  decision: Decision;
  rules: Rule[];
}

export function verdict(input: VerdictInput): Verdict {
  const flags = new Set<RiskFlag>(input.flags);
  if (input.liveness < FACE_THRESHOLDS.liveness) flags.add('liveness_failed');
  if (input.repeat.face) flags.add('repeat_face');
  if (input.repeat.document) flags.add('repeat_id');
  if (input.repeat.device) flags.add('repeat_device');
  if (input.deviceRisk) flags.add('high_device_risk');
  if (input.ipDocumentCountryMismatch) flags.add('ip_document_country_mismatch');
  const risk_flags = [...flags].sort((a, b) => FLAG_WEIGHTS[b] - FLAG_WEIGHTS[a] || byCodeUnits(a, b));
  const risk_score = round3(noisyOr(risk_flags.map((f) => FLAG_WEIGHTS[f])));

  // The account's lists decide first, as they do for sessions; then the threshold.
  if (input.lists.includes('block')) {
    return {
      risk_flags,
      risk_score,
      decision: 'Fake',
      rules: [{ name: 'block_list', description: 'The account is on the block list.' }],
    };
  }
  if (input.lists.includes('allow')) {
    return {
      risk_flags,
      risk_score,
      decision: 'Real',
      rules: [{ name: 'allow_list', description: 'The account is on the allow list.' }],
    };
  }
  if (risk_score >= input.threshold) {
    return {
      risk_flags,
      risk_score,
      decision: 'Fake',
      rules: [
        {
          name: 'risk_threshold',
          description: `risk_score ${risk_score} is at or above the project's decision threshold ${input.threshold}.`,
        },
      ],
    };
  }
  return { risk_flags, risk_score, decision: 'Real', rules: [] };
}
