/** Projects and their API keys. Rows are mapped to plain records here and nowhere else. */
import type { Knex } from 'knex';
import type { RulesDocument, SubscribableEventType } from '../../api-types';
import { DEFAULT_WEBHOOK_EVENTS, isWebhookEventType } from '../../domain/webhook-events';
import type { ApiKeyScope } from '../../domain/operators';
import { withCurrentRules } from './rules';

export interface Project {
  id: string;
  name: string;
  decisionThreshold: number;
  groupsEnabled: boolean;
  webhookUrl: string | null;
  webhookSecretEncrypted: string;
  /** The webhook events the project is sent (webhooks/events.ts; the default ones until it chooses). */
  webhookEvents: SubscribableEventType[];
  /** The project of the /demo page. */
  demo: boolean;
  /** A test project (docs/test-mode.md): `tg_test_` keys, forced outcomes for documented account ids. */
  test: boolean;
  /** Days sessions (with their evaluations) are kept from their start; null: kept (usecases/retention.ts). */
  retentionSessionsDays: number | null;
  /** Days an ended verification session keeps its media, result and enrolled face and document; null: kept. */
  retentionVerificationMediaDays: number | null;
  /** Days a delivered webhook is kept; null: kept. */
  retentionDeliveredWebhooksDays: number | null;
  createdAt: Date;
  /** The current rules document and its version (docs/rules.md), when the project has one and it was read (findWithRules). */
  rules?: { version: number; document: RulesDocument };
}

/** The settings of a project that PATCH /project and `trustgate project set` change. */
export type ProjectSettingsRecord = Pick<
  Project,
  | 'name'
  | 'decisionThreshold'
  | 'groupsEnabled'
  | 'webhookUrl'
  | 'webhookEvents'
  | 'retentionSessionsDays'
  | 'retentionVerificationMediaDays'
  | 'retentionDeliveredWebhooksDays'
>;

/** The retention settings: a new project has none (null: kept) until it chooses. */
export type RetentionSettings = Pick<
  Project,
  'retentionSessionsDays' | 'retentionVerificationMediaDays' | 'retentionDeliveredWebhooksDays'
>;

interface ProjectRow {
  id: string;
  name: string;
  decision_threshold: number;
  groups_enabled: boolean | number;
  webhook_url: string | null;
  webhook_secret_encrypted: string;
  /** A JSON array of event types; null: the default ones. */
  webhook_events: string | null;
  demo: boolean | number;
  test: boolean | number;
  retention_sessions_days: number | string | null;
  retention_verification_media_days: number | string | null;
  retention_delivered_webhooks_days: number | string | null;
  created_at: number;
}

const days = (v: number | string | null) => (v == null ? null : Number(v));

function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    decisionThreshold: Number(row.decision_threshold),
    groupsEnabled: Boolean(row.groups_enabled),
    webhookUrl: row.webhook_url,
    webhookSecretEncrypted: row.webhook_secret_encrypted,
    webhookEvents: webhookEventsOf(row.webhook_events),
    demo: Boolean(row.demo),
    test: Boolean(row.test),
    retentionSessionsDays: days(row.retention_sessions_days),
    retentionVerificationMediaDays: days(row.retention_verification_media_days),
    retentionDeliveredWebhooksDays: days(row.retention_delivered_webhooks_days),
    createdAt: new Date(Number(row.created_at)),
  };
}

/** The stored list of event types (one no longer known is left out); null: the default ones. */
function webhookEventsOf(stored: string | null): SubscribableEventType[] {
  if (stored === null) return [...DEFAULT_WEBHOOK_EVENTS];
  return (JSON.parse(stored) as string[]).filter(isWebhookEventType);
}

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

export function makeProjectRepository(db: Knex) {
  return {
    /**
     * A new project follows the default webhook events until it chooses (webhook_events is left
     * null), and keeps its data until it sets a retention period.
     */
    async insert(p: Omit<Project, 'webhookEvents' | keyof RetentionSettings>, trx: Knex = db): Promise<void> {
      await trx<ProjectRow>('projects').insert({
        id: p.id,
        name: p.name,
        decision_threshold: p.decisionThreshold,
        groups_enabled: p.groupsEnabled,
        webhook_url: p.webhookUrl,
        webhook_secret_encrypted: p.webhookSecretEncrypted,
        demo: p.demo,
        test: p.test,
        created_at: p.createdAt.getTime(),
      });
    },

    async findById(id: string, trx: Knex = db): Promise<Project | undefined> {
      const row = await trx<ProjectRow>('projects').where({ id }).first();
      return row && toProject(row);
    },

    /** The project with its current rules document, in one statement (the API key's project, kept by the key cache). */
    async findWithRules(id: string, trx: Knex = db): Promise<Project | undefined> {
      const row = await withCurrentRules(trx).where('p.id', id).first('p.*', 'r.document as rules_document');
      if (!row) return undefined;
      const project = toProject(row);
      if (row.rules_document != null)
        project.rules = {
          version: Number(row.rules_version),
          document: JSON.parse(row.rules_document) as RulesDocument,
        };
      return project;
    },

    async list(trx: Knex = db): Promise<Project[]> {
      const rows = await trx<ProjectRow>('projects').orderBy('created_at', 'asc').orderBy('id', 'asc');
      return rows.map(toProject);
    },

    /** Customers' projects: every project but the demo's. */
    async countCustomerProjects(trx: Knex = db): Promise<number> {
      const row = await trx('projects').where({ demo: false }).count<{ n: number | string }[]>({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    async findDemo(trx: Knex = db): Promise<Project | undefined> {
      const row = await trx<ProjectRow>('projects')
        .where({ demo: true })
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .first();
      return row && toProject(row);
    },

    /** The project's settings and their version (counted up by each change), read in one row. */
    async findSettings(id: string, trx: Knex = db): Promise<(Project & { settingsVersion: number }) | undefined> {
      const row = await trx<ProjectRow & { settings_version: number | string }>('projects').where({ id }).first();
      return row && { ...toProject(row), settingsVersion: Number(row.settings_version) };
    },

    /**
     * Writes the settings if they are still at `version` (the one the change was decided on),
     * and counts the version up; false when another change came first. The webhook events are
     * written only when given (a project that never chose keeps following the default ones).
     */
    async updateSettings(
      id: string,
      version: number,
      next: Omit<ProjectSettingsRecord, 'webhookEvents'> & { webhookEvents?: readonly SubscribableEventType[] },
      trx: Knex = db,
    ): Promise<boolean> {
      const updated = await trx('projects')
        .where({ id, settings_version: version })
        .update({
          name: next.name,
          decision_threshold: next.decisionThreshold,
          groups_enabled: next.groupsEnabled,
          webhook_url: next.webhookUrl,
          ...(next.webhookEvents ? { webhook_events: JSON.stringify(next.webhookEvents) } : {}),
          retention_sessions_days: next.retentionSessionsDays,
          retention_verification_media_days: next.retentionVerificationMediaDays,
          retention_delivered_webhooks_days: next.retentionDeliveredWebhooksDays,
          settings_version: version + 1,
        });
      return updated > 0;
    },

    /** The webhook secret being rotated out (encrypted) and the end of its grace period, if any. */
    async previousWebhookSecret(
      id: string,
      trx: Knex = db,
    ): Promise<{ secretEncrypted: string; until: Date } | undefined> {
      const row = await trx('projects')
        .where({ id })
        .first('webhook_secret_previous_encrypted', 'webhook_secret_previous_until');
      if (!row?.webhook_secret_previous_encrypted || row.webhook_secret_previous_until == null) return undefined;
      return {
        secretEncrypted: row.webhook_secret_previous_encrypted,
        until: new Date(Number(row.webhook_secret_previous_until)),
      };
    },

    /**
     * A new webhook secret; the current one signs beside it until `previousUntil` (no grace: null).
     * Only over the settings version it was decided on; false when another change came first.
     */
    async rotateWebhookSecret(
      id: string,
      version: number,
      next: { secretEncrypted: string; previousEncrypted: string | null; previousUntil: Date | null },
      trx: Knex = db,
    ): Promise<boolean> {
      const updated = await trx('projects')
        .where({ id, settings_version: version })
        .update({
          webhook_secret_encrypted: next.secretEncrypted,
          webhook_secret_previous_encrypted: next.previousEncrypted,
          webhook_secret_previous_until: next.previousUntil?.getTime() ?? null,
          settings_version: version + 1,
        });
      return updated > 0;
    },

    /** The projects with a retention period set, and their periods (the retention pass's list; the table is small). */
    async withRetention(trx: Knex = db): Promise<({ id: string } & RetentionSettings)[]> {
      const rows = await trx<ProjectRow>('projects')
        .whereNotNull('retention_sessions_days')
        .orWhereNotNull('retention_verification_media_days')
        .orWhereNotNull('retention_delivered_webhooks_days')
        .orderBy('id')
        .select(
          'id',
          'retention_sessions_days',
          'retention_verification_media_days',
          'retention_delivered_webhooks_days',
        );
      return rows.map((r) => ({
        id: r.id,
        retentionSessionsDays: days(r.retention_sessions_days),
        retentionVerificationMediaDays: days(r.retention_verification_media_days),
        retentionDeliveredWebhooksDays: days(r.retention_delivered_webhooks_days),
      }));
    },

    async insertApiKey(k: ApiKeyRecord, trx: Knex = db): Promise<void> {
      await trx('api_keys').insert({
        id: k.id,
        project_id: k.projectId,
        key_hash: k.keyHash,
        key_prefix: k.keyPrefix,
        scope: k.scope,
        created_at: k.createdAt.getTime(),
        revoked_at: null,
      });
    },

    /** The active key with this hash, if any (the hash column is unique and indexed). */
    async findActiveKeyByHash(keyHash: string, trx: Knex = db): Promise<ApiKeyRecord | undefined> {
      const row = await trx('api_keys').where({ key_hash: keyHash }).whereNull('revoked_at').first();
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
    },

    async revokeKeys(projectId: string, at: Date, trx: Knex = db): Promise<number> {
      return trx('api_keys')
        .where({ project_id: projectId })
        .whereNull('revoked_at')
        .update({ revoked_at: at.getTime() });
    },

    async activeKeyPrefixes(projectId: string, trx: Knex = db): Promise<{ prefix: string; scope: ApiKeyScope }[]> {
      const rows = await trx('api_keys').where({ project_id: projectId }).whereNull('revoked_at').orderBy('created_at');
      return rows.map((r: { key_prefix: string; scope: string }) => ({
        prefix: r.key_prefix,
        scope: scopeOf(r.scope),
      }));
    },
  };
}

export type ProjectRepository = ReturnType<typeof makeProjectRepository>;
