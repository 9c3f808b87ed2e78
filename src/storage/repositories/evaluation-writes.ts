/**
 * An evaluation's writes, in one transaction: the account (only if it has not changed since it
 * was read: its version), the session's link to it, its lists, and the session's evaluation.
 * On SQLite they run on the SQLite thread, on the connection the evaluation's reads use
 * (sqlite-thread.ts), so that its page cache survives them.
 */
import type { Knex } from 'knex';
import type { ListName } from '../../api-types';
import type { AccountRecord } from '../../domain/evaluation';
import { onSqliteThread } from '../db';
import { makeAccountRepository } from './accounts';
import { makeListRepository } from './lists';
import { makeSessionRepository, type SessionEvaluation } from './sessions';

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
  };
}

export function makeEvaluationWritesRepository(db: Knex) {
  const accounts = makeAccountRepository(db);
  const sessions = makeSessionRepository(db);
  const lists = makeListRepository(db);
  return {
    /** Writes it all or nothing; false (nothing written) when the account changed since it was read. */
    async write(w: EvaluationWrite): Promise<boolean> {
      const { account } = w;
      if (!account) {
        await sessions.setEvaluation(w.projectId, w.sessionId, w.evaluation);
        return true;
      }
      return db.transaction(async (trx) => {
        if (!(await accounts.writeEvaluated(account.record, account.existing, trx))) return false;
        if (account.linksSession) await sessions.addAccount(w.projectId, w.sessionId, account.record.id, w.at, trx);
        await lists.apply(w.projectId, account.record.id, account.lists, w.at, trx);
        await sessions.setEvaluation(w.projectId, w.sessionId, w.evaluation, trx);
        return true;
      });
    },
  };
}

export type EvaluationWritesRepository = ReturnType<typeof makeEvaluationWritesRepository>;

/** The evaluation's writes as the services use them: on the SQLite thread when the database has one. */
export function makeEvaluationWrites(db: Knex): EvaluationWritesRepository {
  return onSqliteThread(db, 'writes', makeEvaluationWritesRepository(db), ['write']);
}
