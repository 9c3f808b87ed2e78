/**
 * Where the operator's and the synced lists' texts live: one text per list and source, behind a
 * small port. Files in IP_LISTS_DIR on one machine (SQLite), a table on PostgreSQL
 * (storage/repositories/ip-list-texts.ts), so that every node of one database reads the same
 * lists. Editing is a pure function over a text (edit.ts) written back with `updateListText`.
 */
import fs from 'node:fs';
import { readText, writeAtomically } from './edit';
import { IP_LIST_NAMES, ipListFile, syncedDir, type IpListName } from './names';

/** The sources whose texts are stored (the shipped lists are files of the package). */
export type StoredListSource = 'operator' | 'synced';
export const STORED_LIST_SOURCES: readonly StoredListSource[] = ['operator', 'synced'];

export interface StoredListText {
  text: string;
  /** Changes with every write; compared, never interpreted. */
  version: string;
}

export interface IpListTexts {
  readonly kind: 'files' | 'database';
  /** Where a list's text lives, for messages: its file, or its row. */
  where(list: IpListName, source: StoredListSource): string;
  read(list: IpListName, source: StoredListSource): Promise<StoredListText | undefined>;
  /** Each stored text's version, keyed by `listKey`: cheap, what a node polls for changes. */
  versions(): Promise<Map<string, string>>;
  /** Stores `text` when the stored version is still `expected` (undefined: none stored); false when another writer came first. */
  write(list: IpListName, source: StoredListSource, text: string, expected: string | undefined): Promise<boolean>;
}

export const listKey = (list: IpListName, source: StoredListSource) => `${source}/${list}`;

/** How often an edit is tried again over a text that another writer changed meanwhile. */
const EDIT_ATTEMPTS = 20;

/**
 * Reads the text, edits it (`edit` pure: undefined means nothing to change) and writes it back
 * over the version read; read again and edited again when another writer came between, so that
 * two concurrent edits both land. False when there was nothing to change.
 */
export async function updateListText(
  texts: IpListTexts,
  list: IpListName,
  source: StoredListSource,
  edit: (text: string | undefined) => string | undefined,
): Promise<boolean> {
  for (let attempt = 0; attempt < EDIT_ATTEMPTS; attempt++) {
    const current = await texts.read(list, source);
    const next = edit(current?.text);
    if (next === undefined) return false;
    if (await texts.write(list, source, next, current?.version)) return true;
  }
  throw new Error(`IP list ${list} kept changing while it was being edited; try again`);
}

/** Every stored text of `texts`, for an import into another store. */
export async function allListTexts(
  texts: IpListTexts,
): Promise<{ list: IpListName; source: StoredListSource; text: string }[]> {
  const found: { list: IpListName; source: StoredListSource; text: string }[] = [];
  for (const source of STORED_LIST_SOURCES) {
    for (const list of IP_LIST_NAMES) {
      const stored = await texts.read(list, source);
      if (stored) found.push({ list, source, text: stored.text });
    }
  }
  return found;
}

/**
 * The texts as files: the operator's `<dir>/<list>.txt` and the synced `<dir>/synced/<list>.txt`,
 * each replaced whole by rename. A file's version is its modification time, size and inode: one
 * machine, where the writers are an operator and `trustgate iplist`.
 */
export function fileListTexts(dir: string): IpListTexts {
  const fileOf = (list: IpListName, source: StoredListSource) =>
    ipListFile(source === 'operator' ? dir : syncedDir(dir), list);
  const versionOf = (file: string): string | undefined => {
    try {
      const s = fs.statSync(file);
      return `${s.mtimeMs}:${s.size}:${s.ino}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  };
  return {
    kind: 'files',
    where: fileOf,
    async read(list, source) {
      const file = fileOf(list, source);
      const version = versionOf(file);
      const text = readText(file);
      return text === undefined || version === undefined ? undefined : { text, version };
    },
    async versions() {
      const found = new Map<string, string>();
      for (const source of STORED_LIST_SOURCES) {
        for (const list of IP_LIST_NAMES) {
          const version = versionOf(fileOf(list, source));
          if (version !== undefined) found.set(listKey(list, source), version);
        }
      }
      return found;
    },
    async write(list, source, text, expected) {
      const file = fileOf(list, source);
      if (versionOf(file) !== expected) return false;
      fs.mkdirSync(source === 'operator' ? dir : syncedDir(dir), { recursive: true });
      writeAtomically(file, text);
      return true;
    },
  };
}
