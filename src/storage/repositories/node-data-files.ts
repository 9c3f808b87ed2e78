/**
 * The IP data files each node loaded (table node_data_files, migration 0040): one row per node
 * and file, its digest and when the node last said so. Rows of nodes gone quiet are pruned.
 */
import type { Knex } from 'knex';
import type { DataFileDigest, NodeDataFile } from '../../domain/data-files';

const TABLE = 'node_data_files';

export function makeNodeDataFiles(db: Knex) {
  return {
    /** Records (again) what `node` loaded, as of `at`. */
    async record(node: string, files: readonly DataFileDigest[], at: Date): Promise<void> {
      if (files.length === 0) return;
      await db(TABLE)
        .insert(files.map((f) => ({ node, file: f.file, sha256: f.sha256, seen_at: at.getTime() })))
        .onConflict(['node', 'file'])
        .merge(['sha256', 'seen_at']);
    },
    /** Every node's files seen since `since`. */
    async since(since: Date): Promise<NodeDataFile[]> {
      const rows = (await db(TABLE)
        .where('seen_at', '>=', since.getTime())
        .select('node', 'file', 'sha256', 'seen_at')) as {
        node: string;
        file: string;
        sha256: string;
        seen_at: number | string;
      }[];
      return rows.map((r) => ({ node: r.node, file: r.file, sha256: r.sha256, seenAt: new Date(Number(r.seen_at)) }));
    },
    /** Removes the rows of nodes not seen since `before`. */
    async prune(before: Date): Promise<number> {
      return db(TABLE).where('seen_at', '<', before.getTime()).delete();
    },
  };
}

export type NodeDataFiles = ReturnType<typeof makeNodeDataFiles>;
