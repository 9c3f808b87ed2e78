/**
 * The process's one PostgreSQL LISTEN (storage/postgres/listener.ts) and what each notification
 * does here: a queued webhook wakes this process's dispatcher (when one runs here; otherwise the
 * wake is kept and costs nothing), a changed project leaves this process's key cache, so that a
 * revoked key is refused and new settings or rules apply on every node at once. On every
 * (re)connection both catch up on what was announced while nobody listened: the dispatcher
 * wakes, and the key cache is emptied. makeRuntime runs it in every server process (each worker
 * of a cluster runs its own: no relay through the primary to go wrong) and in `trustgate worker`.
 */
import type { Logger } from '../logger';
import { listen } from '../storage/postgres/listener';
import { PROJECT_CHANNEL } from '../storage/repositories/projects';
import type { ProjectUseCases } from '../usecases/projects';
import { WEBHOOK_CHANNEL } from '../webhooks/outbox';
import type { Wake } from '../webhooks/wake';

export interface Listened {
  /** This process's webhook dispatcher's wake. */
  wake: Pick<Wake, 'wake'>;
  /** This process's key cache. */
  projects: Pick<ProjectUseCases, 'forgetProject' | 'forgetAllProjects'>;
}

/** Listens on `connectionString`'s database until `signal` aborts; never rejects. */
export function listenForChanges(
  { wake, projects }: Listened,
  options: { connectionString: string; logger: Logger; firstRetryMs?: number },
  signal: AbortSignal,
): Promise<void> {
  return listen(
    {
      ...options,
      channels: {
        [WEBHOOK_CHANNEL]: () => wake.wake(),
        [PROJECT_CHANNEL]: (projectId) => projects.forgetProject(projectId),
      },
      onConnect: () => {
        projects.forgetAllProjects();
        wake.wake();
      },
    },
    signal,
  );
}
