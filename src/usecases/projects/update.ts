/** Changing a project's settings, audited in the same transaction. */
import { ConflictError, NotFoundError } from '../../errors';
import type { Project } from '../../storage/repositories/projects';
import { actorName, type Actor } from '../actor';
import { changeProject } from './change';
import type { ProjectContext } from './deps';
import { nextSettings, settingsDiff, type ProjectSettingsChange } from './settings';

/**
 * Changes the project's settings and records the change (who, when, before → after) in the
 * audit, in one transaction, over the settings it was decided on (another change that came
 * first: 409, nothing written). A change that changes nothing writes nothing. Every process's
 * key cache drops the project (change.ts): its next evaluation anywhere reads the new settings.
 */
export async function update(
  deps: ProjectContext,
  projectId: string,
  change: ProjectSettingsChange,
  actor: Actor,
  requestId: string | null = null,
): Promise<Project> {
  const { clock, random, projects } = deps;
  const current = await projects.findSettings(projectId);
  if (!current) throw new NotFoundError('project', projectId);
  const next = nextSettings(current, change);
  const changes = settingsDiff(current, next);
  if (changes.length === 0) return current;
  await changeProject(deps, projectId, async (trx) => {
    const { webhookEvents: _unchanged, ...rest } = next;
    const eventsChanged = changes.some((c) => c.field === 'webhook_events');
    if (!(await projects.updateSettings(projectId, current.settingsVersion, eventsChanged ? next : rest, trx)))
      throw new ConflictError("The project's settings changed during this request; retry");
    await deps.auditEvents.insert(
      {
        id: random.uuid(),
        projectId,
        actor: actorName(actor),
        action: 'project.updated',
        requestId,
        changes,
        createdAt: clock.now(),
      },
      trx,
    );
  });
  const updated = await projects.findById(projectId);
  if (!updated) throw new NotFoundError('project', projectId);
  return updated;
}

export async function setWebhook(
  deps: ProjectContext,
  projectId: string,
  url: string | null,
  actor: Actor = 'cli',
): Promise<void> {
  await update(deps, projectId, { webhookUrl: url || null }, actor);
}
