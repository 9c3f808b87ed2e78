/**
 * The hot path's port: what an evaluation reads (each read answering the domain's values) and
 * its write applied in one transaction. The use cases speak only this; the engine's runner
 * (`hotStatementsOf`: on SQLite its thread, on PostgreSQL its pipelined connections and prepared
 * statements) is the adapter's, and nothing of it shows here.
 */
import type { Knex } from 'knex';
import type { EvaluationWrite } from '../domain/evaluation/write';
import type { SecretBox } from '../security/secrets';
import { accountTurnsOf, dialectOf, hotStatementsOf } from './db';
import { makeEvaluationReads, type EvaluationReads } from './evaluation/reads';
import { makeEvaluationWrite } from './evaluation/write';

import type { StatementRunner } from './statements';

export interface EvaluationStore extends EvaluationReads {
  /**
   * Applies the write all or nothing; false (nothing written) when the account changed since it
   * was read, or when another node's authenticate of it runs `exclusively` (`held`: this one does).
   */
  commit(write: EvaluationWrite, held?: { exclusively: boolean }): Promise<boolean>;
  /**
   * Runs `work` (reads and commit) as the one authenticate of the account that may commit, on any
   * node of the database: an authenticate that lost a race on it runs again this way.
   */
  exclusively<T>(projectId: string, accountId: string, work: () => Promise<T>): Promise<T>;
}

/** The store over `run` (the engine's hot-path runner by default). */
export function makeEvaluationStore(
  db: Knex,
  box: SecretBox,
  run: StatementRunner = hotStatementsOf(db),
): EvaluationStore {
  const turns = accountTurnsOf(db);
  return {
    ...makeEvaluationReads(run.rows, dialectOf(db)),
    commit: makeEvaluationWrite(db, box, run, turns.shareLock),
    exclusively: turns.exclusively,
  };
}
