/**
 * An evaluation's writes, in one transaction: the account (only if it has not changed since it
 * was read: its version), the session's link to it, its lists (the request's, then the rules'),
 * and the session's evaluation (with what the rules did).
 * They are built here as statements (storage/statements.ts) and run by the connection that
 * serves them: on SQLite the SQLite thread's, on the connection the evaluation's reads use
 * (sqlite-thread.ts), so that its page cache survives them; on PostgreSQL a knex transaction.
 */
import type { Knex } from 'knex';
import type { ListName } from '../../api-types';
import type { AccountRecord } from '../../domain/evaluation';
import type { ListAction } from '../../domain/rules';
import { statementsOn, type Statement, type StatementRunner } from '../statements';
import { evaluatedAccountStatements } from './accounts';
import { makeListRepository, type ApplyStep, type MembershipChange } from './lists';
import { evaluationStatement, linkStatements, type SessionEvaluation } from './sessions';

export interface EvaluationWrite {
  projectId: string;
  sessionId: string;
  at: Date;
  evaluation: SessionEvaluation;
  /** authenticate: the account as evaluated, as it was read, whether this session links to it, the lists asked for. */
  account?: {
    record: AccountRecord;
    existing?: AccountRecord;
    linksSession: boolean;
    lists: readonly ListName[];
    /** The rules' list actions, applied in order after the request's lists (docs/rules.md). */
    listActions?: readonly ListAction[];
    /**
     * The list events to queue (when the project is sent them): the statement that queues the
     * webhook reporting that the account was `added` to or `removed` from a list by the request's
     * lists (`rule` undefined) or a rule's action, on the condition `when` (outbox.ts
     * enqueueWhenStatement). It runs just before the statement that may change the membership,
     * and `when` holds only if that statement will change it: the event follows the rows, not an
     * earlier read of them.
     */
    listEvent?: (change: MembershipChange['change'], listName: string, when: Statement, rule?: string) => Statement[];
  };
  /** Statements the use case adds to the same transaction: the webhooks the evaluation queues (webhooks/outbox.ts), and their announcement. */
  queued?: readonly Statement[];
}

export function makeEvaluationWritesRepository(db: Knex, run: StatementRunner) {
  const lists = makeListRepository(db);
  return {
    /** Writes it all or nothing; false (nothing written) when the account changed since it was read. */
    async write(w: EvaluationWrite): Promise<boolean> {
      const { account } = w;
      const evaluation = evaluationStatement(w.projectId, w.sessionId, w.evaluation);
      const queued = w.queued ?? [];
      if (!account) {
        if (queued.length) return run.transaction([evaluation, ...queued]);
        await run.rows(evaluation.sql, evaluation.bindings);
        return true;
      }
      const id = account.record.id;
      const { listEvent } = account;
      const withEvents = (steps: ApplyStep[], rule?: string): Statement[] =>
        steps.flatMap((step) => [
          ...(listEvent && step.reports
            ? step.lists.flatMap((list) =>
                listEvent(
                  step.reports!,
                  list,
                  lists.membershipCondition(w.projectId, id, list, step.reports === 'removed'),
                  rule,
                ),
              )
            : []),
          step.statement,
        ]);
      const listStatements = [
        ...withEvents(lists.applySteps(w.projectId, id, account.lists, w.at)),
        ...(account.listActions ?? []).flatMap((a) =>
          withEvents(
            a.action === 'add'
              ? lists.applySteps(w.projectId, id, [a.list], w.at)
              : lists.removeSteps(w.projectId, id, [a.list]),
            a.rule,
          ),
        ),
      ];
      const statements: Statement[] = [
        ...evaluatedAccountStatements(account.record, account.existing),
        ...(account.linksSession ? linkStatements(w.projectId, w.sessionId, id, w.at) : []),
        ...listStatements,
        evaluation,
        ...queued,
      ];
      return run.transaction(statements);
    },
  };
}

export type EvaluationWritesRepository = ReturnType<typeof makeEvaluationWritesRepository>;

/** The evaluation's writes as the services use them: on the SQLite thread when the database has one. */
export function makeEvaluationWrites(db: Knex): EvaluationWritesRepository {
  return makeEvaluationWritesRepository(db, statementsOn(db));
}
