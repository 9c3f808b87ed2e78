/** A project's API keys: stored by their hash, revoked rather than deleted. */
import type { Knex } from 'knex';
import type { ApiKeyScope } from '../../../domain/operators';

export type { ApiKeyScope };

const scopeOf = (stored: string): ApiKeyScope => (stored === 'read_only' ? 'read_only' : 'full');

export interface ApiKeyRecord {
  id: string;
  projectId: string;
  keyHash: string;
  keyPrefix: string;
  scope: ApiKeyScope;
  createdAt: Date;
}

export async function insertApiKey(db: Knex, k: ApiKeyRecord): Promise<void> {
  await db('api_keys').insert({
    id: k.id,
    project_id: k.projectId,
    key_hash: k.keyHash,
    key_prefix: k.keyPrefix,
    scope: k.scope,
    created_at: k.createdAt.getTime(),
    revoked_at: null,
  });
}

/** The active key with this hash, if any (the hash column is unique and indexed). */
export async function findActiveKeyByHash(db: Knex, keyHash: string): Promise<ApiKeyRecord | undefined> {
  const row = await db('api_keys').where({ key_hash: keyHash }).whereNull('revoked_at').first();
  return (
    row && {
      id: row.id,
      projectId: row.project_id,
      keyHash: row.key_hash,
      keyPrefix: row.key_prefix,
      scope: scopeOf(row.scope),
      createdAt: new Date(Number(row.created_at)),
    }
  );
}

export async function revokeKeys(db: Knex, projectId: string, at: Date): Promise<number> {
  return db('api_keys').where({ project_id: projectId }).whereNull('revoked_at').update({ revoked_at: at.getTime() });
}

export async function activeKeyPrefixes(
  db: Knex,
  projectId: string,
): Promise<{ prefix: string; scope: ApiKeyScope }[]> {
  const rows = await db('api_keys').where({ project_id: projectId }).whereNull('revoked_at').orderBy('created_at');
  return rows.map((r: { key_prefix: string; scope: string }) => ({
    prefix: r.key_prefix,
    scope: scopeOf(r.scope),
  }));
}
