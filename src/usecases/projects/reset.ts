/** Emptying a (test) project of everything it has gathered (docs/test-mode.md). */
import { BadRequestError, NotFoundError } from '../../errors';
import type { ProjectDataTable } from '../../storage/repositories/project-data';
import type { ProjectContext } from './deps';

/**
 * Deletes everything the project has gathered (sessions, accounts, evaluations, links and
 * their aggregates, list memberships, verification sessions with their captures and enrolled
 * faces and documents, webhooks, labels), in one transaction, then the captured images. The
 * project, its keys, webhook, lists and audit (naming no account any more) stay. A live project only with `allowLive`.
 */
export async function reset(
  deps: ProjectContext,
  projectId: string,
  options: { allowLive?: boolean } = {},
): Promise<{ project_id: string; test: boolean; deleted: Record<ProjectDataTable, number> }> {
  // Whether a project is a test project never changes, so it is read before the transaction,
  // whose first statement is then a write (SQLite: it holds the write lock from its start).
  const project = await deps.projects.findById(projectId);
  if (!project) throw new NotFoundError('project', projectId);
  if (!project.test && !options.allowLive)
    throw new BadRequestError(
      `project ${projectId} is a live project: resetting it deletes its customers' data; to do it anyway, add --yes-delete-live-data`,
    );
  const { deleted, mediaIds } = await deps.db.transaction(async (trx) => {
    const all = await deps.projectData.deleteAll(projectId, trx);
    // The audit stays, without the ids of the accounts that are gone (as an erasure leaves it).
    await deps.auditEvents.forgetAccount(projectId, undefined, trx);
    return all;
  });
  // This process's overview counts of the project not yet flushed (others' processes keep theirs).
  deps.statsTally.forget(projectId);
  // The rows are gone; the images follow (a crash here leaves unreadable, unreferenced files only).
  for (const id of mediaIds) await deps.media.delete(id);
  return { project_id: projectId, test: project.test, deleted };
}
