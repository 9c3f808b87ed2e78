/** The projects of the installation, as the CLI and console list them. */
import type { ProjectContext } from './deps';

export interface ProjectSummary {
  project_id: string;
  name: string;
  webhook_url: string | null;
  groups_enabled: boolean;
  decision_threshold: number;
  link_score_floor: number;
  /** The /demo page's project. */
  demo: boolean;
  /** A test project (docs/test-mode.md). */
  test: boolean;
  api_keys: string[];
  created_at: string;
}

export async function list({ projects }: ProjectContext): Promise<ProjectSummary[]> {
  const all = await projects.list();
  return Promise.all(
    all.map(async (p) => ({
      project_id: p.id,
      name: p.name,
      webhook_url: p.webhookUrl,
      groups_enabled: p.groupsEnabled,
      decision_threshold: p.decisionThreshold,
      link_score_floor: p.linkScoreFloor,
      demo: p.demo,
      test: p.test,
      api_keys: (await projects.activeKeyPrefixes(p.id)).map(
        (k) => `${k.prefix}…${k.scope === 'read_only' ? ' (read-only)' : ''}`,
      ),
      created_at: p.createdAt.toISOString(),
    })),
  );
}
