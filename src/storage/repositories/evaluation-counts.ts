/**
 * The overview's kept counts (migration 0032): one row per project, UTC day and metric. The
 * evaluations add to an in-process tally (domain/stats.ts makeStatsTally), never a statement of
 * their own; the flusher (usecases/stats-flusher.ts) adds the tally's deltas here with one
 * additive upsert; getStats reads a range of days, one range of the primary key.
 */
import type { Knex } from 'knex';
import type { StatsDelta, StatsRow } from '../../domain/stats';

/** Rows per upsert: 4 values each, well under SQLite's and PostgreSQL's bound-parameter limits. */
const ROWS_PER_STATEMENT = 1000;

export function makeEvaluationCountRepository(db: Knex) {
  return {
    /**
     * Adds the deltas to the kept counts: one multi-row INSERT … ON CONFLICT DO UPDATE SET
     * count = count + excluded.count (both engines), so processes flushing at the same time add up.
     */
    async add(deltas: readonly StatsDelta[], trx?: Knex.Transaction): Promise<void> {
      for (let i = 0; i < deltas.length; i += ROWS_PER_STATEMENT) {
        const chunk = deltas.slice(i, i + ROWS_PER_STATEMENT);
        await (trx ?? db).raw(
          `INSERT INTO evaluation_counts (project_id, day, metric, count) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')} ` +
            `ON CONFLICT (project_id, day, metric) DO UPDATE SET count = evaluation_counts.count + excluded.count`,
          chunk.flatMap((d) => [d.projectId, d.day, d.metric, d.count]),
        );
      }
    },

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
