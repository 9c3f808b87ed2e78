/**
 * The hosted page's access to a session: its capture token, checked in constant time, and how
 * an ended session answers (cancel's and complete's answer).
 */
import type { VerificationSessionEnded, WebhookErrorCode } from '../../api-types';
import { redirectTo } from '../../domain/verification/lifecycle';
import { ForbiddenError, SessionNotFoundError } from '../../errors';
import { constantTimeEqual, hashApiKey } from '../../security/secrets';
import type { VerificationRecord } from '../../storage/repositories/verifications';
import type { VerificationDeps } from './deps';
import { endExpired } from './end';

/** The capture token's hash against the stored one, in constant time. */
export function tokenFits(record: VerificationRecord, token: unknown): boolean {
  return typeof token === 'string' && constantTimeEqual(record.tokenHash, hashApiKey(token));
}

/**
 * The session the hosted page's token opens. One used after its 30 days is ended on the spot
 * with max_duration_exceeded (as the sweeper would), and returned ended.
 */
export async function openByToken(
  deps: VerificationDeps,
  sessionId: string,
  token: string,
): Promise<VerificationRecord> {
  const record = await deps.verifications.find(sessionId);
  if (!record) throw new SessionNotFoundError();
  if (!tokenFits(record, token)) throw new ForbiddenError('The capture token is not valid for this session');
  if (record.state !== 'open' || deps.clock.now() < record.expiresAt) return record;
  await endExpired(deps, record);
  return (await deps.verifications.find(sessionId))!;
}

/** How a session ended, and where the hosted page sends the user. */
export async function endedAnswer(deps: VerificationDeps, sessionId: string): Promise<VerificationSessionEnded> {
  const ended = (await deps.verifications.find(sessionId))!;
  const success = ended.outcome === 'success';
  return {
    session_id: sessionId,
    status: success ? ('success' as const) : ('error' as const),
    ...(success ? {} : { error_code: ended.outcome as WebhookErrorCode }),
    redirect_url: redirectTo(ended, success, success ? undefined : ended.outcome),
  };
}
