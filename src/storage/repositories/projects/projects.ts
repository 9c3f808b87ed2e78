/** The projects table: a project's row, read and written whole. */
import type { Knex } from 'knex';
import type { RulesDocument } from '../../../api-types';
import { withCurrentRules } from '../rules';
import { toProject, type Project, type ProjectRow, type RetentionSettings } from './record';

/** What a new project is given: the rest it follows by default. */
export type NewProject = Omit<Project, 'webhookEvents' | 'linkScoreFloor' | keyof RetentionSettings>;

/**
 * A new project follows the default webhook events until it chooses (webhook_events is left
 * null), keeps its data until it sets a retention period, and links at the column's default
 * floor (migration 0041: DEFAULT_LINK_SCORE_FLOOR).
 */
export async function insertProject(db: Knex, p: NewProject): Promise<void> {
  await db<ProjectRow>('projects').insert({
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
}

export async function findProject(db: Knex, id: string): Promise<Project | undefined> {
  const row = await db<ProjectRow>('projects').where({ id }).first();
  return row && toProject(row);
}

/** The project with its current rules document, in one statement (the API key's project, kept by the key cache). */
export async function findProjectWithRules(db: Knex, id: string): Promise<Project | undefined> {
  const row = await withCurrentRules(db).where('p.id', id).first('p.*', 'r.document as rules_document');
  if (!row) return undefined;
  const project = toProject(row);
  if (row.rules_document != null)
    project.rules = {
      version: Number(row.rules_version),
      document: JSON.parse(row.rules_document) as RulesDocument,
    };
  return project;
}

export async function listProjects(db: Knex): Promise<Project[]> {
  const rows = await db<ProjectRow>('projects').orderBy('created_at', 'asc').orderBy('id', 'asc');
  return rows.map(toProject);
}

/** Customers' projects: every project but the demo's. */
export async function countCustomerProjects(db: Knex): Promise<number> {
  const row = await db('projects').where({ demo: false }).count<{ n: number | string }[]>({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

export async function findDemoProject(db: Knex): Promise<Project | undefined> {
  const row = await db<ProjectRow>('projects')
    .where({ demo: true })
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .first();
  return row && toProject(row);
}
