/**
 * A fresh, migrated database per test file: a SQLite file in a temporary folder, or, when
 * DATABASE_URL names a PostgreSQL server, a new database on it (dropped afterwards).
 *
 * Each is a copy of one migrated once per set of migrations (`migratedTemplate`): a file copied,
 * or PostgreSQL's `CREATE DATABASE … TEMPLATE`. Running the migrations took a few hundred
 * milliseconds a database, and a run makes hundreds; a test of the migrations themselves asks for
 * an empty database (`migrate: false`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
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
    const copied = migrated && !options.icuLocale;
    if (options.icuLocale)
      await admin.raw(
        `CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${options.icuLocale}'`,
      );
    else
      await admin.raw(`CREATE DATABASE ${name} TEMPLATE ${copied ? await pgTemplate(admin, serverUrl) : 'template1'}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const db = makeDb({ databaseUrl: url.toString() });
    if (migrated && !copied) await migrate(db);
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
  if (migrated) fs.copyFileSync(await sqliteTemplate(), sqliteFile);
  const db = makeDb({ sqliteFile });
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

/** The migrations' sources, hashed: a template is made again when any of them changes. */
function migrationsHash(): string {
  const dir = path.resolve(__dirname, '..', '..', 'src', 'storage', 'migrations');
  const hash = createHash('sha256');
  const add = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) add(file);
      else hash.update(entry.name).update(fs.readFileSync(file));
    }
  };
  add(dir);
  return hash.digest('hex').slice(0, 16);
}

let sqliteMade: Promise<string> | undefined;

/**
 * A migrated SQLite file in the temporary folder, made once per set of migrations and then only
 * copied. Jest's workers may make it at the same moment: each migrates a file of its own and
 * renames it into place, so a worker copies a whole template, whichever one's.
 */
function sqliteTemplate(): Promise<string> {
  sqliteMade ??= (async () => {
    const template = path.join(os.tmpdir(), `trustgate-test-template-${migrationsHash()}.sqlite`);
    if (fs.existsSync(template)) return template;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-template-'));
    const file = path.join(dir, 'trustgate.sqlite');
    const db = makeDb({ sqliteFile: file });
    await migrate(db);
    // Closed, the last connection folds the write-ahead log into the file.
    await db.destroy();
    fs.renameSync(file, template);
    fs.rmSync(dir, { recursive: true, force: true });
    return template;
  })();
  return sqliteMade;
}

/** PostgreSQL's advisory lock key while a template is made ('tgtp'). */
const TEMPLATE_LOCK_KEY = 0x74677470;
let pgMade: Promise<string> | undefined;

/**
 * A migrated database on the server to create the tests' databases from, made once per set of
 * migrations (under an advisory lock, as Jest's workers start together) and left on the server;
 * a template takes no connections, so it is made under another name and renamed when migrated.
 */
function pgTemplate(admin: Db, serverUrl: string): Promise<string> {
  pgMade ??= (async () => {
    const name = `tg_template_${migrationsHash()}`;
    await admin.raw('SELECT pg_advisory_lock(?)', [TEMPLATE_LOCK_KEY]);
    try {
      const { rows } = await admin.raw('SELECT 1 FROM pg_database WHERE datname = ?', [name]);
      if (rows.length > 0) return name;
      const making = `${name}_making`;
      await admin.raw(`DROP DATABASE IF EXISTS ${making}`);
      await admin.raw(`CREATE DATABASE ${making}`);
      const url = new URL(serverUrl);
      url.pathname = `/${making}`;
      const db = makeDb({ databaseUrl: url.toString() });
      await migrate(db);
      await db.destroy();
      await admin.raw(`ALTER DATABASE ${making} RENAME TO ${name}`);
      return name;
    } finally {
      await admin.raw('SELECT pg_advisory_unlock(?)', [TEMPLATE_LOCK_KEY]);
    }
  })();
  return pgMade;
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
