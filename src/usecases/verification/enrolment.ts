/**
 * Enrolment and one-to-one verification of finished sessions: `POST /liveness/enroll` ties a
 * session that ended with a result to an account (its face and document become the account's,
 * matched by later verifications), `POST /liveness/verify-identity` compares a Face Match
 * session's face with the account's enrolled faces. Each reads the facts once, lets the domain
 * decide, and writes (enroll only) once.
 */
import type { EnrollRequest, Enrolled, IdentityVerified, VerifyIdentityRequest } from '../../api-types';
import type { Clock } from '../../clock';
import { enrolmentErrorCode, identityErrorCode } from '../../domain/verification/availability';
import { matchesAny } from '../../domain/verification/faces';
import { VERIFICATION_LIFETIME_MS } from '../../domain/verification/lifecycle';
import { LivenessCallError } from '../../errors';
import type { Db } from '../../storage/db';
import type { Project } from '../../storage/repositories/projects';
import type { VerificationIndex } from '../../storage/repositories/verification-index';
import type { VerificationRecord, VerificationRepository } from '../../storage/repositories/verifications';
import { projectSession, resultErrorMessage, resultFacts } from './facts';

export interface EnrolmentDeps {
  db: Db;
  clock: Clock;
  verifications: VerificationRepository;
  index: VerificationIndex;
}

const TIED_ELSEWHERE = 'The verification session is tied to another account';

/** The message of an enroll / verify-identity refusal. */
function refusal(record: VerificationRecord, code: string): string {
  switch (code) {
    case 'session_already_tied_to_an_account':
      return TIED_ELSEWHERE;
    case 'session_older_than_30_days':
      return 'The verification session was created more than 30 days ago; it can no longer be enrolled';
    case 'account_not_found':
      return 'The account has no enrolled face to compare with';
    case 'session_not_valid_for_this_endpoint':
      return `session_id names a ${record.type} session; verify-identity compares Face Match sessions`;
    default:
      return resultErrorMessage(record, code as Parameters<typeof resultErrorMessage>[1]);
  }
}

export async function enroll(
  deps: EnrolmentDeps,
  project: Project,
  body: EnrollRequest,
  context: { requestId: string },
): Promise<Enrolled> {
  const { db, clock, verifications, index } = deps;
  const record = await projectSession(verifications, project, body.session_id);
  const code = enrolmentErrorCode({
    ...(await resultFacts(verifications, record, record.type)),
    accountId: body.account_id,
    tiedTo: record.accountId,
    createdAt: record.createdAt,
    now: clock.now(),
    maxAgeMs: VERIFICATION_LIFETIME_MS,
  });
  if (code) throw new LivenessCallError(code, refusal(record, code));
  const tied = await db.transaction(async (trx) => {
    if (!(await verifications.tieToAccount(record.id, body.account_id, trx))) return false;
    await index.tieToAccount(record.id, body.account_id, trx);
    return true;
  });
  // Another enroll of the session for another account committed between the read and the write.
  if (!tied) throw new LivenessCallError('session_already_tied_to_an_account', TIED_ELSEWHERE);
  return { request_id: context.requestId, success: true };
}

export async function verifyIdentity(
  deps: EnrolmentDeps,
  project: Project,
  body: VerifyIdentityRequest,
  context: { requestId: string },
): Promise<IdentityVerified> {
  const { verifications, index } = deps;
  const record = await projectSession(verifications, project, body.session_id);
  // A session that ended with a result enrolled its face then; only those have one.
  const face = await index.faceOf(record.id);
  const facts = await resultFacts(verifications, record, 'face-match');
  const enrolled = face ? await index.accountFaces(project.id, body.account_id, record.id) : [];
  const code = identityErrorCode({
    ...facts,
    hasResult: facts.hasResult && face !== undefined,
    enrolledFaces: enrolled.length,
  });
  if (code || !face)
    throw new LivenessCallError(code ?? 'session_not_found', refusal(record, code ?? 'session_not_found'));
  return { request_id: context.requestId, success: true, match: matchesAny(face, enrolled) };
}
