/**
 * `trustgate iplist add|remove|show|sync`: the operator's IP list files and the synced published
 * lists. They are files a running server reloads by itself, so these commands need no database.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config';
import {
  addToIpList,
  IP_LIST_NAMES,
  ipListFile,
  isIpListName,
  normaliseIpListEntry,
  readIpList,
  removeFromIpList,
  syncIpLists,
  type IpListName,
} from '../geo/ip-lists';
import { print, UsageError, ValueError, type Out } from './command';

/** Where the lists live: IP_LISTS_DIR, else DATA_DIR/ip-lists. */
export const ipListsDir = (config: Pick<Config, 'ipListsDir' | 'dataDir'>): string =>
  config.ipListsDir ?? path.join(config.dataDir, 'ip-lists');

/** `trustgate iplist …`: edits and shows the operator's IP list files in `dir`. */
export function runIpList(argv: string[], dir: string, out: Out): void {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const [area, command, list, address, ...extra] = positionals;
  if (area !== 'iplist' || !['add', 'remove', 'show'].includes(command ?? '')) throw new UsageError();
  if (!list || !isIpListName(list))
    throw new UsageError(`iplist ${command} needs a LIST: one of ${IP_LIST_NAMES.join(', ')}`);
  if (command === 'show') {
    if (address !== undefined) throw new UsageError('iplist show takes only a LIST');
    const { file, entries, invalid } = readIpList(dir, list);
    if (values.json) out(JSON.stringify({ list, file, entries, invalid_lines: invalid }, null, 2));
    else {
      if (entries.length === 0) out(`${list}: no entries in ${file}`);
      entries.forEach((e) => out(e));
      invalid.forEach((l) => out(`# skipped ${file} line ${l.line}: ${l.text}`));
    }
    return;
  }
  if (!address || extra.length > 0)
    throw new UsageError(`iplist ${command} needs a LIST and one IP address or CIDR block`);
  const entry = normaliseIpListEntry(address);
  if (!entry) throw new UsageError(`not an IP address or CIDR block: ${address}`);
  const file = ipListFile(dir, list);
  if (command === 'add') {
    const added = addToIpList(dir, list, entry);
    print(out, values.json, { list, entry, added, file }, [
      added ? `added ${entry} to ${list} (${file})` : `${entry} is already on ${list}`,
    ]);
  } else {
    const removed = removeFromIpList(dir, list, entry);
    print(out, values.json, { list, entry, removed, file }, [
      removed ? `removed ${entry} from ${list} (${file})` : `${entry} is not on ${list}`,
    ]);
  }
}

/**
 * `trustgate iplist sync [LIST...]`: each configured list (or those named) downloaded, checked
 * and swapped in; resolves to the exit code (0 all synced, 1 one or more kept as they were).
 */
export async function runIpListSync(
  argv: string[],
  config: Pick<Config, 'ipListsDir' | 'dataDir' | 'ipListSources' | 'ipListSyncTimeoutMs'>,
  io: { stdout: Out; stderr: Out },
  deps: { fetch: typeof fetch; now: () => Date } = { fetch, now: () => new Date() },
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const named = positionals.slice(2);
  const configured = config.ipListSources as Partial<Record<IpListName, string>>;
  for (const list of named) {
    if (!isIpListName(list))
      throw new ValueError(
        `iplist sync: unknown list ${JSON.stringify(list)}; the lists are ${IP_LIST_NAMES.join(', ')}\n`,
      );
    if (!configured[list])
      throw new ValueError(
        `iplist sync: ${list} has no source; set IPLIST_SOURCE_${list.toUpperCase()} to a URL or file\n`,
      );
  }
  const sources = Object.fromEntries(
    Object.entries(configured).filter(([list]) => named.length === 0 || named.includes(list)),
  ) as Partial<Record<IpListName, string>>;
  if (Object.keys(sources).length === 0)
    throw new ValueError('iplist sync: no list has a source (every IPLIST_SOURCE_<LIST> is off)\n');
  const outcomes = await syncIpLists(sources, {
    dir: ipListsDir(config),
    timeoutMs: config.ipListSyncTimeoutMs,
    ...deps,
  });
  if (values.json) io.stdout(JSON.stringify({ lists: outcomes }, null, 2));
  for (const o of outcomes) {
    if (o.ok) {
      const was = o.previous ? ` (was ${o.previous.entries}, synced ${o.previous.syncedAt.toISOString()})` : '';
      if (!values.json) io.stdout(`${o.list}: ${o.entries} entries from ${o.source}${was}`);
    } else {
      const kept = o.kept
        ? `the list in use is kept (${o.kept.entries} entries, synced ${o.kept.syncedAt.toISOString()})`
        : 'the list stays empty (never synced)';
      io.stderr(`trustgate: iplist sync: ${o.list}: download from ${o.source} ${o.error}; ${kept}`);
    }
  }
  return outcomes.every((o) => o.ok) ? 0 : 1;
}
