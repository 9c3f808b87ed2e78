/**
 * Editing the operator's lists (`trustgate iplist add|remove|show`): pure functions over a list's
 * text (validated, canonical), written through the store of the texts (store.ts) by the caller.
 * The `…IpList(dir, …)` forms edit the files of a folder directly (tests, one machine).
 */
import fs from 'node:fs';
import { normaliseIpListEntry, parseBlock, parseListText } from './entries';
import { IP_LIST_NAMES, ipListFile, isIpListName, type IpListName } from './names';

/** The entry's canonical form; throws for an unknown list or something that is not an address or block. */
export function checkedEntry(list: string, cidr: string): string {
  if (!isIpListName(list))
    throw new Error(`unknown IP list ${JSON.stringify(list)}; the lists are ${IP_LIST_NAMES.join(', ')}`);
  const entry = normaliseIpListEntry(cidr);
  if (!entry) throw new Error(`not an IP address or CIDR block: ${JSON.stringify(cidr)}`);
  return entry;
}

/**
 * The list's text with the entry (canonical) added at its end, a new list starting with a
 * comment saying what it is; undefined when that block is already on it.
 */
export function textWithEntry(text: string | undefined, list: IpListName, cidr: string): string | undefined {
  const entry = checkedEntry(list, cidr);
  if (text !== undefined && parseListText(text).blocks.some((b) => b.cidr === entry)) return undefined;
  const head = text ?? `# Trustgate IP list "${list}": one IP address or CIDR block a line; '#' starts a comment.\n`;
  return `${head}${head === '' || head.endsWith('\n') ? '' : '\n'}${entry}\n`;
}

/**
 * The list's text without any line holding that address or block (in any spelling); comments
 * and other lines stay. Undefined when it was not on the list.
 */
export function textWithoutEntry(text: string | undefined, list: IpListName, cidr: string): string | undefined {
  const entry = checkedEntry(list, cidr);
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  const kept = lines.filter((raw) => parseBlock(raw.replace(/#.*/, '').trim())?.cidr !== entry);
  return kept.length === lines.length ? undefined : kept.join('\n');
}

/** A list's entries (canonical form, in text order) and the lines that are not entries. */
export function entriesOfText(text: string | undefined): {
  entries: string[];
  invalid: { line: number; text: string }[];
} {
  const parsed = parseListText(text ?? '');
  return { entries: parsed.blocks.map((b) => b.cidr), invalid: parsed.bad };
}

export function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Replaces the file in one step (a watcher never reads half of it), keeping its mode. */
export function writeAtomically(file: string, text: string): void {
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

/** Adds the entry to the operator's file in `dir` (created when needed); false when it is already on it. */
export function addToIpList(dir: string, list: IpListName, cidr: string): boolean {
  const file = ipListFile(dir, list);
  const next = textWithEntry(readText(file), list, cidr);
  if (next === undefined) return false;
  fs.mkdirSync(dir, { recursive: true });
  writeAtomically(file, next);
  return true;
}

/** Removes the entry from the operator's file in `dir`; false when it was not on it. */
export function removeFromIpList(dir: string, list: IpListName, cidr: string): boolean {
  const file = ipListFile(dir, list);
  const next = textWithoutEntry(readText(file), list, cidr);
  if (next === undefined) return false;
  writeAtomically(file, next);
  return true;
}

/** The operator's entries in the file of `dir` and the lines that are not entries. */
export function readIpList(
  dir: string,
  list: IpListName,
): { file: string; entries: string[]; invalid: { line: number; text: string }[] } {
  const file = ipListFile(dir, list);
  return { file, ...entriesOfText(readText(file)) };
}
