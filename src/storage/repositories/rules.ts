/** Projects' rules documents, every version kept. Rows are mapped to plain records here and nowhere else. */
import type { Knex } from 'knex';
import type { RulesDocument } from '../../api-types';

/** A stored version of a project's rules document. */
export interface RulesRecord {
  projectId: string;
  version: number;
  document: RulesDocument;
  actor: string;
  createdAt: Date;
}

interface RulesRow {
  project_id: string;
  version: number | string;
  document: string;
  actor: string;
  created_at: number | string;
}

function toRecord(row: RulesRow): RulesRecord {
  return {
    projectId: row.project_id,
    version: Number(row.version),
    document: JSON.parse(row.document) as RulesDocument,
    actor: row.actor,
    createdAt: new Date(Number(row.created_at)),
  };
}

/** `projects as p` with its current rules row as `r` (none before the first version): one primary-key join. */
export function withCurrentRules(db: Knex) {
  return db('projects as p').leftJoin('project_rules as r', function () {
    this.on('r.project_id', '=', 'p.id').andOn('r.version', '=', 'p.rules_version');
  });
}

export function makeRulesRepository(db: Knex) {
  return {
    /** The project's current version (0: none yet) and its document; undefined when there is no such project. */
    async current(projectId: string, trx: Knex = db): Promise<{ version: number; record?: RulesRecord } | undefined> {
      const row = await withCurrentRules(trx)
        .where('p.id', projectId)
        .first('p.rules_version', 'r.project_id', 'r.version', 'r.document', 'r.actor', 'r.created_at');
      if (!row) return undefined;
      return { version: Number(row.rules_version), ...(row.document != null ? { record: toRecord(row) } : {}) };
    },

    /** One stored version of the project's document; undefined for version 0 and for one never stored. */
    async version(projectId: string, version: number, trx: Knex = db): Promise<RulesRecord | undefined> {
      const row = await trx<RulesRow>('project_rules').where({ project_id: projectId, version }).first();
      return row ? toRecord(row) : undefined;
    },

    /**
     * Stores `document` as the version after `fromVersion` and makes it current, if the project
     * is still at `fromVersion`; false (nothing written) when another change came first.
     */
    async insertNext(
      projectId: string,
      fromVersion: number,
      document: RulesDocument,
      actor: string,
      at: Date,
      trx: Knex = db,
    ): Promise<boolean> {
      const updated = await trx('projects')
        .where({ id: projectId, rules_version: fromVersion })
        .update({ rules_version: fromVersion + 1 });
      if (updated === 0) return false;
      await trx('project_rules').insert({
        project_id: projectId,
        version: fromVersion + 1,
        document: JSON.stringify(document),
        actor,
        created_at: at.getTime(),
      });
      return true;
    },
  };
}

export type RulesRepository = ReturnType<typeof makeRulesRepository>;
