/**
 * Whether the database changed between two moments, seen from outside the app, on either
 * engine, for tests that assert a refused request wrote nothing.
 *
 * - SQLite: `PRAGMA data_version` on a second connection of its own to the database file.
 *   SQLite changes it whenever another connection commits a change to the file (a rolled-back
 *   transaction leaves it), and nothing else moves it.
 * - PostgreSQL: the WAL between two positions, read with pg_walinspect and counted only where
 *   it is a row written (insert, update, delete, truncate) to one of this database's own tables.
 *   The WAL position alone is the server's: every test file's database, autovacuum and
 *   checkpoints move it. Each test file has a database of its own (helpers/db.ts) and only its
 *   app writes that database's tables, so what is left after the filter is that app's doing.
 *   Maintenance that also writes WAL on this database (page pruning by reads, autovacuum's
 *   VACUUM and ANALYZE, hint bits) is not a row written and is filtered out by record type and
 *   relation (ANALYZE writes pg_statistic, a catalog). Committed writes are flushed before the
 *   commit returns, so they lie below the flush position read after the request.
 */
import BetterSqlite3 from 'better-sqlite3';
import knex, { type Knex } from 'knex';
import type { TestDb } from './db';

export interface ChangeProbe {
  /** The moment to compare with. */
  mark(): Promise<string>;
  /** What was written since `mark` (empty when nothing was): a line per write, naming its table. */
  writesSince(mark: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function makeChangeProbe(testDb: TestDb): Promise<ChangeProbe> {
  if (testDb.dialect === 'sqlite') return sqliteProbe(testDb.sqliteFile!);
  return postgresProbe(testDb.url!);
}

function sqliteProbe(file: string): ChangeProbe {
  const conn = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  const version = () => String(conn.pragma('data_version', { simple: true }));
  return {
    mark: async () => version(),
    writesSince: async (mark) => (version() === mark ? [] : [`data_version ${mark} → ${version()}`]),
    close: async () => void conn.close(),
  };
}

const ROW_WRITE = /^(INSERT|UPDATE|HOT_UPDATE|DELETE|TRUNCATE|MULTI_INSERT)(\+INIT)?$/;

async function postgresProbe(url: string): Promise<ChangeProbe> {
  const db: Knex = knex({ client: 'pg', connection: url, pool: { min: 1, max: 1 } });
  await db.raw('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
  const oid = String((await db.raw('SELECT oid FROM pg_database WHERE datname = current_database()')).rows[0].oid);
  // The files of this database's tables (and of their TOAST tables, where long values go).
  const tables: { table: string; node: string | null; toast: string | null }[] = (
    await db.raw(`
      SELECT c.relname AS table, pg_relation_filenode(c.oid)::text AS node,
             CASE WHEN c.reltoastrelid <> 0 THEN pg_relation_filenode(c.reltoastrelid)::text END AS toast
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r'`)
  ).rows;
  const tableOf = new Map<string, string>();
  for (const t of tables) {
    if (t.node) tableOf.set(t.node, t.table);
    if (t.toast) tableOf.set(t.toast, `${t.table} (TOAST)`);
  }
  const blockRef = /rel \d+\/(\d+)\/(\d+)/g;
  return {
    mark: async () => String((await db.raw('SELECT pg_current_wal_insert_lsn() AS lsn')).rows[0].lsn),
    async writesSince(mark) {
      // The flush position read once: read twice, the comparison could see a later one than the
      // text, and an `end` equal to the mark made pg_get_wal_records_info fail ("WAL start LSN
      // must be less than end LSN"; seen once in CI on 2026-11-25).
      const { end, after } = (
        await db.raw(
          'SELECT f::text AS end, f > ?::pg_lsn AS after FROM (SELECT pg_current_wal_flush_lsn() AS f) AS now',
          [mark],
        )
      ).rows[0];
      if (!after) return [];
      let rows: { record_type: string; block_ref: string | null }[];
      try {
        ({ rows } = await db.raw(
          `SELECT record_type, block_ref FROM pg_get_wal_records_info(?::pg_lsn, ?::pg_lsn) WHERE resource_manager IN ('Heap', 'Heap2')`,
          [mark, end],
        ));
      } catch (err) {
        // No whole record between the mark and the flush position: the record that starts at
        // the mark (someone else's: autovacuum, another test file's database) is flushed only in
        // part. The WAL is flushed in order, so a commit of this app's after the mark would have
        // flushed that record whole: nothing was written.
        if (/could not find a valid record after/.test(String((err as Error).message))) return [];
        throw err;
      }
      const writes: string[] = [];
      for (const r of rows) {
        if (!ROW_WRITE.test(r.record_type)) continue;
        for (const [, db, node] of (r.block_ref ?? '').matchAll(blockRef)) {
          // Both groups are required by the pattern.
          if (db === oid && tableOf.has(node!)) writes.push(`${r.record_type} ${tableOf.get(node!)}`);
        }
      }
      return writes;
    },
    close: () => db.destroy(),
  };
}
