/** Handlers of the `Project` tag, named after their operationIds. */
import type { Request, Response } from 'express';
import type {
  AuditEvents,
  EvaluationStats,
  Operators,
  ProjectSettings,
  ProjectUpdate,
  WebhookSecretRotated,
} from '../../api-types';
import type { Project } from '../../storage/repositories/projects';
import type { OperatorUseCases } from '../../usecases/operators';
import { DEFAULT_WEBHOOK_SECRET_GRACE_SECONDS, type ProjectUseCases } from '../../usecases/projects';
import { actorOf, projectOf } from '../context';

function settingsOf(p: Project, requestId: string): ProjectSettings {
  return {
    request_id: requestId,
    project_id: p.id,
    name: p.name,
    decision_threshold: p.decisionThreshold,
    link_score_floor: p.linkScoreFloor,
    groups_enabled: p.groupsEnabled,
    webhook_url: p.webhookUrl,
    test: p.test,
    webhook_events: p.webhookEvents,
    retention_sessions_days: p.retentionSessionsDays,
    retention_verification_media_days: p.retentionVerificationMediaDays,
    retention_delivered_webhooks_days: p.retentionDeliveredWebhooksDays,
    created_at: p.createdAt.toISOString(),
  };
}

export function makeProjectHandlers(projects: ProjectUseCases, operators: Pick<OperatorUseCases, 'list'>) {
  return {
    async getProject(req: Request, res: Response) {
      res.json(settingsOf(projectOf(req), req.requestId));
    },
    async updateProject(req: Request<Record<string, string>, unknown, ProjectUpdate>, res: Response) {
      const body = req.body;
      const updated = await projects.update(
        projectOf(req).id,
        {
          name: body.name,
          decisionThreshold: body.decision_threshold,
          linkScoreFloor: body.link_score_floor,
          groupsEnabled: body.groups_enabled,
          webhookUrl: body.webhook_url,
          webhookEvents: body.webhook_events,
          retentionSessionsDays: body.retention_sessions_days,
          retentionVerificationMediaDays: body.retention_verification_media_days,
          retentionDeliveredWebhooksDays: body.retention_delivered_webhooks_days,
        },
        actorOf(req),
        req.requestId,
      );
      res.json(settingsOf(updated, req.requestId));
    },
    async rotateWebhookSecret(req: Request, res: Response) {
      const q = req.query as { grace_period_seconds?: number };
      const grace = q.grace_period_seconds ?? DEFAULT_WEBHOOK_SECRET_GRACE_SECONDS;
      const rotated = await projects.rotateWebhookSecret(projectOf(req).id, grace, actorOf(req), req.requestId);
      const body: WebhookSecretRotated = { request_id: req.requestId, ...rotated };
      // The new secret is in this answer only: never cached on the way.
      res.set('cache-control', 'no-store').json(body);
    },
    async getStats(req: Request, res: Response) {
      const q = req.query as { from?: string; to?: string };
      const body: EvaluationStats = {
        request_id: req.requestId,
        ...(await projects.stats(projectOf(req).id, q.from, q.to)),
      };
      res.json(body);
    },
    async listAuditEvents(req: Request, res: Response) {
      const q = req.query as { limit?: number; cursor?: string };
      const page = await projects.auditEvents(projectOf(req).id, q.limit ?? 50, q.cursor);
      const body: AuditEvents = { request_id: req.requestId, ...page };
      res.json(body);
    },
    async listOperators(req: Request, res: Response) {
      const body: Operators = { request_id: req.requestId, operators: await operators.list(projectOf(req).id) };
      res.json(body);
    },
  };
}
