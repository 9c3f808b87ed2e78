/** Drafts of projects' rules documents. Rows are mapped to plain records here and nowhere else. */
import type { Knex } from 'knex';
import type { RuleDefinition } from '../../api-types';

/** What was decided about a draft (a pending one may read as superseded: domain/rules `draftStatus`). */
export type StoredDraftStatus = 'pending' | 'published' | 'rejected';

export interface RuleDraftRecord {
  id: string;
  projectId: string;
  baseVersion: number;
  rules: RuleDefinition[];
  note: string | null;
  author: string;
  createdAt: Date;
  status: StoredDraftStatus;
  decidedBy: string | null;
  decidedAt: Date | null;
  reason: string | null;
  publishedVersion: number | null;
}

interface RuleDraftRow {
  id: string;
  project_id: string;
  base_version: number | string;
  document: string;
  note: string | null;
  author: string;
  created_at: number | string;
  status: string;
  decided_by: string | null;
  decided_at: number | string | null;
  reason: string | null;
  published_version: number | string | null;
}

const STATUSES: readonly StoredDraftStatus[] = ['pending', 'published', 'rejected'];

function toRecord(row: RuleDraftRow): RuleDraftRecord {
  if (!(STATUSES as readonly string[]).includes(row.status))
    throw new Error(`rule draft ${row.id} has an unknown status ${row.status}`);
  return {
    id: row.id,
    projectId: row.project_id,
    baseVersion: Number(row.base_version),
    rules: (JSON.parse(row.document) as { rules: RuleDefinition[] }).rules,
    note: row.note,
    author: row.author,
    createdAt: new Date(Number(row.created_at)),
    status: row.status as StoredDraftStatus,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at === null ? null : new Date(Number(row.decided_at)),
    reason: row.reason,
    publishedVersion: row.published_version === null ? null : Number(row.published_version),
  };
}

export function makeRuleDraftRepository(db: Knex) {
  return {
    async insert(
      d: Omit<RuleDraftRecord, 'status' | 'decidedBy' | 'decidedAt' | 'reason' | 'publishedVersion'>,
      trx: Knex = db,
    ) {
      await trx('rule_drafts').insert({
        id: d.id,
        project_id: d.projectId,
        base_version: d.baseVersion,
        document: JSON.stringify({ rules: d.rules }),
        note: d.note,
        author: d.author,
        created_at: d.createdAt.getTime(),
        status: 'pending',
      });
    },

    /** The project's draft, or undefined (another project's is not found either). */
    async find(projectId: string, id: string, trx: Knex = db): Promise<RuleDraftRecord | undefined> {
      const row = await trx<RuleDraftRow>('rule_drafts').where({ project_id: projectId, id }).first();
      return row ? toRecord(row) : undefined;
    },

    /** The project's newest `limit` drafts, newest first. */
    async newest(projectId: string, limit: number, trx: Knex = db): Promise<RuleDraftRecord[]> {
      const rows = await trx<RuleDraftRow>('rule_drafts')
        .where({ project_id: projectId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit);
      return rows.map(toRecord);
    },

    /**
     * Records the decision on a pending draft; false (nothing written) when it is no longer
     * pending (another admin decided first).
     */
    async decide(
      projectId: string,
      id: string,
      decision: {
        status: Exclude<StoredDraftStatus, 'pending'>;
        decidedBy: string;
        decidedAt: Date;
        reason: string | null;
        publishedVersion: number | null;
      },
      trx: Knex = db,
    ): Promise<boolean> {
      const updated = await trx('rule_drafts').where({ project_id: projectId, id, status: 'pending' }).update({
        status: decision.status,
        decided_by: decision.decidedBy,
        decided_at: decision.decidedAt.getTime(),
        reason: decision.reason,
        published_version: decision.publishedVersion,
      });
      return updated > 0;
    },
  };
}

export type RuleDraftRepository = ReturnType<typeof makeRuleDraftRepository>;
