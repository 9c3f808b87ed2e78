/** The database: where it is, and the defaults of its connections and caches. */
import path from 'node:path';
import { PACKAGE_ROOT } from '../spec';
import type { Config } from './schema';

/**
 * The database's defaults (DATABASE_POOL_SIZE, DATABASE_HOT_CONNECTIONS, SQLITE_CACHE_MB,
 * SQLITE_MMAP_MB, SQLITE_CHECKPOINT_MS), also makeDb's (storage/db.ts) when a setting is not
 * given. The hot path's connections are each shared by every request (storage/postgres/pipeline.ts):
 * one carries a turn's statements in one write and keeps them queued at one server process,
 * where more spread them back over idle ones, each woken for its share; a server process does
 * less work an authenticate than the Node process, so one keeps up with it (docs/pipeline.md,
 * *How many connections*).
 */
export const DB_DEFAULTS = {
  poolSize: 10,
  hotConnections: 1,
  sqliteCacheMb: 256,
  sqliteMmapMb: 1024,
  // Frequent passes keep what the fallback checkpoint's commit must copy and sync small, which
  // shortens first authenticates' tail without costing throughput (docs/pipeline.md, *SQLite's
  // checkpoints, off the request thread*).
  sqliteCheckpointMs: 100,
} as const;

/**
 * SQLITE_MMAP_MB's default: the memory map for one process, none for several. A SQLite
 * connection that begins a read and finds another connection's commit in the write-ahead log
 * empties its page cache and drops its whole memory map (pager.c `pagerBeginReadTransaction`),
 * so with several processes writing the file each maps back and faults in, page by page, what
 * its next statements read, which costs more CPU than the map saves (docs/performance.md, *One
 * machine, all cores*). One process's own commits leave its map in place.
 */
export function sqliteMmapDefault(processes: number): number {
  return processes > 1 ? 0 : DB_DEFAULTS.sqliteMmapMb;
}

/** DATA_DIR's default: `data` in the package root (the installation), whatever the current directory. */
export const DEFAULT_DATA_DIR = path.join(PACKAGE_ROOT, 'data');

/** The embedded database's file, in DATA_DIR. */
export function sqliteFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'trustgate.sqlite');
}

/**
 * The database a process uses, for its logs and the CLI's stderr: `sqlite <file>`, or
 * `postgresql <user>@<host>:<port>/<database>` (never the password or the URL's options).
 */
export function databaseLocation(config: Pick<Config, 'dataDir' | 'databaseUrl'>): string {
  if (!config.databaseUrl) return `sqlite ${sqliteFile(config)}`;
  let url: URL;
  try {
    url = new URL(config.databaseUrl);
  } catch {
    return 'postgresql (DATABASE_URL is not a URL; the driver reads it its own way)';
  }
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  const host = url.hostname || url.searchParams.get('host') || 'localhost';
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  return `postgresql ${user}${host}:${url.port || '5432'}/${database}`;
}
