/**
 * What the operations on a finished session (verify-face, verify-id, enroll, verify-identity)
 * read of it before the domain decides whether it can be used, and the reason in words beside
 * the code clients branch on.
 */
import type { VerificationResultErrorCode } from '../../api-types';
import type { ResultFacts } from '../../domain/verification/availability';
import { VerificationResultUnavailableError } from '../../errors';
import type { Project } from '../../storage/repositories/projects';
import type {
  VerificationRecord,
  VerificationRepository,
  VerificationType,
} from '../../storage/repositories/verifications';

/** The project's session, or `session_not_found` (a session of another project is not found either). */
export async function projectSession(
  verifications: VerificationRepository,
  project: Project,
  sessionId: string,
): Promise<VerificationRecord> {
  const record = await verifications.find(sessionId);
  if (!record || record.projectId !== project.id)
    throw new VerificationResultUnavailableError('session_not_found', 'Session ID not found');
  return record;
}

/** The facts the domain's availability rules take, for an operation that wants a `requested` session. */
export async function resultFacts(
  verifications: VerificationRepository,
  record: VerificationRecord,
  requested: VerificationType,
): Promise<ResultFacts> {
  return {
    requested,
    type: record.type,
    state: record.state,
    outcome: record.outcome,
    hasResult: record.result !== undefined,
    // Only a session without a result is judged by how far the user got.
    captures: record.outcome === 'success' ? [] : (await verifications.latestCaptures(record.id)).map((c) => c.kind),
  };
}

/** A session's unavailability, in words, beside the code clients branch on. */
export function resultErrorMessage(record: VerificationRecord, code: VerificationResultErrorCode): string {
  switch (code) {
    case 'session_not_valid_for_this_endpoint':
      return `session_id names a ${record.type} session; use /liveness/${record.type === 'face-match' ? 'verify-face' : 'verify-id'}`;
    case 'session_not_found':
      return "The verification session's result was erased (with its account, or past the project's verification media retention period)";
    case 'session_not_started':
    case 'id_scan_not_complete':
    case 'session_not_complete':
      return record.state === 'open'
        ? 'The verification session is not completed yet'
        : `The verification session ended without a result (${record.outcome})`;
    default:
      return `The verification session ended without a result (${record.outcome})`;
  }
}
