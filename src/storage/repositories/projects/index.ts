/** Projects and their API keys. */
import type { Knex } from 'knex';
import { announceChange } from './changes';
import { activeKeyPrefixes, findActiveKeyByHash, insertApiKey, revokeKeys, type ApiKeyRecord } from './api-keys';
import {
  countCustomerProjects,
  findDemoProject,
  findProject,
  findProjectWithRules,
  insertProject,
  listProjects,
  type NewProject,
} from './projects';
import {
  findSettings,
  previousWebhookSecret,
  projectsWithRetention,
  rotateWebhookSecret,
  updateSettings,
  type SecretRotation,
  type SettingsChange,
} from './settings';

export type { ApiKeyRecord, ApiKeyScope } from './api-keys';
export { PROJECT_CHANNEL } from './changes';
export type { Project, ProjectSettingsRecord, RetentionSettings } from './record';

/** Each method runs on `trx` when given, else on `db`. */
export function makeProjectRepository(db: Knex) {
  return {
    insert: (p: NewProject, trx: Knex = db) => insertProject(trx, p),
    findById: (id: string, trx: Knex = db) => findProject(trx, id),
    findWithRules: (id: string, trx: Knex = db) => findProjectWithRules(trx, id),
    list: (trx: Knex = db) => listProjects(trx),
    countCustomerProjects: (trx: Knex = db) => countCustomerProjects(trx),
    findDemo: (trx: Knex = db) => findDemoProject(trx),

    findSettings: (id: string, trx: Knex = db) => findSettings(trx, id),
    updateSettings: (id: string, version: number, next: SettingsChange, trx: Knex = db) =>
      updateSettings(trx, id, version, next),
    previousWebhookSecret: (id: string, trx: Knex = db) => previousWebhookSecret(trx, id),
    rotateWebhookSecret: (id: string, version: number, next: SecretRotation, trx: Knex = db) =>
      rotateWebhookSecret(trx, id, version, next),
    withRetention: (trx: Knex = db) => projectsWithRetention(trx),
    /** Tells every process that the project changed, once `trx` commits (changes.ts). */
    announceChange: (id: string, trx: Knex) => announceChange(trx, id),

    insertApiKey: (k: ApiKeyRecord, trx: Knex = db) => insertApiKey(trx, k),
    findActiveKeyByHash: (keyHash: string, trx: Knex = db) => findActiveKeyByHash(trx, keyHash),
    revokeKeys: (projectId: string, at: Date, trx: Knex = db) => revokeKeys(trx, projectId, at),
    activeKeyPrefixes: (projectId: string, trx: Knex = db) => activeKeyPrefixes(trx, projectId),
  };
}

export type ProjectRepository = ReturnType<typeof makeProjectRepository>;
