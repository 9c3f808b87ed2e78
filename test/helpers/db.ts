/**
 * A fresh, migrated database per test file: a SQLite file in a temporary folder, or, when
 * DATABASE_URL names a PostgreSQL server, a new database on it (dropped afterwards).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { makeDb, migrate, type Db } from '../../src/storage/db';
import { makeProjectRepository } from '../../src/storage/repositories/projects';

export interface TestDb {
  db: Db;
  url?: string;
  dialect: 'sqlite' | 'postgresql';
  /** The SQLite file, named trustgate.sqlite like the server's, when on SQLite. */
  sqliteFile?: string;
  destroy(): Promise<void>;
}

/**
 * `migrate: false` leaves the database empty, for a test that runs the migrations itself.
 * `icuLocale` (PostgreSQL only) makes the new database collate text by that ICU locale, as a
 * server installed with a language's locale does (`en-US`: `allow` before `VIP`); SQLite has
 * no such setting (its text is compared byte by byte).
 */
export async function makeTestDb(options: { migrate?: boolean; icuLocale?: 'en-US' } = {}): Promise<TestDb> {
  const migrated = options.migrate ?? true;
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `tg_test_${randomBytes(6).toString('hex')}`;
    const admin = knex({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
    await admin.raw(
      options.icuLocale
        ? `CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${options.icuLocale}'`
        : `CREATE DATABASE ${name}`,
    );
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const db = makeDb({ databaseUrl: url.toString() });
    if (migrated) await migrate(db);
    return {
      db,
      url: url.toString(),
      dialect: 'postgresql',
      async destroy() {
        await db.destroy();
        await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.destroy();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-test-'));
  const sqliteFile = path.join(dir, 'trustgate.sqlite');
  const db = makeDb({ sqliteFile });
  if (migrated) await migrate(db);
  return {
    db,
    dialect: 'sqlite',
    sqliteFile,
    async destroy() {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The statements knex sends while `call` runs (its `query` events), as sent. A PostgreSQL write
 * text's PREPARE (storage/statements.ts), made once per connection and text and not per request,
 * is left out unless `preparations` asks for it (then marked `preparation`), as node-postgres's
 * Parse of a read on a new connection is never announced: what a request sends does not depend
 * on which connection it got.
 */
export async function statementsDuring(
  db: Db,
  call: () => Promise<unknown>,
  options: { preparations?: boolean } = {},
): Promise<{ sql: string; bindings: unknown[]; preparation?: true }[]> {
  const sent: { sql: string; bindings: unknown[]; preparation?: true }[] = [];
  const listener = (q: { sql: string; bindings?: unknown[]; method?: string }) => {
    if (q.method !== 'prepare') sent.push({ sql: q.sql, bindings: q.bindings ?? [] });
    else if (options.preparations) sent.push({ sql: q.sql, bindings: q.bindings ?? [], preparation: true });
  };
  db.on('query', listener);
  try {
    await call();
  } finally {
    db.off('query', listener);
  }
  return sent;
}

/** A project row written directly (repositories' tests, which need one without the app). */
export async function insertProject(db: Db, id: string, name: string, at: Date): Promise<void> {
  await makeProjectRepository(db).insert({
    id,
    name,
    decisionThreshold: 0.5,
    groupsEnabled: false,
    webhookUrl: null,
    webhookSecretEncrypted: 'x',
    demo: false,
    test: false,
    createdAt: at,
  });
}

/** A SQLite database's file and write-ahead log as their raw bytes on disk (latin1: one character a byte). */
export function sqliteBytes(file: string): string {
  return [file, `${file}-wal`]
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString('latin1'))
    .join('\n');
}
