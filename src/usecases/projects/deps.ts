/** What the project use cases are given, and the key cache they share. */
import type { Clock, Random } from '../../clock';
import type { StatsTally } from '../../domain/stats';
import type { SecretBox } from '../../security/secrets';
import type { Db } from '../../storage/db';
import type { MediaStore } from '../../storage/media';
import type { AuditEventRepository } from '../../storage/repositories/audit-events';
import type { EvaluationCountRepository } from '../../storage/repositories/evaluation-counts';
import type { ListRepository } from '../../storage/repositories/lists';
import type { ProjectDataRepository } from '../../storage/repositories/project-data';
import type { ProjectRepository } from '../../storage/repositories/projects';
import type { ApiKeyCache } from '../api-key-cache';

export interface ProjectDeps {
  db: Db;
  clock: Clock;
  random: Random;
  secretBox: SecretBox;
  projects: ProjectRepository;
  lists: ListRepository;
  /** The audit of settings changes, written in the change's transaction. */
  auditEvents: AuditEventRepository;
  /** The overview's kept counts (getStats). */
  evaluationCounts: EvaluationCountRepository;
  /** This process's counts not yet flushed: a reset drops the project's. */
  statsTally: Pick<StatsTally, 'forget'>;
  /** Everything a project has gathered (`reset` deletes it). */
  projectData: ProjectDataRepository;
  /** Where captured images are kept: `reset` deletes the project's. */
  media: Pick<MediaStore, 'delete'>;
  /** How long a key's project is kept in memory (api-key-cache.ts); 0 or absent: not kept. */
  apiKeyCacheTtlMs?: number;
}

/**
 * The deps and this process's key cache: every change to a project's keys, settings or rules
 * drops the project from it, and from every other process's (change.ts), so its next request
 * reads them again.
 */
export interface ProjectContext extends ProjectDeps {
  keyCache: ApiKeyCache;
}
