/**
 * Creating a session: POST/GET /liveness/session with the API key, and the public link
 * (GET /public/liveness-redirect) that names its project in the query.
 */
import type { CreateVerificationSession, VerificationSessionCreated } from '../../api-types';
import { verificationDirective } from '../../domain/test-mode';
import { VERIFICATION_LIFETIME_MS } from '../../domain/verification/lifecycle';
import { BadRequestError, LivenessCallError } from '../../errors';
import { hashApiKey } from '../../security/secrets';
import type { Project } from '../../storage/repositories/projects';
import type { VerificationRecord } from '../../storage/repositories/verifications';
import type { VerificationDeps } from './deps';

/** Why the project refuses the session, if it does. */
function refusal(project: Project, body: CreateVerificationSession): Error | undefined {
  // With groups on every account has a group (reference.md); a session without an account has none: refused, as published.
  if (project.groupsEnabled && body.account_id === undefined)
    return new LivenessCallError(
      'groups_enabled',
      'The project has groups enabled; a verification session needs an account_id (POST /liveness/session) to have a group',
    );
  const forced = project.test ? verificationDirective(body.account_id) : undefined;
  if (forced?.kind === 'error' && forced.code === 'failed_to_process_id_scan' && body.type !== 'id-check')
    return new BadRequestError(
      `account_id ${body.account_id} forces failed_to_process_id_scan, an ID Check error: type must be id-check`,
    );
  return undefined;
}

export async function createSession(
  deps: VerificationDeps,
  project: Project,
  body: CreateVerificationSession,
  options: { requestId: string },
): Promise<VerificationSessionCreated> {
  const refused = refusal(project, body);
  if (refused) throw refused;
  const now = deps.clock.now();
  const token = deps.random.bytes(32).toString('base64url');
  const record: VerificationRecord = {
    id: deps.random.uuid(),
    projectId: project.id,
    type: body.type,
    accountId: body.account_id,
    referringSessionId: body.referring_session_id,
    redirectUrl: body.redirect_url,
    tokenHash: hashApiKey(token),
    attempts: 0,
    state: 'open',
    createdAt: now,
    expiresAt: new Date(now.getTime() + VERIFICATION_LIFETIME_MS),
  };
  await deps.verifications.insert(record);
  return {
    request_id: options.requestId,
    session_id: record.id,
    url: `${deps.publicBaseUrl()}/liveness/${record.id}?token=${token}`,
    expires_at: record.expiresAt.toISOString(),
  };
}

/**
 * The public link: a new session of the project named by `projectId`, without an account; the
 * hosted page's URL to redirect the browser to.
 */
export async function openPublicLink(
  deps: VerificationDeps,
  projectId: string | undefined,
  body: Pick<CreateVerificationSession, 'type' | 'referring_session_id'>,
  options: { requestId: string },
): Promise<string> {
  if (projectId === undefined)
    throw new LivenessCallError('missing_project_id', 'query parameter project_id is required');
  const project = await deps.projects.findById(projectId);
  if (!project) throw new BadRequestError('query parameter project_id names no project');
  return (await createSession(deps, project, body, options)).url;
}
