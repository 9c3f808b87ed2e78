/** A project's webhook secret: its rotation with a grace period, and the target each delivery signs for. */
import { BadRequestError, ConflictError, NotFoundError } from '../../errors';
import { generateWebhookSecret } from '../../security/secrets';
import type { Project } from '../../storage/repositories/projects';
import { actorName, type Actor } from '../actor';
import { changeProject } from './change';
import type { ProjectContext } from './deps';

/** The longest grace period of a rotated webhook secret: 7 days. */
export const MAX_WEBHOOK_SECRET_GRACE_SECONDS = 7 * 24 * 3600;
export const DEFAULT_WEBHOOK_SECRET_GRACE_SECONDS = 24 * 3600;

/**
 * A new webhook secret, returned once. The current one keeps signing every delivery beside
 * it (a second `v1`) for `graceSeconds` (0: no more), so receivers can switch without a
 * refused webhook. Audited (never the secrets: the end of the grace period) in the same
 * transaction, over the settings version it was decided on.
 */
export async function rotateWebhookSecret(
  deps: ProjectContext,
  projectId: string,
  graceSeconds: number,
  actor: Actor,
  requestId: string | null = null,
): Promise<{ project_id: string; webhook_secret: string; previous_secret_valid_until: string | null }> {
  const { clock, random, secretBox, projects } = deps;
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_WEBHOOK_SECRET_GRACE_SECONDS)
    throw new BadRequestError(`grace_period_seconds must be an integer from 0 to ${MAX_WEBHOOK_SECRET_GRACE_SECONDS}`);
  const current = await projects.findSettings(projectId);
  if (!current) throw new NotFoundError('project', projectId);
  const before = await projects.previousWebhookSecret(projectId);
  const now = clock.now();
  const until = graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000) : null;
  const secret = generateWebhookSecret(random);
  await changeProject(deps, projectId, async (trx) => {
    const rotated = await projects.rotateWebhookSecret(
      projectId,
      current.settingsVersion,
      {
        secretEncrypted: secretBox.encrypt(secret),
        previousEncrypted: until ? current.webhookSecretEncrypted : null,
        previousUntil: until,
      },
      trx,
    );
    if (!rotated) throw new ConflictError("The project's settings changed during this request; retry");
    const beforeUntil = before && before.until > now ? before.until.toISOString() : null;
    await deps.auditEvents.insert(
      {
        id: random.uuid(),
        projectId,
        actor: actorName(actor),
        action: 'webhook_secret.rotated',
        requestId,
        changes: [{ field: 'webhook_secret_grace_until', before: beforeUntil, after: until?.toISOString() ?? null }],
        createdAt: now,
      },
      trx,
    );
  });
  return {
    project_id: projectId,
    webhook_secret: secret,
    previous_secret_valid_until: until?.toISOString() ?? null,
  };
}

export async function webhookSecret({ secretBox }: ProjectContext, project: Project): Promise<string> {
  return secretBox.decrypt(project.webhookSecretEncrypted);
}

/** Where a project's webhooks go, and the secret that signs them (decrypted only here): the dispatcher's target at each delivery. */
export async function webhookTarget(
  { clock, secretBox, projects }: ProjectContext,
  projectId: string,
): Promise<{ url: string | null; secret: string; previousSecret?: string }> {
  const project = await projects.findById(projectId);
  if (!project) throw new Error(`project ${projectId} no longer exists`);
  const target = { url: project.webhookUrl, secret: secretBox.decrypt(project.webhookSecretEncrypted) };
  const previous = await projects.previousWebhookSecret(projectId);
  // The rotated-out secret signs too while its grace period lasts.
  if (!previous || previous.until <= clock.now()) return target;
  return { ...target, previousSecret: secretBox.decrypt(previous.secretEncrypted) };
}
