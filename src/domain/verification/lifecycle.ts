/**
 * A verification session's life: the captures it needs, its 30 days, the attempts it allows,
 * what an analysis outcome does to it and the errors it ends with. Pure.
 */
import type { WebhookErrorCode } from '../../api-types';
import { DAY_MS } from '../numbers';
import type { AnalysisOutcome, CaptureKind, DocumentFindings, FaceFindings } from './analysis';

type SessionType = 'face-match' | 'id-check';

/** Failed analysis attempts after which a session ends with face_match_failed. */
export const MAX_ATTEMPTS = 3;

/** The captures each type of session needs (the hosted page shows one step for each). */
export const REQUIRED_CAPTURES: Record<SessionType, CaptureKind[]> = {
  'face-match': ['selfie'],
  'id-check': ['selfie', 'id_front', 'id_back'],
};

/** Sessions can be completed for 30 days (the interface's limit). */
export const VERIFICATION_LIFETIME_MS = 30 * DAY_MS;

/** How a session ends without a result: its webhook's error. */
export interface Ending {
  code: WebhookErrorCode;
  message: string;
}

export const ENDINGS = {
  /** The sweeper's, and a session's used after its time. */
  expired: { code: 'max_duration_exceeded', message: 'The session was not completed within 30 days of its creation.' },
  /** The hosted page's Cancel (the interface's code for a user's cancel). */
  cancelled: { code: 'liveness_check_failed', message: 'The user cancelled the verification.' },
  attemptsUsed: {
    code: 'face_match_failed',
    message: `The face check did not succeed in ${MAX_ATTEMPTS} attempts.`,
  },
  noDeviceData: {
    code: 'failed_to_collect_device_data',
    message: "The web SDK's device and network data did not reach the service from the hosted page.",
  },
} as const satisfies Record<string, Ending>;

/** The captures a session of `type` still lacks. */
export function missingCaptures(type: SessionType, held: readonly CaptureKind[]): CaptureKind[] {
  return REQUIRED_CAPTURES[type].filter((k) => !held.includes(k));
}

/** What an analysis outcome does to the session. */
export type AnalysisStep =
  | { step: 'attempt'; reason: string }
  | { step: 'end'; ending: Ending }
  | { step: 'result'; selfie: FaceFindings; document?: DocumentFindings };

/**
 * A result ends the session with success; a failed attempt, or a Face Match whose selfie
 * cannot be processed, is counted; an unreadable document ends an ID Check with
 * failed_to_process_id_scan.
 */
export function analysisStep(type: SessionType, outcome: AnalysisOutcome): AnalysisStep {
  if (outcome.outcome === 'analysed') return { step: 'result', selfie: outcome.selfie, document: outcome.document };
  if (outcome.outcome === 'failed_attempt' || type === 'face-match') return { step: 'attempt', reason: outcome.reason };
  return { step: 'end', ending: { code: 'failed_to_process_id_scan', message: outcome.reason } };
}

/** The customer's redirect URL with the outcome, as the hosted page sends the user there. */
export function redirectTo(
  session: { id: string; redirectUrl?: string },
  success: boolean,
  errorMessage?: string,
): string | null {
  if (!session.redirectUrl) return null;
  const url = new URL(session.redirectUrl);
  url.searchParams.set('session_id', session.id);
  url.searchParams.set('success', String(success));
  if (errorMessage) url.searchParams.set('error_message', errorMessage);
  return url.toString();
}
