/**
 * Why verify-face / verify-id have no result to give, and why enroll / verify-identity refuse a
 * session, as the error codes ID Check and Face Match clients already branch on (openapi.yaml's
 * VerificationResultErrorCode, EnrollErrorCode, VerifyIdentityErrorCode). Pure: the session's
 * state, how it ended, which captures it holds and whose it is come in as plain data.
 */
import type {
  EnrollErrorCode,
  VerificationResultErrorCode,
  VerifyIdentityErrorCode,
  WebhookErrorCode,
} from '../../api-types';
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

export interface EnrolmentFacts extends ResultFacts {
  /** The account to enroll the session for. */
  accountId: string;
  /** The account the session is already tied to (created for it, or enrolled before), if any. */
  tiedTo?: string;
  createdAt: Date;
  now: Date;
  /** How long after its creation a session can be enrolled (the sessions' 30 days). */
  maxAgeMs: number;
}

/**
 * Why a session cannot be enrolled for the account; undefined when it can. A session already
 * tied to this very account can always be enrolled again (nothing changes).
 */
export function enrolmentErrorCode(facts: EnrolmentFacts): EnrollErrorCode | undefined {
  const code = resultErrorCode(facts);
  if (code) return code;
  if (facts.tiedTo === facts.accountId) return undefined;
  if (facts.tiedTo !== undefined) return 'session_already_tied_to_an_account';
  if (facts.now.getTime() - facts.createdAt.getTime() > facts.maxAgeMs) return 'session_older_than_30_days';
  return undefined;
}

/**
 * Why verify-identity compares nothing; undefined when it can compare. Only a Face Match
 * session is compared (`requested` is `face-match`), and only with faces the account has.
 */
export function identityErrorCode(facts: ResultFacts & { enrolledFaces: number }): VerifyIdentityErrorCode | undefined {
  return resultErrorCode(facts) ?? (facts.enrolledFaces === 0 ? 'account_not_found' : undefined);
}
