/**
 * After a secret-key rotation: every value sealed with a previous key (or in the `v1` form,
 * which names no key) sealed again with the current one, so that the previous key can be
 * dropped. The database's sealed columns are walked by primary key in batches, each batch
 * written in one transaction and each row only if it still holds the text read (a node may
 * have written it meanwhile, under the current key); the media store's files on this node's
 * disk are replaced whole (a new file renamed over the old). A value already under the
 * current key is left as it is, so running it again does nothing more.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SecretBox } from '../security/secrets';
import type { Db } from './db';

/** Every column that holds what the secret box sealed (grep `.encrypt(` in src/), with its table's key. */
export const SEALED_COLUMNS = [
  { table: 'projects', key: 'id', column: 'webhook_secret_encrypted' },
  { table: 'projects', key: 'id', column: 'webhook_secret_previous_encrypted' },
  { table: 'verification_sessions', key: 'id', column: 'result' },
  { table: 'verification_faces', key: 'session_id', column: 'embedding' },
  { table: 'webhooks', key: 'request_id', column: 'body' },
  { table: 'installation_secrets', key: 'name', column: 'sealed' },
  // Images of up to 8 MB each (PostgreSQL's media store): a few at a time.
  { table: 'media', key: 'id', column: 'sealed', batch: 8 },
] as const;

export interface ResealCount {
  /** `table.column`, or the media folder. */
  place: string;
  /** Values read. */
  checked: number;
  /** Values sealed again with the current key. */
  resealed: number;
  /** Values no key of this node opens (left as they are): the previous key they need must stay. */
  unopened: number;
}

type Column = (typeof SEALED_COLUMNS)[number];

/** Sealed again; undefined when already under the current key; 'unopened' when no key opens it. */
function resealed(box: SecretBox, sealed: string): string | undefined | 'unopened' {
  try {
    return box.reseal(sealed);
  } catch {
    return 'unopened';
  }
}

async function resealColumn(db: Db, box: SecretBox, sealed: Column, most: number) {
  const { table, key, column } = sealed;
  const batch = 'batch' in sealed ? Math.min(most, sealed.batch) : most;
  const count: ResealCount = { place: `${table}.${column}`, checked: 0, resealed: 0, unopened: 0 };
  let after: string | undefined;
  for (;;) {
    const query = db(table).select(key, column).whereNotNull(column).orderBy(key).limit(batch);
    const rows = (await (after === undefined ? query : query.where(key, '>', after))) as Record<string, string>[];
    const changes: { id: string; before: string; after: string }[] = [];
    for (const row of rows) {
      const next = resealed(box, row[column]!);
      if (next === 'unopened') count.unopened++;
      else if (next !== undefined) changes.push({ id: row[key]!, before: row[column]!, after: next });
    }
    await db.transaction(async (trx) => {
      for (const c of changes)
        count.resealed += await trx(table)
          .where({ [key]: c.id, [column]: c.before })
          .update({ [column]: c.after });
    });
    count.checked += rows.length;
    if (rows.length < batch) return count;
    after = rows.at(-1)![key];
  }
}

/**
 * The media store's files under `dir` (captures and the URL-signing key). A capture erased
 * while its file is being replaced could come back: the new file is renamed into place only
 * when the old one is still there, which leaves that to a moment's overlap of two processes.
 */
async function resealFiles(dir: string, box: SecretBox): Promise<ResealCount> {
  const count: ResealCount = { place: dir, checked: 0, resealed: 0, unopened: 0 };
  const names = await fs.readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  for (const name of names.filter((n) => n.endsWith('.bin') || n === 'url-signing.key').sort()) {
    const file = path.join(dir, name);
    const text = await fs.readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue; // erased since the folder was listed
    count.checked++;
    const next = resealed(box, text.trim());
    if (next === 'unopened') count.unopened++;
    if (next === 'unopened' || next === undefined) continue;
    const fresh = `${file}.${process.pid}.reseal`;
    await fs.writeFile(fresh, text.endsWith('\n') ? `${next}\n` : next, { mode: 0o600, flag: 'wx' });
    const still = await fs.stat(file).then(
      () => true,
      () => false,
    );
    if (still) {
      await fs.rename(fresh, file);
      count.resealed++;
    } else await fs.rm(fresh, { force: true });
  }
  return count;
}

/** Every sealed value of the database and of this node's media folder, sealed with the current key where it is not. */
export async function resealAll(
  deps: { db: Db; box: SecretBox; mediaDir?: string },
  options: { batch?: number; onCount?: (count: ResealCount) => void } = {},
): Promise<ResealCount[]> {
  const counts: ResealCount[] = [];
  for (const column of SEALED_COLUMNS) {
    counts.push(await resealColumn(deps.db, deps.box, column, options.batch ?? 500));
    options.onCount?.(counts.at(-1)!);
  }
  if (deps.mediaDir === undefined) return counts;
  counts.push(await resealFiles(deps.mediaDir, deps.box));
  options.onCount?.(counts.at(-1)!);
  return counts;
}
