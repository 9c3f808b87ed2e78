/** Editing the operator's list files (`trustgate iplist add|remove|show`): validated, canonical, replaced in one step. */
import fs from 'node:fs';
import { normaliseIpListEntry, parseBlock, parseListText } from './entries';
import { IP_LIST_NAMES, ipListFile, isIpListName, type IpListName } from './names';

function checked(list: string, cidr: string): string {
  if (!isIpListName(list))
    throw new Error(`unknown IP list ${JSON.stringify(list)}; the lists are ${IP_LIST_NAMES.join(', ')}`);
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
export function readIpList(
  dir: string,
  list: IpListName,
): { file: string; entries: string[]; invalid: { line: number; text: string }[] } {
  const file = ipListFile(dir, list);
  const parsed = parseListText(readText(file) ?? '');
  return { file, entries: parsed.blocks.map((b) => b.cidr), invalid: parsed.bad };
}
