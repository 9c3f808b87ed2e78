/**
 * Every change to a project's keys, settings or rules goes through `changeProject`: it reaches
 * every process's key cache, which holds the project with its settings and rules. The change's
 * transaction announces it (on PostgreSQL a notification that every process's listener gets at
 * commit: storage's announceChange), and this process drops the project once it has committed.
 */
import type { Db } from '../../storage/db';
import type { ProjectContext } from './deps';

/**
 * Runs `work` in one transaction with the change's announcement, then drops the project from
 * this process's key cache (after the commit: a lookup that overlapped the change is not kept).
 * Nothing is announced when `work` throws: its transaction rolls back.
 */
export async function changeProject<T>(
  { db, projects, keyCache }: ProjectContext,
  projectId: string,
  work: (trx: Db) => Promise<T>,
): Promise<T> {
  const result = await db.transaction(async (trx) => {
    const done = await work(trx);
    await projects.announceChange(projectId, trx);
    return done;
  });
  keyCache.forgetProject(projectId);
  return result;
}

/** Drops the project from this process's key cache: its next request reads it (and its rules) again. */
export function forgetProject({ keyCache }: ProjectContext, projectId: string): void {
  keyCache.forgetProject(projectId);
}

/** Drops every project from this process's key cache (a change announced meanwhile may have been missed). */
export function forgetAllProjects({ keyCache }: ProjectContext): void {
  keyCache.forgetAll();
}
