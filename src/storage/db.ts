/**
 * The database: PostgreSQL when a URL is given, otherwise an embedded SQLite file in the data
 * folder (WAL mode, busy timeout). The same migrations and queries run on both.
 */
import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import pg from 'pg';
import { migrationSource } from './migrations';

export type Db = Knex;
export type Dialect = 'sqlite' | 'postgresql';

// PostgreSQL returns BIGINT (int8) and COUNT(*) as strings; every such value here is a
// millisecond timestamp or a count, far inside Number's safe range.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface DbOptions {
  databaseUrl?: string;
  /** Where the SQLite file lives when there is no URL. */
  sqliteFile?: string;
}

export function dialectOf(db: Db): Dialect {
  return db.client.config.client === 'pg' ? 'postgresql' : 'sqlite';
}

export function makeDb(options: DbOptions): Db {
  if (options.databaseUrl) {
    return knex({
      client: 'pg',
      connection: options.databaseUrl,
      pool: { min: 0, max: 10 },
    });
  }
  const filename = options.sqliteFile ?? path.resolve('data', 'trustgate.sqlite');
  if (filename !== ':memory:') fs.mkdirSync(path.dirname(filename), { recursive: true });
  return knex({
    client: 'sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      // One connection: SQLite serialises writers anyway, and one connection keeps
      // transactions from waiting on each other's locks.
      min: 1,
      max: 1,
      afterCreate(conn: { run(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, c: unknown) => void) {
        conn.run('PRAGMA journal_mode = WAL', (e1) => {
          if (e1) return done(e1, conn);
          conn.run('PRAGMA busy_timeout = 5000', (e2) => {
            if (e2) return done(e2, conn);
            conn.run('PRAGMA foreign_keys = ON', (e3) => done(e3, conn));
          });
        });
      },
    },
  });
}

export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest({ migrationSource });
}
