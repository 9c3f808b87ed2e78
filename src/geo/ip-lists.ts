/**
 * IP risk lists: Tor exits, VPNs, proxies, data centres and addresses recently seen in fraud.
 *
 * Two sources per list:
 * - shipped: `src/geo/data/<list>.txt`, loaded once. No such file is shipped today: no
 *   permissively licensed, current snapshot could be found in an npm or Debian package (the
 *   only Tor exit list found, inside `tor-detect`, dates from 2018 and would mislabel
 *   addresses that have long changed hands). A file dropped there later is picked up as is.
 * - operator: `<dir>/<list>.txt` (IP_LISTS_DIR, by default `<DATA_DIR>/ip-lists`), edited by
 *   hand or with `trustgate iplist add|remove`, and reloaded without a restart (polled, as
 *   network file systems need). A file that appears, changes or disappears is re-read whole;
 *   a file that cannot be read at all keeps the entries it had. A file rewritten in place can
 *   be caught half written for one poll interval; `trustgate iplist` replaces files by rename.
 *
 * File format: one IPv4 or IPv6 address or CIDR block a line; `#` starts a comment (whole line
 * or after an entry); blank lines are fine. A CIDR block with host bits set stands for its
 * network (`10.1.2.3/8` is `10.0.0.0/8`); IPv4-mapped IPv6 (`::ffff:1.2.3.4`, `::ffff:1.2.3.0/120`)
 * is read as IPv4. A line that is none of these is skipped, the rest of the file is loaded,
 * and `onReload(file, error)` is told, with an {@link IpListFileError} naming each bad line.
 * Problems found when the lists are first opened are reported the same way.
 *
 * Lookups: each list and source keeps its blocks sorted by first address, each with the index
 * of the nearest block around it (CIDR blocks nest or are apart). A binary search finds the last
 * block starting at or before the address; it, or one of the blocks around it, is the narrowest
 * block holding the address. IPv4 keys are numbers, IPv6 keys BigInts.
 */
import fs from 'node:fs';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { PACKAGE_ROOT } from '../spec';

import type { IpListName } from '../domain/signals/context';
import { lastAtOrBelow } from './ranges';

export type { IpListName };
export const IP_LIST_NAMES: readonly IpListName[] = ['tor', 'vpn', 'proxy', 'datacenter', 'fraud'];

export interface IpListMatch {
  list: IpListName;
  source: 'shipped' | 'operator';
  /** The narrowest block of that list and source holding the address, in CIDR notation. */
  entry: string;
}

export interface IpLists {
  /** Every list the address is on (IPv4, IPv6 and IPv4-mapped IPv6 handled; invalid input → []). */
  lookup(ip: string): IpListMatch[];
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
    super(`${file}: skipped ${lines.length} line(s) that are not an IP address or CIDR block (${shown.join('; ')}${more}); the other lines are in effect`);
    this.name = 'IpListFileError';
  }
}

export const SHIPPED_IP_LISTS_DIR = path.join(PACKAGE_ROOT, 'src', 'geo', 'data');

// ---------------------------------------------------------------------------------------------
// Parsing

interface Block {
  v6: boolean;
  start: bigint;
  end: bigint;
  /** Canonical CIDR notation: network address (ipaddr.js's compact form) and prefix length. */
  cidr: string;
}

function toBigInt(address: ipaddr.IPv4 | ipaddr.IPv6): bigint {
  if (address.kind() === 'ipv4') return BigInt(v4Number((address as ipaddr.IPv4).octets));
  let value = 0n;
  for (const part of (address as ipaddr.IPv6).parts) value = (value << 16n) | BigInt(part);
  return value;
}

function v4Number(octets: number[]): number {
  return ((octets[0] * 256 + octets[1]) * 256 + octets[2]) * 256 + octets[3];
}

function fromBigInt(value: bigint, v6: boolean): string {
  const bytes: number[] = [];
  for (let i = (v6 ? 16 : 4) - 1; i >= 0; i--) bytes.push(Number((value >> BigInt(i * 8)) & 0xffn));
  return ipaddr.fromByteArray(bytes).toString();
}

const DOTTED_QUAD = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$/;

/**
 * Strict parsing: dotted-quad decimal IPv4 only (ipaddr.js alone also takes `127.1`, hex and
 * octal forms), else IPv6. No exceptions on the way for valid input (they are slow to make).
 */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (text.includes(':')) {
    try {
      return ipaddr.IPv6.parse(text);
    } catch {
      return undefined;
    }
  }
  const m = DOTTED_QUAD.exec(text);
  if (!m) return undefined;
  const octets = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
  return octets.every((o) => o <= 255) ? new ipaddr.IPv4(octets) : undefined;
}

/** An address or CIDR block (`1.2.3.4`, `1.2.3.0/24`, `2001:db8::/32`) → its block; undefined if neither. */
function parseBlock(raw: string): Block | undefined {
  const text = raw.trim();
  const slash = text.indexOf('/');
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const prefixText = slash < 0 ? undefined : text.slice(slash + 1);
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  if (addressText.includes('%')) return undefined; // zone indices name an interface, not a range
  let address = parseAddress(addressText);
  if (!address) return undefined;
  let prefix = prefixText === undefined ? (address.kind() === 'ipv4' ? 32 : 128) : Number(prefixText);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    address = (address as ipaddr.IPv6).toIPv4Address();
    prefix -= 96;
  }
  const v6 = address.kind() === 'ipv6';
  const bits = v6 ? 128 : 32;
  if (prefix > bits) return undefined;
  const hostMask = (1n << BigInt(bits - prefix)) - 1n;
  const start = toBigInt(address) & ~hostMask;
  const end = start | hostMask;
  return { v6, start, end, cidr: `${fromBigInt(start, v6)}/${prefix}` };
}

/** The canonical form of an address or CIDR block (`1.2.3.4` → `1.2.3.4/32`), or undefined if it is neither. */
export function normaliseIpListEntry(text: string): string | undefined {
  return parseBlock(text)?.cidr;
}

interface ParsedFile {
  blocks: Block[];
  bad: { line: number; text: string }[];
}

function parseListText(text: string): ParsedFile {
  const blocks: Block[] = [];
  const bad: { line: number; text: string }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) return;
    const block = parseBlock(line);
    if (block) blocks.push(block);
    else bad.push({ line: i + 1, text: raw.trim() });
  });
  return { blocks, bad };
}

// ---------------------------------------------------------------------------------------------
// Lookup tables

class BlockTable<K extends number | bigint> {
  private readonly starts: K[] = [];
  private readonly ends: K[] = [];
  /** Index of the nearest block around each block, or -1. */
  private readonly parents: number[] = [];
  private readonly cidrs: string[] = [];

  constructor(blocks: Block[], key: (value: bigint) => K) {
    const sorted = blocks
      .slice()
      .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.end > b.end ? -1 : a.end < b.end ? 1 : 0));
    const open: number[] = [];
    for (const block of sorted) {
      const last = this.cidrs.length - 1;
      if (last >= 0 && this.cidrs[last] === block.cidr) continue; // the same block twice
      const start = key(block.start);
      while (open.length > 0 && this.ends[open[open.length - 1]] < start) open.pop();
      this.parents.push(open.length > 0 ? open[open.length - 1] : -1);
      this.starts.push(start);
      this.ends.push(key(block.end));
      this.cidrs.push(block.cidr);
      open.push(this.cidrs.length - 1);
    }
  }

  get size(): number {
    return this.cidrs.length;
  }

  /** The narrowest block holding `value`. */
  find(value: K): string | undefined {
    const hi = lastAtOrBelow(this.starts, value);
    // Every block holding the value holds block `hi` too (blocks nest), so it is `hi` or around it.
    for (let i = hi; i >= 0; i = this.parents[i]) {
      if (this.ends[i] >= value) return this.cidrs[i];
    }
    return undefined;
  }
}

interface ListTables {
  v4: BlockTable<number>;
  v6: BlockTable<bigint>;
}

function tablesOf(blocks: Block[]): ListTables {
  return {
    v4: new BlockTable<number>(
      blocks.filter((b) => !b.v6),
      (v) => Number(v),
    ),
    v6: new BlockTable<bigint>(
      blocks.filter((b) => b.v6),
      (v) => v,
    ),
  };
}

const EMPTY: ListTables = tablesOf([]);

/** An address → its key in the IPv4 or IPv6 table; undefined if it is not an address. */
function keyOf(ip: string): { v4: number } | { v6: bigint } | undefined {
  if (typeof ip !== 'string') return undefined;
  const address = parseAddress(ip.trim());
  if (!address) return undefined;
  if (address.kind() === 'ipv4') return { v4: v4Number((address as ipaddr.IPv4).octets) };
  const v6 = address as ipaddr.IPv6;
  return v6.isIPv4MappedAddress() ? { v4: v4Number(v6.toIPv4Address().octets) } : { v6: toBigInt(v6) };
}

// ---------------------------------------------------------------------------------------------
// Opening and watching

/** The operator's file for a list: `<dir>/<list>.txt`. */
export function ipListFile(dir: string, list: IpListName): string {
  return path.join(dir, `${list}.txt`);
}

/** Reads a list file: undefined when it does not exist; other read errors are thrown. */
function readListFile(file: string): ParsedFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return parseListText(text);
}

export function openIpLists(options: IpListsOptions): IpLists {
  const shippedDir = options.shippedDir ?? SHIPPED_IP_LISTS_DIR;
  const report = (file: string, error?: Error) => options.onReload?.(file, error);

  const shipped = new Map<IpListName, ListTables>();
  const operator = new Map<IpListName, ListTables>();

  /** Loads one file into `into`; false when it could not be read (the old entries stay). */
  function load(file: string, list: IpListName, into: Map<IpListName, ListTables>): boolean {
    let parsed: ParsedFile | undefined;
    try {
      parsed = readListFile(file);
    } catch (err) {
      report(file, err as Error);
      return false;
    }
    into.set(list, parsed ? tablesOf(parsed.blocks) : EMPTY);
    if (parsed && parsed.bad.length > 0) report(file, new IpListFileError(file, parsed.bad));
    return parsed === undefined || parsed.bad.length === 0;
  }

  for (const list of IP_LIST_NAMES) load(ipListFile(shippedDir, list), list, shipped);

  const unwatch: (() => void)[] = [];
  if (options.dir) {
    for (const list of IP_LIST_NAMES) {
      const file = ipListFile(options.dir, list);
      load(file, list, operator);
      const listener = (current: fs.Stats, previous: fs.Stats) => {
        if (current.mtimeMs === previous.mtimeMs && current.size === previous.size && current.ino === previous.ino) return;
        if (load(file, list, operator)) report(file);
      };
      // Polling works for files that do not exist yet, on network file systems, and across
      // an editor's or `trustgate iplist`'s replace-by-rename.
      fs.watchFile(file, { interval: options.watchIntervalMs ?? 5000, persistent: false }, listener);
      unwatch.push(() => fs.unwatchFile(file, listener));
    }
  }

  const sources: [IpListMatch['source'], Map<IpListName, ListTables>][] = [
    ['shipped', shipped],
    ['operator', operator],
  ];

  return {
    lookup(ip: string): IpListMatch[] {
      const key = keyOf(ip);
      if (!key) return [];
      const matches: IpListMatch[] = [];
      for (const list of IP_LIST_NAMES) {
        for (const [source, tables] of sources) {
          const t = tables.get(list);
          if (!t) continue;
          const entry = 'v4' in key ? t.v4.find(key.v4) : t.v6.find(key.v6);
          if (entry) matches.push({ list, source, entry });
        }
      }
      return matches;
    },
    close() {
      unwatch.splice(0).forEach((stop) => stop());
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Editing the operator's files

export function isIpListName(name: string): name is IpListName {
  return (IP_LIST_NAMES as readonly string[]).includes(name);
}

function checked(list: string, cidr: string): string {
  if (!isIpListName(list)) throw new Error(`unknown IP list ${JSON.stringify(list)}; the lists are ${IP_LIST_NAMES.join(', ')}`);
  const entry = normaliseIpListEntry(cidr);
  if (!entry) throw new Error(`not an IP address or CIDR block: ${JSON.stringify(cidr)}`);
  return entry;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Replaces the file in one step (a watcher never reads half of it), keeping its mode. */
function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  let mode: number | undefined;
  try {
    mode = fs.statSync(file).mode & 0o777;
  } catch {
    mode = undefined;
  }
  fs.writeFileSync(tmp, text, mode === undefined ? undefined : { mode });
  fs.renameSync(tmp, file);
}

/**
 * Adds an address or CIDR block (validated, written in canonical form) to the operator's list
 * file, creating the folder and file when needed. False when that block is already on it.
 * Throws for an unknown list or something that is not an address or block.
 */
export function addToIpList(dir: string, list: IpListName, cidr: string): boolean {
  const entry = checked(list, cidr);
  const file = ipListFile(dir, list);
  const text = readText(file);
  if (text !== undefined && parseListText(text).blocks.some((b) => b.cidr === entry)) return false;
  fs.mkdirSync(dir, { recursive: true });
  const head = text ?? `# Trustgate IP list "${list}": one IP address or CIDR block a line; '#' starts a comment.\n`;
  writeAtomically(file, `${head}${head === '' || head.endsWith('\n') ? '' : '\n'}${entry}\n`);
  return true;
}

/**
 * Removes every line holding that address or block (in any spelling) from the operator's list
 * file; comments and other lines stay. False when it was not on the list.
 */
export function removeFromIpList(dir: string, list: IpListName, cidr: string): boolean {
  const entry = checked(list, cidr);
  const file = ipListFile(dir, list);
  const text = readText(file);
  if (text === undefined) return false;
  const lines = text.split('\n');
  const kept = lines.filter((raw) => parseBlock(raw.replace(/#.*/, '').trim())?.cidr !== entry);
  if (kept.length === lines.length) return false;
  writeAtomically(file, kept.join('\n'));
  return true;
}

/** The operator's entries on a list (canonical form, in file order) and the lines that are not entries. */
export function readIpList(dir: string, list: IpListName): { file: string; entries: string[]; invalid: { line: number; text: string }[] } {
  const file = ipListFile(dir, list);
  const parsed = parseListText(readText(file) ?? '');
  return { file, entries: parsed.blocks.map((b) => b.cidr), invalid: parsed.bad };
}
