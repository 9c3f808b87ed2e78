/** Projects: creation with their first key and webhook secret, key rotation, settings and their audit. */
import type { AuditEvent, EvaluationStats, SubscribableEventType } from '../api-types';
import { evaluationStats, statsRange, type StatsTally } from '../domain/stats';
import type { Clock, Random } from '../clock';
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
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
import type { AuditEventRepository, AuditValue } from '../storage/repositories/audit-events';
import type { EvaluationCountRepository } from '../storage/repositories/evaluation-counts';
import type { ListRepository } from '../storage/repositories/lists';
import type { ProjectDataRepository, ProjectDataTable } from '../storage/repositories/project-data';
import type { ApiKeyScope, Project, ProjectRepository, ProjectSettingsRecord } from '../storage/repositories/projects';
import { DEFAULT_WEBHOOK_EVENTS, isWebhookEventType, WEBHOOK_EVENT_TYPES } from '../domain/webhook-events';
import { actorName, type Actor } from './actor';
import { makeApiKeyCache, type KeyHolder } from './api-key-cache';
import { createStandardLists } from './lists';

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

/** A change of settings: the members given are changed, the others left as they are. */
export interface ProjectSettingsChange {
  name?: string;
  decisionThreshold?: number;
  groupsEnabled?: boolean;
  webhookUrl?: string | null;
  /** The webhook events the project is sent (replaces the list). */
  webhookEvents?: readonly string[];
  /** Retention periods in days (null: kept; usecases/retention.ts). */
  retentionSessionsDays?: number | null;
  retentionVerificationMediaDays?: number | null;
  retentionDeliveredWebhooksDays?: number | null;
}

/** The longest retention period: 100 years (36500 days), as the contract's RetentionDays. */
export const MAX_RETENTION_DAYS = 36_500;

/** The longest grace period of a rotated webhook secret: 7 days. */
export const MAX_WEBHOOK_SECRET_GRACE_SECONDS = 7 * 24 * 3600;
export const DEFAULT_WEBHOOK_SECRET_GRACE_SECONDS = 24 * 3600;

const SETTING_FIELDS = [
  ['name', 'name'],
  ['decisionThreshold', 'decision_threshold'],
  ['groupsEnabled', 'groups_enabled'],
  ['webhookUrl', 'webhook_url'],
  ['webhookEvents', 'webhook_events'],
  ['retentionSessionsDays', 'retention_sessions_days'],
  ['retentionVerificationMediaDays', 'retention_verification_media_days'],
  ['retentionDeliveredWebhooksDays', 'retention_delivered_webhooks_days'],
] as const satisfies readonly (readonly [keyof ProjectSettingsRecord, string])[];

/**
 * The settings after `change`, checked against the rules the schema cannot state (a name
 * not blank once trimmed, an http(s) webhook URL, groups never turned off); each message names
 * the field and the rule.
 */
export function nextSettings(current: ProjectSettingsRecord, change: ProjectSettingsChange): ProjectSettingsRecord {
  const next = { ...current };
  if (change.name !== undefined) {
    next.name = change.name.trim();
    if (!next.name) throw new BadRequestError('name must not be empty once trimmed');
  }
  if (change.decisionThreshold !== undefined) {
    const t = change.decisionThreshold;
    if (!Number.isFinite(t) || t < 0 || t > 1) throw new BadRequestError('decision_threshold must be between 0 and 1');
    next.decisionThreshold = t;
  }
  if (change.groupsEnabled !== undefined) {
    if (current.groupsEnabled && !change.groupsEnabled)
      throw new BadRequestError('groups_enabled cannot be turned off once on');
    next.groupsEnabled = change.groupsEnabled;
  }
  if (change.webhookUrl !== undefined) {
    try {
      next.webhookUrl = change.webhookUrl === null ? null : validateWebhookUrl(change.webhookUrl);
    } catch (e) {
      throw e instanceof BadRequestError ? new BadRequestError(`webhook_url: ${e.message}`) : e;
    }
  }
  if (change.webhookEvents !== undefined) next.webhookEvents = webhookEvents(change.webhookEvents);
  for (const [key, field] of RETENTION_FIELDS) {
    const given = change[key];
    if (given === undefined) continue;
    if (given !== null && (!Number.isInteger(given) || given < 1 || given > MAX_RETENTION_DAYS))
      throw new BadRequestError(`${field} must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, or null`);
    next[key] = given;
  }
  return next;
}

const RETENTION_FIELDS = SETTING_FIELDS.filter(
  (f): f is Extract<(typeof SETTING_FIELDS)[number], readonly [`retention${string}`, string]> =>
    f[0].startsWith('retention'),
);

/** The event types given, each known and given once (in the registry's order). */
function webhookEvents(given: readonly string[]): SubscribableEventType[] {
  for (const t of given)
    if (!isWebhookEventType(t))
      throw new BadRequestError(
        `webhook_events: ${JSON.stringify(t)} is not an event type (one of ${WEBHOOK_EVENT_TYPES.join(', ')})`,
      );
  if (new Set(given).size !== given.length) throw new BadRequestError('webhook_events must not repeat an event type');
  return WEBHOOK_EVENT_TYPES.filter((t) => given.includes(t));
}

/** A setting as the audit records it (a list of event types: joined by spaces). */
const auditValue = (v: ProjectSettingsRecord[keyof ProjectSettingsRecord]): AuditValue =>
  Array.isArray(v) ? v.join(' ') : (v as AuditValue);

/** Each setting that differs, before and after, in the contract's names. */
export function settingsDiff(before: ProjectSettingsRecord, after: ProjectSettingsRecord): AuditEvent['changes'] {
  return SETTING_FIELDS.map(([key, field]) => ({
    field,
    before: auditValue(before[key]),
    after: auditValue(after[key]),
  })).filter((c) => c.before !== c.after);
}

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

  async function issueKey(
    project: Pick<Project, 'id' | 'test'>,
    trx: Db,
    scope: ApiKeyScope = 'full',
  ): Promise<string> {
    const projectId = project.id;
    const apiKey = generateApiKey(random, { test: project.test });
    await projects.insertApiKey(
      {
        id: random.uuid(),
        projectId,
        keyHash: hashApiKey(apiKey),
        keyPrefix: keyPrefix(apiKey),
        scope,
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
        webhookEvents: [...DEFAULT_WEBHOOK_EVENTS],
        retentionSessionsDays: null,
        retentionVerificationMediaDays: null,
        retentionDeliveredWebhooksDays: null,
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
          api_keys: (await projects.activeKeyPrefixes(p.id)).map(
            (k) => `${k.prefix}…${k.scope === 'read_only' ? ' (read-only)' : ''}`,
          ),
          created_at: p.createdAt.toISOString(),
        })),
      );
    },

    /**
     * A further key for the project, beside its others (`read_only`: GET requests only); shown
     * once. `rotateKey` revokes it with the others.
     */
    async addKey(
      projectId: string,
      scope: ApiKeyScope,
    ): Promise<{ project_id: string; api_key: string; scope: ApiKeyScope }> {
      const apiKey = await db.transaction(async (trx) => {
        const project = await projects.findById(projectId, trx);
        if (!project) throw new NotFoundError('project', projectId);
        return issueKey(project, trx, scope);
      });
      return { project_id: projectId, api_key: apiKey, scope };
    },

    /** Revokes every key of the project (whatever their scope) and issues a new full one. */
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
     * faces and documents, webhooks, labels), in one transaction, then the captured images. The
     * project, its keys, webhook, lists and audit (naming no account any more) stay. A live project only with `allowLive`.
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
      const { deleted, mediaIds } = await db.transaction(async (trx) => {
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
    },

    async setWebhook(projectId: string, url: string | null, actor: Actor = 'cli'): Promise<void> {
      await this.update(projectId, { webhookUrl: url || null }, actor);
    },

    /**
     * Changes the project's settings and records the change (who, when, before → after) in the
     * audit, in one transaction, over the settings it was decided on (another change that came
     * first: 409, nothing written). A change that changes nothing writes nothing. The project
     * is forgotten by this process's key cache: its next evaluation reads the new settings.
     */
    async update(
      projectId: string,
      change: ProjectSettingsChange,
      actor: Actor,
      requestId: string | null = null,
    ): Promise<Project> {
      const current = await projects.findSettings(projectId);
      if (!current) throw new NotFoundError('project', projectId);
      const next = nextSettings(current, change);
      const changes = settingsDiff(current, next);
      if (changes.length === 0) return current;
      await db.transaction(async (trx) => {
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
      keyCache.forgetProject(projectId);
      const updated = await projects.findById(projectId);
      if (!updated) throw new NotFoundError('project', projectId);
      return updated;
    },

    /**
     * A new webhook secret, returned once. The current one keeps signing every delivery beside
     * it (a second `v1`) for `graceSeconds` (0: no more), so receivers can switch without a
     * refused webhook. Audited (never the secrets: the end of the grace period) in the same
     * transaction, over the settings version it was decided on.
     */
    async rotateWebhookSecret(
      projectId: string,
      graceSeconds: number,
      actor: Actor,
      requestId: string | null = null,
    ): Promise<{ project_id: string; webhook_secret: string; previous_secret_valid_until: string | null }> {
      if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_WEBHOOK_SECRET_GRACE_SECONDS)
        throw new BadRequestError(
          `grace_period_seconds must be an integer from 0 to ${MAX_WEBHOOK_SECRET_GRACE_SECONDS}`,
        );
      const current = await projects.findSettings(projectId);
      if (!current) throw new NotFoundError('project', projectId);
      const before = await projects.previousWebhookSecret(projectId);
      const now = clock.now();
      const until = graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000) : null;
      const secret = generateWebhookSecret(random);
      await db.transaction(async (trx) => {
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
            changes: [
              { field: 'webhook_secret_grace_until', before: beforeUntil, after: until?.toISOString() ?? null },
            ],
            createdAt: now,
          },
          trx,
        );
      });
      keyCache.forgetProject(projectId);
      return {
        project_id: projectId,
        webhook_secret: secret,
        previous_secret_valid_until: until?.toISOString() ?? null,
      };
    },

    /** Drops the project from this process's key cache: its next request reads it (and its rules) again. */
    forgetProject(projectId: string): void {
      keyCache.forgetProject(projectId);
    },

    /** The overview: evaluations per day by decision and the signals raised, from the kept counts (a 400 for a bad range). */
    async stats(projectId: string, from?: string, to?: string): Promise<Omit<EvaluationStats, 'request_id'>> {
      const range = statsRange(from, to, deps.clock.now());
      if ('refused' in range) throw new BadRequestError(range.refused);
      return evaluationStats(await deps.evaluationCounts.range(projectId, range.from, range.to), range);
    },
    /** A page of the project's audit events, newest first; `cursor` is the previous page's `next_cursor`. */
    async auditEvents(
      projectId: string,
      limit: number,
      cursor?: string,
    ): Promise<{ events: AuditEvent[]; next_cursor: string | null }> {
      const rows = await deps.auditEvents.page(projectId, limit + 1, cursor === undefined ? undefined : Number(cursor));
      const page = rows.slice(0, limit);
      return {
        events: page.map((e) => ({
          id: e.id,
          actor: e.actor,
          action: e.action as AuditEvent['action'],
          ...(e.accountId === null ? {} : { account_id: e.accountId }),
          request_id: e.requestId,
          changes: e.changes as AuditEvent['changes'],
          created_at: e.createdAt.toISOString(),
        })),
        next_cursor: rows.length > limit ? String(page[page.length - 1]!.seq) : null,
      };
    },

    /** Whether this process holds the key as a known one (the cache alone: no query). */
    knownKey(apiKey: string): boolean {
      return keyCache.get(hashApiKey(apiKey)) !== undefined;
    },

    /**
     * The project whose active key this is, and the key's scope (read from the key's row and
     * cached with the project: no statement of its own); undefined for a missing, unknown or
     * revoked key. Found keys are kept in memory for apiKeyCacheTtlMs (api-key-cache.ts): a key
     * revoked by another process keeps working here until then.
     */
    async authenticate(apiKey: string): Promise<KeyHolder | undefined> {
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
    },

    async webhookSecret(project: Project): Promise<string> {
      return secretBox.decrypt(project.webhookSecretEncrypted);
    },

    /** Where a project's webhooks go, and the secret that signs them (decrypted only here): the dispatcher's target at each delivery. */
    async webhookTarget(projectId: string): Promise<{ url: string | null; secret: string; previousSecret?: string }> {
      const project = await projects.findById(projectId);
      if (!project) throw new Error(`project ${projectId} no longer exists`);
      const target = { url: project.webhookUrl, secret: secretBox.decrypt(project.webhookSecretEncrypted) };
      const previous = await projects.previousWebhookSecret(projectId);
      // The rotated-out secret signs too while its grace period lasts.
      if (!previous || previous.until <= clock.now()) return target;
      return { ...target, previousSecret: secretBox.decrypt(previous.secretEncrypted) };
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
