/** A project's API keys: issuing them, rotating them, and finding the project a key stands for. */
import { NotFoundError } from '../../errors';
import { constantTimeEqual, generateApiKey, hashApiKey, keyPrefix } from '../../security/secrets';
import type { Db } from '../../storage/db';
import type { ApiKeyScope, Project } from '../../storage/repositories/projects';
import type { KeyHolder } from '../api-key-cache';
import { changeProject } from './change';
import type { ProjectContext } from './deps';

/** A new key of the project, stored by its hash in `trx`; the key itself is returned to be shown once. */
export async function issueKey(
  { clock, random, projects }: ProjectContext,
  project: Pick<Project, 'id' | 'test'>,
  trx: Db,
  scope: ApiKeyScope = 'full',
): Promise<string> {
  const apiKey = generateApiKey(random, { test: project.test });
  await projects.insertApiKey(
    {
      id: random.uuid(),
      projectId: project.id,
      keyHash: hashApiKey(apiKey),
      keyPrefix: keyPrefix(apiKey),
      scope,
      createdAt: clock.now(),
    },
    trx,
  );
  return apiKey;
}

/**
 * A further key for the project, beside its others (`read_only`: GET requests only); shown
 * once. `rotateKey` revokes it with the others.
 */
export async function addKey(
  ctx: ProjectContext,
  projectId: string,
  scope: ApiKeyScope,
): Promise<{ project_id: string; api_key: string; scope: ApiKeyScope }> {
  const apiKey = await ctx.db.transaction(async (trx) => {
    const project = await ctx.projects.findById(projectId, trx);
    if (!project) throw new NotFoundError('project', projectId);
    return issueKey(ctx, project, trx, scope);
  });
  return { project_id: projectId, api_key: apiKey, scope };
}

/** Revokes every key of the project (whatever their scope) and issues a new full one. */
export async function rotateKey(
  ctx: ProjectContext,
  projectId: string,
): Promise<{ project_id: string; api_key: string }> {
  // Every process's cache drops the project: the revoked keys stop working everywhere.
  const apiKey = await changeProject(ctx, projectId, async (trx) => {
    const project = await ctx.projects.findById(projectId, trx);
    if (!project) throw new NotFoundError('project', projectId);
    await ctx.projects.revokeKeys(projectId, ctx.clock.now(), trx);
    return issueKey(ctx, project, trx);
  });
  return { project_id: projectId, api_key: apiKey };
}

/**
 * The project whose active key this is, and the key's scope (read from the key's row and
 * cached with the project: no statement of its own); undefined for a missing, unknown or
 * revoked key. Found keys are kept in memory for apiKeyCacheTtlMs (api-key-cache.ts) unless a
 * change to the project drops them first: a key revoked by another process stops working here
 * when its notification arrives (PostgreSQL), or at the latest when the entry expires.
 */
export async function authenticate(
  { projects, keyCache }: ProjectContext,
  apiKey: string,
): Promise<KeyHolder | undefined> {
  const hash = hashApiKey(apiKey);
  const cached = keyCache.get(hash);
  if (cached) return cached;
  const generation = keyCache.generation();
  const key = await projects.findActiveKeyByHash(hash);
  // The lookup is by hash through a unique index; the comparison of the found hash is
  // constant-time, so nothing about a near-miss key is observable.
  if (!key || !constantTimeEqual(key.keyHash, hash)) return undefined;
  // With its rules (one statement): evaluations read them from the cached project.
  const project = await projects.findWithRules(key.projectId);
  if (!project) return undefined;
  const holder: KeyHolder = { project, scope: key.scope };
  keyCache.set(hash, holder, generation);
  return holder;
}

/** Whether this process holds the key as a known one (the cache alone: no query). */
export function knownKey({ keyCache }: ProjectContext, apiKey: string): boolean {
  return keyCache.get(hashApiKey(apiKey)) !== undefined;
}
