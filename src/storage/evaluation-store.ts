/**
 * The hot path's port: what an evaluation reads (each read answering the domain's values) and
 * its write applied in one transaction. The use cases speak only this; the engine's runner
 * (`hotStatementsOf`: on SQLite its thread, on PostgreSQL its pipelined connections and prepared
 * statements) is the adapter's, and nothing of it shows here.
 */
import type { Knex } from 'knex';
import type { EvaluationWrite } from '../domain/evaluation/write';
import type { SecretBox } from '../security/secrets';
import { dialectOf, hotStatementsOf } from './db';
import { makeEvaluationReads, type EvaluationReads } from './evaluation/reads';
import { makeEvaluationWrite } from './evaluation/write';
import type { StatementRunner } from './statements';

export interface EvaluationStore extends EvaluationReads {
  /** Applies the write all or nothing; false (nothing written) when the account changed since it was read. */
  commit(write: EvaluationWrite): Promise<boolean>;
}

/** The store over `run` (the engine's hot-path runner by default). */
export function makeEvaluationStore(
  db: Knex,
  box: SecretBox,
  run: StatementRunner = hotStatementsOf(db),
): EvaluationStore {
  return { ...makeEvaluationReads(run.rows, dialectOf(db)), commit: makeEvaluationWrite(db, box, run) };
}
