/**
 * Evaluations as their session rows keep them (migration 0027), for receipts and backtests:
 * the session's latest evaluation with its request id and compact inputs. Nothing is written
 * here: the evaluation's own `UPDATE sessions` (sessions.ts `evaluationStatement`) writes them.
 */
import type { Knex } from 'knex';
import type { EvaluatedRiskSignalScores, EvaluatedSession, EvaluationRules, LabelValue } from '../../api-types';
import { keptInputs, type KeptEvaluation } from '../../domain/evaluation/receipt';

interface KeptRow {
  id: string;
  evaluation_request_id: string;
  evaluated_at: number | string;
  decision: string;
  risk_scores: string;
  rules_outcome: string | null;
  evaluation_inputs: string;
}

const KEPT_COLUMNS = [
  's.id',
  's.evaluation_request_id',
  's.evaluated_at',
  's.decision',
  's.risk_scores',
  's.rules_outcome',
  's.evaluation_inputs',
];

/** What the project had when it had no rules: version 0, nothing matched. */
const NO_RULES_VIEW: EvaluationRules = { version: 0, matched: [], decided_by: null, tags: [] };

function kept(projectId: string, r: KeptRow): KeptEvaluation {
  const risk = JSON.parse(r.risk_scores) as { scores: EvaluatedRiskSignalScores; spoofedIp: boolean };
  return {
    requestId: r.evaluation_request_id,
    projectId,
    sessionId: r.id,
    at: new Date(Number(r.evaluated_at)),
    decision: r.decision as KeptEvaluation['decision'],
    riskScores: risk.scores,
    spoofedIp: risk.spoofedIp,
    rules: r.rules_outcome ? (JSON.parse(r.rules_outcome) as EvaluationRules) : NO_RULES_VIEW,
    inputs: keptInputs(r.evaluation_inputs),
  };
}

/** Where a page of kept evaluations ends: its last session's start time and id. */
export interface KeptCursor {
  startTime: number;
  sessionId: string;
}

/** A stored evaluation with its session's stored facts, and the cursor after it. */
export interface KeptWithSession {
  kept: KeptEvaluation;
  session: EvaluatedSession;
  cursor: KeptCursor;
}

export function makeReceiptRepository(db: Knex) {
  return {
    /** The project's evaluation of this request, if its session still keeps it (the latest). */
    async find(projectId: string, requestId: string, trx: Knex = db): Promise<KeptEvaluation | undefined> {
      const row: KeptRow | undefined = await trx('sessions as s')
        .select(KEPT_COLUMNS)
        .where({ 's.project_id': projectId, 's.evaluation_request_id': requestId })
        .whereNotNull('s.evaluation_inputs')
        .orderBy('s.evaluated_at', 'desc')
        .first();
      return row && kept(projectId, row);
    },

    /**
     * A page of the project's sessions started in `started` whose latest evaluation was made in
     * [from, to), in (start_time, id) order after `after`, each with its stored facts (a
     * backtest's batch). A range of `sessions (project_id, start_time, id)`: the caller bounds
     * the start times (a session is evaluated within a day of its start), so a backtest reads
     * the range's sessions, not the project's.
     */
    async page(
      projectId: string,
      range: { from: Date; to: Date; started: { from: Date; to: Date } },
      limit: number,
      after?: KeptCursor,
      trx: Knex = db,
    ): Promise<KeptWithSession[]> {
      const q = trx('sessions as s')
        .join('session_facts as f', 'f.session_id', 's.id')
        .select([...KEPT_COLUMNS, 's.start_time', 'f.facts'])
        .where('s.project_id', projectId)
        .where('s.start_time', '>=', after?.startTime ?? range.started.from.getTime())
        .where('s.start_time', '<', range.started.to.getTime())
        .where('s.evaluated_at', '>=', range.from.getTime())
        .where('s.evaluated_at', '<', range.to.getTime())
        .whereNotNull('s.evaluation_inputs')
        // (Always so with inputs; it lets PostgreSQL's planner take the partial index of request
        // ids, migration 0036, where it would not take the start times'.)
        .whereNotNull('s.evaluation_request_id')
        .orderBy([
          { column: 's.start_time', order: 'asc' },
          { column: 's.id', order: 'asc' },
        ])
        .limit(limit);
      // The `>=` above lets both engines seek the index to the page's first session.
      if (after)
        q.where(function () {
          this.where('s.start_time', '>', after.startTime).orWhere(function () {
            this.where('s.start_time', '=', after.startTime).andWhere('s.id', '>', after.sessionId);
          });
        });
      const rows: (KeptRow & { start_time: number | string; facts: string })[] = await q;
      return rows.map((r) => ({
        kept: kept(projectId, r),
        session: JSON.parse(r.facts) as EvaluatedSession,
        cursor: { startTime: Number(r.start_time), sessionId: r.id },
      }));
    },

    /**
     * Forgets the receipts of the account's sessions (erasure: they name it): their request id
     * and inputs; the sessions' decisions stay. How many.
     */
    async deleteForAccount(projectId: string, accountId: string, trx: Knex = db): Promise<number> {
      return trx('sessions')
        .where('project_id', projectId)
        .whereIn(
          'id',
          trx('session_accounts').select('session_id').where({ project_id: projectId, account_id: accountId }),
        )
        .whereNotNull('evaluation_inputs')
        .update({ evaluation_request_id: null, evaluation_inputs: null });
    },

    /** The accounts' current labels (labels_one_current). */
    async currentLabels(
      projectId: string,
      accountIds: readonly string[],
      trx: Knex = db,
    ): Promise<Map<string, LabelValue>> {
      if (accountIds.length === 0) return new Map();
      const rows: { account_id: string; label: string }[] = await trx('labels')
        .select('account_id', 'label')
        .where({ project_id: projectId, current: true })
        .whereIn('account_id', [...new Set(accountIds)]);
      return new Map(rows.map((r) => [r.account_id, r.label as LabelValue]));
    },
  };
}

export type ReceiptRepository = ReturnType<typeof makeReceiptRepository>;
