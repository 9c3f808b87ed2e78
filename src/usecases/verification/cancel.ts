/** The hosted page's Cancel: the session ends with liveness_check_failed (the interface's code for a user's cancel). */
import type { VerificationSessionEnded } from '../../api-types';
import { ENDINGS } from '../../domain/verification/lifecycle';
import { endedAnswer, openByToken } from './access';
import type { VerificationDeps } from './deps';
import { endWithError } from './end';

export async function cancelSession(
  deps: VerificationDeps,
  sessionId: string,
  token: string,
): Promise<VerificationSessionEnded> {
  const record = await openByToken(deps, sessionId, token);
  if (record.state === 'open') await endWithError(deps, record, ENDINGS.cancelled);
  return endedAnswer(deps, sessionId);
}
