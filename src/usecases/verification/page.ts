/** What the hosted page shows of a session (GET /liveness/{session_id}). */
import type { VerificationDeps } from './deps';
import type { VerificationRecord } from '../../storage/repositories/verifications';
import { tokenFits } from './access';

export interface PageView {
  record?: VerificationRecord;
  projectName?: string;
  error?: 'session_id_not_found' | 'invalid_session_id';
}

/**
 * The session and its project's name when the token fits, otherwise the redirect vocabulary's
 * `session_id_not_found` or `invalid_session_id` (without the name: a link without its token
 * learns nothing of the project).
 */
export async function pageOf(deps: VerificationDeps, sessionId: string, token: unknown): Promise<PageView> {
  const record = /^[0-9a-f-]{36}$/.test(sessionId) ? await deps.verifications.find(sessionId) : undefined;
  if (!record) return { error: 'session_id_not_found' };
  if (!tokenFits(record, token)) return { record, error: 'invalid_session_id' };
  const project = await deps.projects.findById(record.projectId);
  return { record, projectName: project?.name };
}
