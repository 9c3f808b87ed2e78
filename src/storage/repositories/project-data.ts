/**
 * Everything a project has gathered, as one set of tables: what `trustgate project reset`
 * deletes (docs/test-mode.md). The project itself stays: its row, its API keys, its webhook
 * URL and secret, the audit of its settings (and of the labels it set), and its lists (the standard three and any custom
 * one), emptied.
 */
import type { Knex } from 'knex';

/**
 * The tables a project's data is in, each with how its rows are found: by their own
 * `project_id`, or through the row they belong to. Listed children first, so that every delete
 * comes before the delete of what it references. test/storage/project-data.test.ts fails when
 * a table of the schema holds a project's rows and is missing here.
 */
export const PROJECT_DATA_TABLES = [
  { table: 'webhook_attempts', via: { column: 'request_id', parent: 'webhooks', key: 'request_id' } },
  { table: 'webhooks' },
  { table: 'evaluation_counts' },
  { table: 'verification_faces' },
  { table: 'verification_documents' },
  { table: 'verification_captures', via: { column: 'session_id', parent: 'verification_sessions', key: 'id' } },
  { table: 'verification_sessions' },
  // Before the links and list memberships whose triggers would otherwise keep it row by row (migration 0042).
  { table: 'network_accounts' },
  { table: 'case_notes' },
  { table: 'case_accounts' },
  { table: 'cases' },
  { table: 'list_members' },
  { table: 'labels' },
  { table: 'identifier_accounts' },
  { table: 'account_uniques' },
  { table: 'session_accounts' },
  { table: 'ingest_challenges' },
  { table: 'session_facts', via: { column: 'session_id', parent: 'sessions', key: 'id' } },
  { table: 'sessions' },
  { table: 'email_domains' },
  { table: 'accounts' },
] as const;

export type ProjectDataTable = (typeof PROJECT_DATA_TABLES)[number]['table'];

export function makeProjectDataRepository() {
  /** The rows of `table` that are the project's. */
  function rowsOf(trx: Knex, table: ProjectDataTable, projectId: string) {
    const entry = PROJECT_DATA_TABLES.find((t) => t.table === table)!; // table is one of them
    if (!('via' in entry)) return trx(table).where({ project_id: projectId });
    const { column, parent, key } = entry.via;
    return trx(table).whereIn(column, trx(parent).where({ project_id: projectId }).select(key));
  }

  return {
    /**
     * Deletes the project's data from every table of PROJECT_DATA_TABLES, in the caller's
     * transaction; returns the rows deleted per table and the media ids of the captured images
     * (the caller deletes those files once the transaction has committed).
     */
    async deleteAll(
      projectId: string,
      trx: Knex,
    ): Promise<{ deleted: Record<ProjectDataTable, number>; mediaIds: string[] }> {
      const deleted = {} as Record<ProjectDataTable, number>;
      let mediaIds: string[] = [];
      // The first statement writes: on SQLite the transaction holds the write lock from its start.
      for (const { table } of PROJECT_DATA_TABLES) {
        if (table === 'verification_captures') mediaIds = await rowsOf(trx, table, projectId).pluck('media_id');
        deleted[table] = await rowsOf(trx, table, projectId).delete();
      }
      return { deleted, mediaIds };
    },
  };
}

export type ProjectDataRepository = ReturnType<typeof makeProjectDataRepository>;
