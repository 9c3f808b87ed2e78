/**
 * An evaluation's write (domain/evaluation/write.ts), applied in one transaction: the account
 * (only if it has not changed since it was read: its version), the session's link to it, its list
 * changes with their events, the case a rule opens, the session's evaluation, and the webhooks it queues. Built here as
 * statements (storage/statements.ts) and run by the engine's runner: on SQLite its thread, on the
 * connection the evaluation's reads use, so that its page cache survives them; on PostgreSQL one
 * round trip.
 */
import type { Knex } from 'knex';
import type { EvaluationWrite, MembershipWrite } from '../../domain/evaluation/write';
import type { SecretBox } from '../../security/secrets';
import type { Statement, StatementRunner } from '../statements';
import { evaluatedAccountStatements } from '../repositories/accounts';
import { makeCaseRepository } from '../repositories/cases';
import { makeListRepository } from '../repositories/lists';
import { evaluationStatement, linkStatements } from '../repositories/sessions';
import { makeWebhookRows } from '../repositories/webhook-rows';

/**
 * `shareLock`: the statement by which an account's write takes its share of the account's lock
 * (PostgreSQL's adapter: postgres/account-locks.ts), unless the write holds it exclusively.
 */
export function makeEvaluationWrite(
  db: Knex,
  box: SecretBox,
  run: StatementRunner,
  shareLock?: (projectId: string, accountId: string) => Statement,
) {
  const lists = makeListRepository(db);
  const cases = makeCaseRepository(db);
  const webhooks = makeWebhookRows(db, box);

  /**
   * A membership step, each of its events just before it, queued only if the step will change
   * that membership: the event follows the rows, not an earlier read of them.
   */
  function membershipStatements(w: EvaluationWrite, accountId: string, m: MembershipWrite): Statement[] {
    return [
      ...m.events.map((e) =>
        webhooks.insertWhenStatement(
          e.webhook,
          lists.membershipCondition(w.projectId, accountId, e.list, e.change === 'removed'),
        ),
      ),
      lists.stepStatement(w.projectId, accountId, m.step, w.at),
    ];
  }

  /** Writes it all or nothing; false (nothing written) when the account changed since it was read. */
  return async function commit(w: EvaluationWrite, held = { exclusively: false }): Promise<boolean> {
    const { account } = w;
    const evaluation = evaluationStatement(w.projectId, w.sessionId, w.evaluation);
    const queued = w.webhooks.map(webhooks.insertStatement);
    const events = (account?.memberships ?? []).some((m) => m.events.length > 0);
    // One announcement of whatever the transaction queued.
    const notify = queued.length > 0 || events ? webhooks.notifyStatements() : [];
    if (!account) {
      if (queued.length) return run.transaction([evaluation, ...queued, ...notify]);
      await run.rows(evaluation.sql, evaluation.bindings);
      return true;
    }
    const id = account.record.id;
    return run.transaction([
      ...(shareLock && !held.exclusively ? [shareLock(w.projectId, id)] : []),
      ...evaluatedAccountStatements(account.record, account.existing),
      ...(account.linksSession ? linkStatements(w.projectId, w.sessionId, id, w.at) : []),
      ...account.memberships.flatMap((m) => membershipStatements(w, id, m)),
      ...(account.openCase
        ? cases.openStatements(account.openCase.record, {
            id: account.openCase.auditId,
            requestId: w.evaluation.receipt?.requestId ?? account.openCase.record.id,
          })
        : []),
      evaluation,
      ...queued,
      ...notify,
    ]);
  };
}
