/**
 * `trustgate iplist add|remove|show|sync`: the operator's IP lists and the synced published
 * lists, wherever their texts live (geo/ip-lists/store.ts): IP_LISTS_DIR's files on SQLite, the
 * database on PostgreSQL. A running server reloads them by itself (every node, on PostgreSQL).
 */
import { parseArgs } from 'node:util';
import type { Config } from '../config';
import {
  entriesOfText,
  IP_LIST_NAMES,
  isIpListName,
  normaliseIpListEntry,
  syncIpLists,
  textWithEntry,
  textWithoutEntry,
  updateListText,
  type IpListName,
  type IpListTexts,
} from '../geo/ip-lists';
import { print, UsageError, ValueError, type Out } from './command';

/** Where a list's operator's text is, as the JSON output names it: `file` (a path) or `database` (its row). */
const whereOf = (texts: IpListTexts, list: IpListName) =>
  texts.kind === 'files' ? { file: texts.where(list, 'operator') } : { database: texts.where(list, 'operator') };

/** `trustgate iplist …`: edits and shows the operator's IP lists in `texts`. */
export async function runIpList(argv: string[], texts: IpListTexts, out: Out): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const [area, command, list, address, ...extra] = positionals;
  if (area !== 'iplist' || !['add', 'remove', 'show'].includes(command ?? '')) throw new UsageError();
  if (!list || !isIpListName(list))
    throw new UsageError(`iplist ${command} needs a LIST: one of ${IP_LIST_NAMES.join(', ')}`);
  const where = texts.where(list, 'operator');
  if (command === 'show') {
    if (address !== undefined) throw new UsageError('iplist show takes only a LIST');
    const { entries, invalid } = entriesOfText((await texts.read(list, 'operator'))?.text);
    if (values.json) out(JSON.stringify({ list, ...whereOf(texts, list), entries, invalid_lines: invalid }, null, 2));
    else {
      if (entries.length === 0) out(`${list}: no entries in ${where}`);
      entries.forEach((e) => out(e));
      invalid.forEach((l) => out(`# skipped ${where} line ${l.line}: ${l.text}`));
    }
    return;
  }
  if (!address || extra.length > 0)
    throw new UsageError(`iplist ${command} needs a LIST and one IP address or CIDR block`);
  const entry = normaliseIpListEntry(address);
  if (!entry) throw new UsageError(`not an IP address or CIDR block: ${address}`);
  if (command === 'add') {
    const added = await updateListText(texts, list, 'operator', (text) => textWithEntry(text, list, entry));
    print(out, values.json, { list, entry, added, ...whereOf(texts, list) }, [
      added ? `added ${entry} to ${list} (${where})` : `${entry} is already on ${list}`,
    ]);
  } else {
    const removed = await updateListText(texts, list, 'operator', (text) => textWithoutEntry(text, list, entry));
    print(out, values.json, { list, entry, removed, ...whereOf(texts, list) }, [
      removed ? `removed ${entry} from ${list} (${where})` : `${entry} is not on ${list}`,
    ]);
  }
}

/**
 * `trustgate iplist sync [LIST...]`: each configured list (or those named) downloaded, checked
 * and swapped in; resolves to the exit code (0 all synced, 1 one or more kept as they were).
 */
export async function runIpListSync(
  argv: string[],
  config: Pick<Config, 'ipListSources' | 'ipListSyncTimeoutMs'>,
  texts: IpListTexts,
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
    texts,
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
