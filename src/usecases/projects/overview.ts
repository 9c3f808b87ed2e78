/** What the console's overview and audit pages read of a project. */
import type { AuditEvent, EvaluationStats } from '../../api-types';
import { evaluationStats, statsRange } from '../../domain/stats';
import { BadRequestError } from '../../errors';
import type { ProjectContext } from './deps';

/** The overview: evaluations per day by decision and the signals raised, from the kept counts (a 400 for a bad range). */
export async function stats(
  deps: ProjectContext,
  projectId: string,
  from?: string,
  to?: string,
): Promise<Omit<EvaluationStats, 'request_id'>> {
  const range = statsRange(from, to, deps.clock.now());
  if ('refused' in range) throw new BadRequestError(range.refused);
  return evaluationStats(await deps.evaluationCounts.range(projectId, range.from, range.to), range);
}

/** A page of the project's audit events, newest first; `cursor` is the previous page's `next_cursor`. */
export async function auditEvents(
  deps: ProjectContext,
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
}
