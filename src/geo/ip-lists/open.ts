/**
 * IP risk lists: Tor exits, VPNs, proxies, data centres, addresses recently seen in fraud, and
 * iCloud Private Relay egress ranges.
 *
 * Three sources per list:
 * - shipped: `src/geo/data/<list>.txt`, loaded once. No such file is shipped today: no
 *   permissively licensed, current snapshot could be found in an npm or Debian package (the
 *   only Tor exit list found, inside `tor-detect`, dates from 2018 and would mislabel
 *   addresses that have long changed hands); `trustgate iplist sync` fetches current ones instead.
 *   A file dropped there later is picked up as is.
 * - operator: `<dir>/<list>.txt` (IP_LISTS_DIR, by default `<DATA_DIR>/ip-lists`), edited by
 *   hand or with `trustgate iplist add|remove`, and reloaded without a restart (polled, as
 *   network file systems need). A file that appears, changes or disappears is re-read whole;
 *   a file that cannot be read at all keeps the entries it had. A file rewritten in place can
 *   be caught half written for one poll interval; `trustgate iplist` replaces files by rename.
 * - synced: `<dir>/synced/<list>.txt`, written only by `trustgate iplist sync` from the
 *   published lists (Tor exits, iCloud Private Relay egress, a VPN list: sync.ts), each file
 *   whole and by rename, with its source and time in its header; watched like the operator's.
 *
 * On PostgreSQL the operator's and synced texts live in the database instead (store.ts), and
 * stored.ts loads them from there with the same tables; this module's files serve SQLite.
 *
 * File format: one IPv4 or IPv6 address or CIDR block a line; `#` starts a comment (whole line
 * or after an entry); blank lines are fine. A CIDR block with host bits set stands for its
 * network (`10.1.2.3/8` is `10.0.0.0/8`); IPv4-mapped IPv6 (`::ffff:1.2.3.4`, `::ffff:1.2.3.0/120`)
 * is read as IPv4. A line that is none of these is skipped, the rest of the file is loaded,
 * and `onReload(file, error)` is told, with an {@link IpListFileError} naming each bad line.
 * Problems found when the lists are first opened are reported the same way. Each list and
 * source is looked up in tables of its own (tables.ts).
 */
import fs from 'node:fs';
import { parseListText, type ParsedFile } from './entries';
import { IP_LIST_NAMES, ipListFile, SHIPPED_IP_LISTS_DIR, syncedDir, type IpListName } from './names';
import { parseSyncHeader, type SyncHeader } from './sync-file';
import { EMPTY, keyOf, tablesOf, type ListTables } from './tables';

export type IpListSource = 'shipped' | 'operator' | 'synced';

export interface IpListMatch {
  list: IpListName;
  source: IpListSource;
  /** The narrowest block of that list and source holding the address, in CIDR notation. */
  entry: string;
}

/** What is loaded of one list: the entries of each source, and where and when its synced copy came from. */
export interface IpListStatus {
  list: IpListName;
  entries: Record<IpListSource, number>;
  /** The synced copy's header (source and time), when there is one. */
  synced?: SyncHeader;
}

export interface IpLists {
  /** Every list the address is on (IPv4, IPv6 and IPv4-mapped IPv6 handled; invalid input → []). */
  lookup(ip: string): IpListMatch[];
  /** Each list's entries by source and its synced copy's source and time, as loaded now. */
  status(): IpListStatus[];
  /** Stops watching the operator's files. */
  close(): void;
}

export interface IpListsOptions {
  /** The operator's folder of `<list>.txt` files; none when absent. */
  dir?: string;
  /** How often the operator's files are checked for changes (default 5 s). */
  watchIntervalMs?: number;
  /** Told of every reload of an operator's file, and of every file with lines it could not read. */
  onReload?: (file: string, error?: Error) => void;
  /** Where the shipped lists are (default `src/geo/data` in the package); for tests. */
  shippedDir?: string;
}

/** The lines of a list file that are not an address or a CIDR block (1-based line numbers). */
export class IpListFileError extends Error {
  constructor(
    readonly file: string,
    readonly lines: { line: number; text: string }[],
  ) {
    const shown = lines.slice(0, 5).map((l) => `line ${l.line}: ${JSON.stringify(l.text)}`);
    const more = lines.length > shown.length ? `, and ${lines.length - shown.length} more` : '';
    super(
      `${file}: skipped ${lines.length} line(s) that are not an IP address or CIDR block ` +
        `(${shown.join('; ')}${more}); the other lines are in effect`,
    );
    this.name = 'IpListFileError';
  }
}

/** Reads a list file: undefined when it does not exist; other read errors are thrown. */
function readListFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The lists as loaded: each list and source's tables, and each synced copy's header. */
export function makeLoadedLists(report: (where: string, error?: Error) => void) {
  const tables: Record<IpListSource, Map<IpListName, ListTables>> = {
    shipped: new Map(),
    operator: new Map(),
    synced: new Map(),
  };
  const syncHeaders = new Map<IpListName, SyncHeader>();
  const sizeOf = (t: ListTables | undefined) => (t ? t.v4.size + t.v6.size : 0);

  return {
    /** Loads one text (undefined: none) as the list's entries from `source`; false when it had lines that are not entries. */
    set(list: IpListName, source: IpListSource, text: string | undefined, where: string): boolean {
      const parsed: ParsedFile | undefined = text === undefined ? undefined : parseListText(text);
      tables[source].set(list, parsed ? tablesOf(parsed.blocks) : EMPTY);
      if (source === 'synced') {
        const header = text === undefined ? undefined : parseSyncHeader(text);
        if (header) syncHeaders.set(list, header);
        else syncHeaders.delete(list);
      }
      if (parsed && parsed.bad.length > 0) report(where, new IpListFileError(where, parsed.bad));
      return parsed === undefined || parsed.bad.length === 0;
    },
    lookup(ip: string): IpListMatch[] {
      const key = keyOf(ip);
      if (!key) return [];
      const matches: IpListMatch[] = [];
      for (const list of IP_LIST_NAMES) {
        for (const source of ['shipped', 'operator', 'synced'] as const) {
          const t = tables[source].get(list);
          if (!t) continue;
          const entry = 'v4' in key ? t.v4.find(key.v4) : t.v6.find(key.v6);
          if (entry) matches.push({ list, source, entry });
        }
      }
      return matches;
    },
    status(): IpListStatus[] {
      return IP_LIST_NAMES.map((list) => {
        const header = syncHeaders.get(list);
        return {
          list,
          entries: {
            shipped: sizeOf(tables.shipped.get(list)),
            operator: sizeOf(tables.operator.get(list)),
            synced: sizeOf(tables.synced.get(list)),
          },
          ...(header ? { synced: header } : {}),
        };
      });
    },
  };
}

export type LoadedLists = ReturnType<typeof makeLoadedLists>;

/** Loads the shipped lists (files of the package, loaded once) into `loaded`. */
export function loadShipped(
  loaded: LoadedLists,
  shippedDir: string,
  report: (where: string, error?: Error) => void,
): void {
  for (const list of IP_LIST_NAMES) {
    const file = ipListFile(shippedDir, list);
    try {
      loaded.set(list, 'shipped', readListFile(file), file);
    } catch (err) {
      report(file, err as Error);
    }
  }
}

/** The lists from the operator's and synced files of `options.dir`, reloaded when a file changes. */
export function openIpLists(options: IpListsOptions): IpLists {
  const report = (file: string, error?: Error) => options.onReload?.(file, error);
  const loaded = makeLoadedLists(report);
  loadShipped(loaded, options.shippedDir ?? SHIPPED_IP_LISTS_DIR, report);

  /** Loads one file; false when it could not be read (the old entries stay) or had bad lines. */
  function load(file: string, list: IpListName, source: IpListSource): boolean {
    let text: string | undefined;
    try {
      text = readListFile(file);
    } catch (err) {
      report(file, err as Error);
      return false;
    }
    return loaded.set(list, source, text, file);
  }

  const unwatch: (() => void)[] = [];
  /** Loads each list's file in `dir`, and reloads it whenever it changes. */
  function watch(dir: string, source: IpListSource): void {
    for (const list of IP_LIST_NAMES) {
      const file = ipListFile(dir, list);
      load(file, list, source);
      const listener = (current: fs.Stats, previous: fs.Stats) => {
        if (current.mtimeMs === previous.mtimeMs && current.size === previous.size && current.ino === previous.ino)
          return;
        if (load(file, list, source)) report(file);
      };
      // Polling works for files that do not exist yet, on network file systems, and across
      // an editor's or `trustgate iplist`'s replace-by-rename.
      fs.watchFile(file, { interval: options.watchIntervalMs ?? 5000, persistent: false }, listener);
      unwatch.push(() => fs.unwatchFile(file, listener));
    }
  }
  if (options.dir) {
    watch(options.dir, 'operator');
    watch(syncedDir(options.dir), 'synced');
  }

  return {
    lookup: loaded.lookup,
    status: loaded.status,
    close() {
      unwatch.splice(0).forEach((stop) => stop());
    },
  };
}
