/**
 * The overview's kept counts (migration 0032): one row per project, UTC day and metric. An
 * evaluation adds one to its metrics in its own write transaction (countStatement, run by
 * evaluation-writes.ts); getStats reads a range of days, one range of the primary key.
 */
import type { Knex } from 'knex';
import type { StatsRow } from '../../domain/stats';
import type { Statement } from '../statements';

/** The upsert adding one to each metric of the day (both engines: INSERT … ON CONFLICT DO UPDATE). */
export function countStatement(projectId: string, day: string, metrics: readonly string[]): Statement {
  return {
    sql:
      `INSERT INTO evaluation_counts (project_id, day, metric, count) VALUES ${metrics.map(() => '(?, ?, ?, 1)').join(', ')} ` +
      `ON CONFLICT (project_id, day, metric) DO UPDATE SET count = evaluation_counts.count + 1`,
    bindings: metrics.flatMap((metric) => [projectId, day, metric]),
  };
}

export function makeEvaluationCountRepository(db: Knex) {
  return {
    /** The project's counts from `from` to `to` (UTC days, both included). */
    async range(projectId: string, from: string, to: string, trx?: Knex.Transaction): Promise<StatsRow[]> {
      const rows: { day: string; metric: string; count: number | string }[] = await (trx ?? db)('evaluation_counts')
        .where({ project_id: projectId })
        .whereBetween('day', [from, to])
        .select('day', 'metric', 'count');
      return rows.map((r) => ({ day: r.day, metric: r.metric, count: Number(r.count) }));
    },
  };
}

export type EvaluationCountRepository = ReturnType<typeof makeEvaluationCountRepository>;
