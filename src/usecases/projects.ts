/** Projects: creation with their first key and webhook secret, key rotation, webhook URL. */
import type { Clock, Random } from '../clock';
import { BadRequestError, NotFoundError } from '../errors';
import {
  constantTimeEqual,
  generateApiKey,
  generateWebhookSecret,
  hashApiKey,
  keyPrefix,
  type SecretBox,
} from '../security/secrets';
import type { Db } from '../storage/db';
import type { MediaStore } from '../storage/media';
import type { ListRepository } from '../storage/repositories/lists';
import type { ProjectDataRepository, ProjectDataTable } from '../storage/repositories/project-data';
import type { Project, ProjectRepository } from '../storage/repositories/projects';
import { makeApiKeyCache } from './api-key-cache';
import { createStandardLists } from './lists';

export interface ProjectDeps {
  db: Db;
  clock: Clock;
  random: Random;
  secretBox: SecretBox;
  projects: ProjectRepository;
  lists: ListRepository;
  /** Everything a project has gathered (`reset` deletes it). */
  projectData: ProjectDataRepository;
  /** Where captured images are kept: `reset` deletes the project's. */
  media: Pick<MediaStore, 'delete'>;
  /** How long a key's project is kept in memory (api-key-cache.ts); 0 or absent: not kept. */
  apiKeyCacheTtlMs?: number;
}

/** What a new project's owner is shown once: the key and secret are not retrievable later. */
export interface ProjectCredentials {
  project_id: string;
  name: string;
  api_key: string;
  webhook_secret: string;
  webhook_url: string | null;
  groups_enabled: boolean;
  /** A test project (docs/test-mode.md). */
  test: boolean;
}

export interface ProjectSummary {
  project_id: string;
  name: string;
  webhook_url: string | null;
  groups_enabled: boolean;
  decision_threshold: number;
  /** The /demo page's project. */
  demo: boolean;
  /** A test project (docs/test-mode.md). */
  test: boolean;
  api_keys: string[];
  created_at: string;
}

export const DEFAULT_DECISION_THRESHOLD = 0.8;

export function validateWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BadRequestError(`webhook URL ${JSON.stringify(url)} is not a valid URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new BadRequestError('webhook URL must use http or https');
  }
  return parsed.toString();
}

export function makeProjectUseCases(deps: ProjectDeps) {
  const { db, clock, random, secretBox, projects, lists } = deps;
  const keyCache = makeApiKeyCache({ ttlMs: deps.apiKeyCacheTtlMs ?? 0, clock });

  async function issueKey(project: Pick<Project, 'id' | 'test'>, trx: Db): Promise<string> {
    const projectId = project.id;
    const apiKey = generateApiKey(random, { test: project.test });
    await projects.insertApiKey(
      {
        id: random.uuid(),
        projectId,
        keyHash: hashApiKey(apiKey),
        keyPrefix: keyPrefix(apiKey),
        createdAt: clock.now(),
      },
      trx,
    );
    return apiKey;
  }

  return {
    async create(input: {
      name: string;
      webhookUrl?: string | null;
      groups?: boolean;
      demo?: boolean;
      /** A test project: `tg_test_` keys and forced outcomes (docs/test-mode.md). */
      test?: boolean;
    }): Promise<ProjectCredentials> {
      const name = input.name.trim();
      if (!name) throw new BadRequestError('project name must not be empty');
      const webhookUrl = input.webhookUrl ? validateWebhookUrl(input.webhookUrl) : null;
      const webhookSecret = generateWebhookSecret(random);
      const project: Project = {
        id: random.uuid(),
        name,
        decisionThreshold: DEFAULT_DECISION_THRESHOLD,
        groupsEnabled: Boolean(input.groups),
        webhookUrl,
        webhookSecretEncrypted: secretBox.encrypt(webhookSecret),
        demo: Boolean(input.demo),
        test: Boolean(input.test),
        createdAt: clock.now(),
      };
      const apiKey = await db.transaction(async (trx) => {
        await projects.insert(project, trx);
        await createStandardLists(lists, project.id, project.createdAt, trx);
        return issueKey(project, trx);
      });
      return {
        project_id: project.id,
        name,
        api_key: apiKey,
        webhook_secret: webhookSecret,
        webhook_url: webhookUrl,
        groups_enabled: project.groupsEnabled,
        test: project.test,
      };
    },

    async list(): Promise<ProjectSummary[]> {
      const all = await projects.list();
      return Promise.all(
        all.map(async (p) => ({
          project_id: p.id,
          name: p.name,
          webhook_url: p.webhookUrl,
          groups_enabled: p.groupsEnabled,
          decision_threshold: p.decisionThreshold,
          demo: p.demo,
          test: p.test,
          api_keys: (await projects.activeKeyPrefixes(p.id)).map((prefix) => `${prefix}…`),
          created_at: p.createdAt.toISOString(),
        })),
      );
    },

    /** Revokes every key of the project and issues a new one. */
    async rotateKey(projectId: string): Promise<{ project_id: string; api_key: string }> {
      const apiKey = await db.transaction(async (trx) => {
        const project = await projects.findById(projectId, trx);
        if (!project) throw new NotFoundError('project', projectId);
        await projects.revokeKeys(projectId, clock.now(), trx);
        return issueKey(project, trx);
      });
      // After the commit: a lookup that overlapped the rotation is not kept either.
      keyCache.forgetProject(projectId);
      return { project_id: projectId, api_key: apiKey };
    },

    /**
     * Deletes everything the project has gathered (sessions, accounts, evaluations, links and
     * their aggregates, list memberships, verification sessions with their captures and enrolled
     * faces and documents, webhooks), in one transaction, then the captured images. The project,
     * its keys, webhook and lists stay. A live project only with `allowLive`.
     */
    async reset(
      projectId: string,
      options: { allowLive?: boolean } = {},
    ): Promise<{ project_id: string; test: boolean; deleted: Record<ProjectDataTable, number> }> {
      // Whether a project is a test project never changes, so it is read before the transaction,
      // whose first statement is then a write (SQLite: it holds the write lock from its start).
      const project = await projects.findById(projectId);
      if (!project) throw new NotFoundError('project', projectId);
      if (!project.test && !options.allowLive)
        throw new BadRequestError(
          `project ${projectId} is a live project: resetting it deletes its customers' data; to do it anyway, add --yes-delete-live-data`,
        );
      const { deleted, mediaIds } = await db.transaction((trx) => deps.projectData.deleteAll(projectId, trx));
      // The rows are gone; the images follow (a crash here leaves unreadable, unreferenced files only).
      for (const id of mediaIds) await deps.media.delete(id);
      return { project_id: projectId, test: project.test, deleted };
    },

    async setWebhook(projectId: string, url: string | null): Promise<void> {
      const normalised = url ? validateWebhookUrl(url) : null;
      if (!(await projects.setWebhookUrl(projectId, normalised))) throw new NotFoundError('project', projectId);
      keyCache.forgetProject(projectId);
    },

    /**
     * The project whose active key this is; undefined for a missing, unknown or revoked key.
     * Found keys are kept in memory for apiKeyCacheTtlMs (api-key-cache.ts): a key revoked by
     * another process keeps working here until then.
     */
    /** Whether this process holds the key as a known one (the cache alone: no query). */
    knownKey(apiKey: string): boolean {
      return keyCache.get(hashApiKey(apiKey)) !== undefined;
    },

    async authenticate(apiKey: string): Promise<Project | undefined> {
      const hash = hashApiKey(apiKey);
      const cached = keyCache.get(hash);
      if (cached) return cached;
      const generation = keyCache.generation();
      const key = await projects.findActiveKeyByHash(hash);
      // The lookup is by hash through a unique index; the comparison of the found hash is
      // constant-time, so nothing about a near-miss key is observable.
      if (!key || !constantTimeEqual(key.keyHash, hash)) return undefined;
      const project = await projects.findById(key.projectId);
      if (project) keyCache.set(hash, project, generation);
      return project;
    },

    async webhookSecret(project: Project): Promise<string> {
      return secretBox.decrypt(project.webhookSecretEncrypted);
    },

    /** Where a project's webhooks go, and the secret that signs them (decrypted only here): the dispatcher's target at each delivery. */
    async webhookTarget(projectId: string): Promise<{ url: string | null; secret: string }> {
      const project = await projects.findById(projectId);
      if (!project) throw new Error(`project ${projectId} no longer exists`);
      return { url: project.webhookUrl, secret: secretBox.decrypt(project.webhookSecretEncrypted) };
    },

    /** Creates a first project when there is none; returns its credentials, or undefined. */
    async ensureDefault(): Promise<ProjectCredentials | undefined> {
      if ((await projects.countCustomerProjects()) > 0) return undefined;
      return this.create({ name: 'Default project' });
    },

    /**
     * The /demo page's own project, created on first use. Its sessions are the demo's only: the
     * demo can never show a customer's data.
     */
    async ensureDemo(): Promise<Project> {
      const found = await projects.findDemo();
      if (found) return found;
      const created = await this.create({ name: 'Demo (the /demo page)', demo: true });
      return (await projects.findById(created.project_id))!;
    },
  };
}

export type ProjectUseCases = ReturnType<typeof makeProjectUseCases>;
