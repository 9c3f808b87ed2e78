/**
 * Why verify-face / verify-id have no result to give, as the error code ID Check and Face Match
 * clients already branch on (openapi.yaml's VerificationResultErrorCode). Pure: the session's
 * state, how it ended and which captures it holds come in as plain data.
 */
import type { VerificationResultErrorCode, WebhookErrorCode } from '../../api-types';
import type { CaptureKind } from './analysis';

export interface ResultFacts {
  /** The type the caller asked for: verify-face is `face-match`, verify-id `id-check`. */
  requested: 'face-match' | 'id-check';
  type: 'face-match' | 'id-check';
  state: 'open' | 'ended';
  /** How an ended session ended: `success` or its webhook error code. */
  outcome?: string;
  /** Whether the result is still stored (erasing the account erases it). */
  hasResult: boolean;
  /** The kinds of capture the session holds. */
  captures: readonly CaptureKind[];
}

/** The code of a session that was never completed: by how far the user got. */
function incomplete(facts: ResultFacts): VerificationResultErrorCode {
  if (facts.captures.length === 0) return 'session_not_started';
  if (facts.type === 'id-check' && !(facts.captures.includes('id_front') && facts.captures.includes('id_back')))
    return 'id_scan_not_complete';
  return 'session_not_complete';
}

/** A session that ended without a result, by its webhook error code. */
const ENDED = {
  liveness_check_failed: 'liveness_check_failed',
  face_match_failed: 'liveness_check_failed',
  failed_to_collect_device_data: 'liveness_check_failed',
  failed_to_process_id_scan: 'id_scan_failed',
  max_duration_exceeded: undefined,
} as const satisfies Record<WebhookErrorCode, VerificationResultErrorCode | undefined>;

/** The error code when the session has no result to give; undefined when it has one. */
export function resultErrorCode(facts: ResultFacts): VerificationResultErrorCode | undefined {
  if (facts.type !== facts.requested) return 'session_not_valid_for_this_endpoint';
  if (facts.state === 'open') return incomplete(facts);
  if (facts.outcome === 'success') return facts.hasResult ? undefined : 'session_not_found';
  // max_duration_exceeded: the session was never completed; say how far the user got.
  return ENDED[facts.outcome as WebhookErrorCode] ?? incomplete(facts);
}
