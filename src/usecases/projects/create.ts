/** Creating a project with its standard lists, its first key and its webhook secret. */
import { DEFAULT_LINK_SCORE_FLOOR } from '../../domain/linking';
import { DEFAULT_WEBHOOK_EVENTS } from '../../domain/webhook-events';
import { BadRequestError } from '../../errors';
import { generateWebhookSecret } from '../../security/secrets';
import { withSetupLock } from '../../storage/db';
import type { Project } from '../../storage/repositories/projects';
import { createStandardLists } from '../lists';
import { issueKey } from './api-keys';
import type { ProjectContext } from './deps';
import { validateWebhookUrl } from './settings';

export const DEFAULT_DECISION_THRESHOLD = 0.8;

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

export interface NewProject {
  name: string;
  webhookUrl?: string | null;
  groups?: boolean;
  demo?: boolean;
  /** A test project: `tg_test_` keys and forced outcomes (docs/test-mode.md). */
  test?: boolean;
}

export async function create(ctx: ProjectContext, input: NewProject): Promise<ProjectCredentials> {
  const { db, clock, random, secretBox, projects, lists } = ctx;
  const name = input.name.trim();
  if (!name) throw new BadRequestError('project name must not be empty');
  const webhookUrl = input.webhookUrl ? validateWebhookUrl(input.webhookUrl) : null;
  const webhookSecret = generateWebhookSecret(random);
  const project: Project = {
    id: random.uuid(),
    name,
    decisionThreshold: DEFAULT_DECISION_THRESHOLD,
    // What the column gives a new row (migration 0041); test/http/project.test.ts holds them equal.
    linkScoreFloor: DEFAULT_LINK_SCORE_FLOOR,
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
    return issueKey(ctx, project, trx);
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
}

/**
 * Creates a first project when there is none; returns its credentials, or undefined. Under the
 * database's setup lock: nodes starting at once on an empty database make one between them.
 */
export async function ensureDefault(ctx: ProjectContext): Promise<ProjectCredentials | undefined> {
  return withSetupLock(ctx.db, async () => {
    if ((await ctx.projects.countCustomerProjects()) > 0) return undefined;
    return create(ctx, { name: 'Default project' });
  });
}

/**
 * The /demo page's own project, created on first use. Its sessions are the demo's only: the
 * demo can never show a customer's data.
 */
export async function ensureDemo(ctx: ProjectContext): Promise<Project> {
  const found = await ctx.projects.findDemo();
  if (found) return found;
  // Under the setup lock, looked for again: another node's first visitor may have made it.
  return withSetupLock(ctx.db, async () => {
    const made = await ctx.projects.findDemo();
    if (made) return made;
    const created = await create(ctx, { name: 'Demo (the /demo page)', demo: true });
    return (await ctx.projects.findById(created.project_id))!;
  });
}
