/** verify-face / verify-id: the result of a session that ended with one, its media URLs signed from now. */
import type { FaceMatchResult, IdCheckResult } from '../../api-types';
import { resultErrorCode } from '../../domain/verification/availability';
import { VerificationResultUnavailableError } from '../../errors';
import type { Project } from '../../storage/repositories/projects';
import type { VerificationType } from '../../storage/repositories/verifications';
import type { VerificationDeps } from './deps';
import { projectSession, resultErrorMessage, resultFacts } from './facts';
import { signResultUrls } from './signed-urls';

export async function verifyResult(
  deps: VerificationDeps,
  project: Project,
  sessionId: string,
  type: VerificationType,
): Promise<FaceMatchResult | IdCheckResult> {
  const record = await projectSession(deps.verifications, project, sessionId);
  const code = resultErrorCode(await resultFacts(deps.verifications, record, type));
  if (code) throw new VerificationResultUnavailableError(code, resultErrorMessage(record, code));
  return signResultUrls(record.result as FaceMatchResult | IdCheckResult, deps.mediaUrls.sign);
}
