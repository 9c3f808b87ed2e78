/**
 * `trustgate backup FILE` and `trustgate restore FILE`: an installation in one archive, and back.
 *
 * The archive is a gzipped tar (`tar tzf FILE` lists it), written mode 0600:
 *   manifest.json      what it is: format, version, when, which database, the last migration
 *   secret.key         the secret key in use (TRUSTGATE_SECRET_KEY's or DATA_DIR/secret.key), base64
 *   trustgate.sqlite   SQLite: a consistent snapshot (VACUUM INTO: one read transaction, which
 *                      running servers' writes neither block nor disturb)
 *   media/…            SQLite: the captured images (sealed with the secret key) and the URL
 *                      signing key. PostgreSQL keeps both in the database (tables media and
 *                      installation_secrets), so pg_dump has them; a node's files from before
 *                      (none once it has started: main.ts moves them in) are archived as found
 *   ip-lists/…         the operator's IP lists and the synced ones
 * The snapshot is plaintext (every email and phone): it is written in DATA_DIR/backup-snapshots
 * (0700), created 0600 before its first byte (privateSnapshot), and removed when the backup
 * ends, fails or is stopped by SIGTERM, SIGINT or SIGHUP, as the partial archive is; what a
 * SIGKILL leaves (private all the same) the next backup removes (removeLeftovers).
 * The media and lists are copied after the snapshot: a capture erased in between is missing,
 * one stored in between is there without its row (the worker's sweep treats both as it treats
 * an erasure). On PostgreSQL the database is not in the archive: `pg_dump` backs it up (docs/deploy.md).
 *
 * Restore writes into the configured DATA_DIR, which must be empty (or absent), checks the
 * database (quick_check) and that the archive's key opens its stored secrets; on a failure it
 * empties DATA_DIR again. The server applies newer migrations when it starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import * as tar from 'tar-stream';
import { systemRandom } from '../clock';
import { sqliteFile, type Config } from '../config';
import { makeSecretBox } from '../security/secrets';
import { privateSnapshot, removedOnSignal, removeLeftoverArchives } from './backup-files';
import { UsageError, type Out } from './command';

export const BACKUP_FORMAT = 'trustgate-backup';
export const BACKUP_VERSION = 1;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  created_at: string;
  database: 'sqlite' | 'postgresql';
  /** The archived database's last migration; null on PostgreSQL (not archived). */
  migration: string | null;
}

export interface BackupSummary {
  file: string;
  database: BackupManifest['database'];
  migration: string | null;
  mediaFiles: number;
  ipListFiles: number;
}

export type BackupConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'secretKey' | 'ipListsDir'> &
  Partial<Pick<Config, 'previousSecretKeys'>>;

const SECRET_KEY_FILE = 'secret.key';
const MANIFEST = 'manifest.json';
const DATABASE_ENTRY = 'trustgate.sqlite';

/** Where the media store keeps its files (composition.ts: `<dataDir>/media`). */
const mediaDir = (config: BackupConfig) => path.join(config.dataDir, 'media');
const listsDir = (config: BackupConfig) => config.ipListsDir ?? path.join(config.dataDir, 'ip-lists');

function secretKeyInUse(config: BackupConfig): Buffer {
  if (config.secretKey) return Buffer.from(config.secretKey, 'base64');
  const file = path.join(config.dataDir, SECRET_KEY_FILE);
  if (!fs.existsSync(file))
    throw new Error(
      `no secret key: TRUSTGATE_SECRET_KEY is unset and ${file} does not exist (is DATA_DIR the installation's?)`,
    );
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}

/** The regular files under `dir`, as paths relative to it with `/` separators (none when it is absent). */
function filesUnder(dir: string, prefix = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return filesUnder(path.join(dir, entry.name), rel);
      return entry.isFile() ? [rel] : [];
    });
}

/** A file's bytes, or undefined when it was removed since it was listed (a capture erased meanwhile). */
function readIfPresent(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The database's consistent snapshot into `into`; resolves with its last migration. */
function snapshotSqlite(file: string, into: string): string | null {
  const live = new Database(file, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 10000');
    live.prepare('VACUUM INTO ?').run(into);
  } finally {
    live.close();
  }
  const snapshot = new Database(into, { readonly: true });
  try {
    const row = snapshot.prepare('SELECT name FROM knex_migrations ORDER BY id DESC LIMIT 1').get() as
      { name: string } | undefined;
    return row?.name ?? null;
  } finally {
    snapshot.close();
  }
}

type Source = { name: string; bytes: Buffer } | { name: string; file: string };

function addEntry(pack: tar.Pack, source: Source): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error | null) => (err ? reject(err) : resolve());
    if ('bytes' in source) {
      pack.entry({ name: source.name, mode: 0o600 }, source.bytes, done);
      return;
    }
    const entry = pack.entry({ name: source.name, mode: 0o600, size: fs.statSync(source.file).size }, done);
    fs.createReadStream(source.file).on('error', reject).pipe(entry);
  });
}

export async function backup(file: string, config: BackupConfig, now: Date): Promise<BackupSummary> {
  const target = path.resolve(file);
  if (fs.existsSync(target)) throw new Error(`${target} exists: name a new file`);
  const key = secretKeyInUse(config);
  const partial = `${target}.${process.pid}.tmp`;
  removeLeftoverArchives(target);
  const database = config.databaseUrl ? 'postgresql' : 'sqlite';
  const live = sqliteFile(config);
  if (database === 'sqlite' && !fs.existsSync(live))
    throw new Error(`no database at ${live} (is DATA_DIR the installation's?)`);
  const snapshot = database === 'sqlite' ? privateSnapshot(config.dataDir) : undefined;
  const stopListening = removedOnSignal(snapshot ? [partial, snapshot] : [partial]);
  try {
    const migration = snapshot ? snapshotSqlite(live, snapshot) : null;
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      created_at: now.toISOString(),
      database,
      migration,
    };
    const media = filesUnder(mediaDir(config)).flatMap((rel) => {
      const bytes = readIfPresent(path.join(mediaDir(config), rel));
      return bytes ? [{ name: `media/${rel}`, bytes }] : [];
    });
    const lists = filesUnder(listsDir(config)).flatMap((rel) => {
      const bytes = readIfPresent(path.join(listsDir(config), rel));
      return bytes ? [{ name: `ip-lists/${rel}`, bytes }] : [];
    });
    const sources: Source[] = [
      { name: MANIFEST, bytes: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
      { name: SECRET_KEY_FILE, bytes: Buffer.from(`${key.toString('base64')}\n`) },
      ...(snapshot ? [{ name: DATABASE_ENTRY, file: snapshot }] : []),
      ...media,
      ...lists,
    ];
    const pack = tar.pack();
    const written = pipeline(pack, zlib.createGzip(), fs.createWriteStream(partial, { mode: 0o600, flags: 'wx' }));
    for (const source of sources) await addEntry(pack, source);
    pack.finalize();
    await written;
    fs.renameSync(partial, target);
    return { file: target, database, migration, mediaFiles: media.length, ipListFiles: lists.length };
  } finally {
    stopListening();
    fs.rmSync(partial, { force: true });
    if (snapshot) fs.rmSync(snapshot, { force: true });
  }
}

export interface RestoreSummary {
  database: BackupManifest['database'];
  migration: string | null;
  createdAt: string;
  /** Where the key went: DATA_DIR/secret.key, or nowhere (TRUSTGATE_SECRET_KEY holds the same key). */
  secretKey: 'file' | 'configured';
  mediaFiles: number;
  ipListFiles: number;
}

const isEmptyOrAbsent = (dir: string) => !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;
const isInside = (child: string, parent: string) => !path.relative(parent, child).startsWith('..');

/** An archive's entry name as path segments; refused when it could leave its folder. */
function segments(name: string): string[] {
  const parts = name.split('/');
  if (name.startsWith('/') || name.includes('\\') || parts.some((p) => p === '' || p === '.' || p === '..'))
    throw new Error(`the archive has an entry outside its folders (${JSON.stringify(name)}): not a Trustgate backup`);
  return parts;
}

async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('the archive has an entry larger than expected: not a Trustgate backup');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function writeEntry(stream: Readable, file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  await pipeline(stream, fs.createWriteStream(file, { mode: 0o600, flags: 'wx' }));
}

function checkManifest(bytes: Buffer, config: BackupConfig): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(bytes.toString('utf8')) as BackupManifest;
  } catch {
    throw new Error('the archive’s manifest.json is not JSON: not a Trustgate backup');
  }
  if (manifest.format !== BACKUP_FORMAT) throw new Error('not a Trustgate backup (manifest.json)');
  if (manifest.version !== BACKUP_VERSION)
    throw new Error(`a backup of format version ${manifest.version}; this version reads ${BACKUP_VERSION}`);
  if (manifest.database === 'sqlite' && config.databaseUrl)
    throw new Error('the backup holds a SQLite database, and DATABASE_URL names PostgreSQL: unset it to restore');
  if (manifest.database === 'postgresql' && !config.databaseUrl)
    throw new Error(
      'the backup was taken on PostgreSQL (its database is in your pg_dump, not here): set DATABASE_URL to the restored database',
    );
  return manifest;
}

/**
 * The database's digest key (installation_secrets, from migration 0038), which every node's key
 * must open and which start-up seals with the current key: unlike a project's webhook secret,
 * it is never left under a previous key of a rotation whose reseal has not run yet.
 */
function storedKey(conn: Database.Database): { sealed: string } | undefined {
  const table = conn
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'installation_secrets'`)
    .get();
  if (!table) return undefined;
  return conn.prepare(`SELECT sealed FROM installation_secrets WHERE name = 'digest_key'`).get() as
    { sealed: string } | undefined;
}

/** The restored database opens, passes quick_check, and the key opens its stored secrets. */
function checkRestored(file: string, key: Buffer): void {
  const conn = new Database(file, { fileMustExist: true });
  try {
    const check = conn.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the restored database fails its check: ${String(check)}`);
    const row = (storedKey(conn) ??
      conn.prepare('SELECT webhook_secret_encrypted AS sealed FROM projects LIMIT 1').get()) as
      { sealed: string } | undefined;
    try {
      if (row) makeSecretBox(key, systemRandom).decrypt(row.sealed);
    } catch {
      throw new Error('the archive’s secret key does not open the stored secrets: the backup is damaged');
    }
  } finally {
    conn.close();
  }
}

export async function restore(file: string, config: BackupConfig): Promise<RestoreSummary> {
  const archive = path.resolve(file);
  if (!fs.existsSync(archive)) throw new Error(`no file ${archive}`);
  const lists = listsDir(config);
  if (!isEmptyOrAbsent(config.dataDir))
    throw new Error(
      `DATA_DIR ${config.dataDir} is not empty: restore only into an empty folder ` +
        `(a new one, or this one once you have kept what it holds elsewhere)`,
    );
  const listsOutside = !isInside(lists, config.dataDir);
  if (listsOutside && !isEmptyOrAbsent(lists))
    throw new Error(`IP_LISTS_DIR ${lists} is not empty: restore only into an empty folder`);
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });

  let manifest: BackupManifest | undefined;
  let key: Buffer | undefined;
  let secretKey: RestoreSummary['secretKey'] = 'file';
  let mediaFiles = 0;
  let ipListFiles = 0;
  let database = false;
  const handle = async (headers: tar.Headers, stream: Readable): Promise<void> => {
    if (headers.type === 'directory') return void stream.resume();
    if ((headers.type ?? 'file') !== 'file')
      throw new Error(`the archive has an entry that is not a file (${headers.name}): not a Trustgate backup`);
    const [top, ...rest] = segments(headers.name);
    if (!manifest) {
      if (headers.name !== MANIFEST)
        throw new Error('the archive does not start with manifest.json: not a Trustgate backup');
      manifest = checkManifest(await readAll(stream, 64 * 1024), config);
      return;
    }
    if (headers.name === SECRET_KEY_FILE) {
      const text = (await readAll(stream, 1024)).toString('utf8').trim();
      key = Buffer.from(text, 'base64');
      if (key.length !== 32) throw new Error('the archive’s secret.key is not a 32-byte key: the backup is damaged');
      if (config.secretKey) {
        if (!Buffer.from(config.secretKey, 'base64').equals(key))
          throw new Error(
            'the archive’s secret key differs from TRUSTGATE_SECRET_KEY: the restored secrets could not be read; ' +
              'set TRUSTGATE_SECRET_KEY to the key of the installation backed up, or unset it to use the restored ' +
              'DATA_DIR/secret.key',
          );
        secretKey = 'configured';
        return;
      }
      fs.writeFileSync(path.join(config.dataDir, SECRET_KEY_FILE), `${text}\n`, { mode: 0o600, flag: 'wx' });
      return;
    }
    if (headers.name === DATABASE_ENTRY && manifest.database === 'sqlite') {
      await writeEntry(stream, sqliteFile(config));
      database = true;
      return;
    }
    if (top === 'media' && rest.length > 0) {
      await writeEntry(stream, path.join(mediaDir(config), ...rest));
      mediaFiles++;
      return;
    }
    if (top === 'ip-lists' && rest.length > 0) {
      await writeEntry(stream, path.join(lists, ...rest));
      ipListFiles++;
      return;
    }
    throw new Error(`the archive has an entry Trustgate does not write (${headers.name}): not a Trustgate backup`);
  };

  try {
    const extract = tar.extract();
    extract.on('entry', (headers, stream, next) => {
      handle(headers, stream).then(
        () => next(),
        (err: Error) => {
          stream.resume();
          next(err);
        },
      );
    });
    await pipeline(fs.createReadStream(archive), zlib.createGunzip(), extract);
    if (!manifest) throw new Error('the archive is empty: not a Trustgate backup');
    if (!key) throw new Error('the archive has no secret.key: the backup is damaged');
    if (manifest.database === 'sqlite') {
      if (!database) throw new Error('the archive has no database: the backup is damaged');
      checkRestored(sqliteFile(config), key);
    }
    return {
      database: manifest.database,
      migration: manifest.migration,
      createdAt: manifest.created_at,
      secretKey,
      mediaFiles,
      ipListFiles,
    };
  } catch (err) {
    emptyAgain(listsOutside ? [config.dataDir, lists] : [config.dataDir]);
    throw err;
  }
}

/** The folders a failed restore wrote into, emptied as they were: a second attempt is refused otherwise. */
function emptyAgain(dirs: string[]): void {
  for (const dir of dirs)
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir) : [])
      fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
}

/** `trustgate backup FILE` and `trustgate restore FILE`: the archive written or restored, and what it holds. */
export async function runBackup(argv: string[], config: BackupConfig, out: Out): Promise<number> {
  const [command, file, ...extra] = argv;
  if (!file || extra.length > 0) throw new UsageError(`${command} needs one FILE`);
  if (command === 'backup') {
    const r = await backup(file, config, new Date());
    out(`backup written to ${r.file}`);
    out(
      r.database === 'sqlite'
        ? `  database: a snapshot of the SQLite database (migrations up to ${r.migration ?? 'none'})`
        : '  database: not included (PostgreSQL: back it up with pg_dump, README "Backups and upgrades")',
    );
    out('  secret key: included; the archive opens the stored secrets, so keep it as safe as the key');
    if (config.previousSecretKeys?.length)
      out(
        '  previous secret keys: not included; what they sealed opens only with them until ' +
          '`trustgate secret-key reseal` has run: keep them with this archive, or take it again after the reseal',
      );
    if (r.database === 'postgresql') out('  media: in the database (table media), backed up by pg_dump');
    out(`  media files: ${r.mediaFiles}`);
    out(`  IP list files: ${r.ipListFiles}`);
    return 0;
  }
  const r = await restore(file, config);
  out(`restored the backup of ${r.createdAt} into ${config.dataDir}`);
  out(
    r.database === 'sqlite'
      ? `  database: ${sqliteFile(config)} (migrations up to ${r.migration ?? 'none'}; newer ones run when the server starts)`
      : '  database: not in the archive (PostgreSQL: restore your pg_dump with pg_restore)',
  );
  out(
    r.secretKey === 'file'
      ? `  secret key: ${path.join(config.dataDir, SECRET_KEY_FILE)}`
      : '  secret key: the same as TRUSTGATE_SECRET_KEY (not written)',
  );
  out(`  media files: ${r.mediaFiles}`);
  out(`  IP list files: ${r.ipListFiles}`);
  return 0;
}
