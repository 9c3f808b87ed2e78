/**
 * `trustgate iplist sync`: the published lists downloaded, checked and swapped in, on the
 * operator's command only (never at install or start).
 *
 * Each list is read from its source (an http(s) URL, or a file: a mirror), checked as a whole
 * (every line an address or CIDR block, optionally followed by comma-separated fields as in
 * Apple's CSV; between a floor and a ceiling of entries; not over the size limit), and only
 * then stored as the list's synced text in canonical form, with its source and time in the
 * header, whole (`<dir>/synced/<list>.txt` by rename, or its row in the database: store.ts): a
 * running server sees the old list or the new one, never a mix. A download that fails, times out or does not check leaves the list in use
 * as it was. Lists are synced one after another and independently.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseBlock, type Block } from './entries';
import type { IpListName } from './names';
import { fileListTexts, updateListText, type IpListTexts } from './store';
import { parseSyncHeader, syncHeaderText, type SyncHeader } from './sync-file';

/** The bounds a download must keep to. The floors catch an empty or cut-short answer; the ceilings a runaway one. */
export const SYNC_LIMITS = {
  maxBytes: 128 * 1024 * 1024,
  maxEntries: 2_000_000,
  /** Today: ~1,200 Tor exits, ~300,000 relay ranges, ~10,000 VPN blocks. */
  minEntries: { tor: 100, relay: 1000, vpn: 100, datacenter: 100, proxy: 1, fraud: 1 },
} satisfies { maxBytes: number; maxEntries: number; minEntries: Record<IpListName, number> };

export interface SyncDeps {
  /** Where the synced texts go: the store, or the IP lists folder (IP_LISTS_DIR), whose `synced` folder then holds them. */
  texts?: IpListTexts;
  dir?: string;
  fetch: typeof fetch;
  now: () => Date;
  /** The longest one download may take. */
  timeoutMs: number;
  limits?: typeof SYNC_LIMITS;
}

export type SyncOutcome =
  | { list: IpListName; source: string; ok: true; entries: number; previous?: SyncHeader }
  | { list: IpListName; source: string; ok: false; error: string; kept?: SyncHeader };

class SyncRefused extends Error {}

const isUrl = (source: string) => /^https?:\/\//i.test(source);

async function readBody(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) throw new SyncRefused(`it is ${declared} bytes, over the ${maxBytes}-byte limit`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new SyncRefused(`it is over the ${maxBytes}-byte limit`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The source's bytes: downloaded (with the timeout) or read from a file. */
async function fetchSource(source: string, deps: SyncDeps, maxBytes: number): Promise<Uint8Array> {
  if (!isUrl(source)) {
    const file = source.startsWith('file:') ? fileURLToPath(source) : source;
    const size = (await fs.promises.stat(file)).size;
    if (size > maxBytes) throw new SyncRefused(`it is ${size} bytes, over the ${maxBytes}-byte limit`);
    return fs.promises.readFile(file);
  }
  const signal = AbortSignal.timeout(deps.timeoutMs);
  let response: Response;
  try {
    response = await deps.fetch(source, { signal, headers: { 'user-agent': 'trustgate-iplist-sync' } });
  } catch (err) {
    throw new Error(signal.aborted ? `no answer within ${deps.timeoutMs} ms` : describe(err));
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}`);
  }
  try {
    return await readBody(response, maxBytes);
  } catch (err) {
    if (err instanceof SyncRefused) throw err;
    throw new Error(signal.aborted ? `the download took over ${deps.timeoutMs} ms` : describe(err));
  }
}

function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message ?? String(err)} (${cause})` : (e.message ?? String(err));
}

/**
 * A downloaded list's text → its blocks; refused whole when a line is not an address or CIDR
 * block (first comma-separated field), or the count is out of bounds.
 */
export function checkDownload(list: IpListName, text: string, limits = SYNC_LIMITS): Block[] {
  const blocks: Block[] = [];
  const bad: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) return;
    const block = parseBlock(line.split(',')[0]!);
    if (block) blocks.push(block);
    else if (bad.length < 3) bad.push(`line ${i + 1}: ${JSON.stringify(raw.slice(0, 80))}`);
  });
  if (bad.length > 0) throw new SyncRefused(`not an address or CIDR block at ${bad.join('; ')}`);
  const min = limits.minEntries[list];
  if (blocks.length < min) throw new SyncRefused(`it has ${blocks.length} entries, fewer than the ${min} expected`);
  if (blocks.length > limits.maxEntries)
    throw new SyncRefused(`it has ${blocks.length} entries, more than the ${limits.maxEntries} allowed`);
  return blocks;
}

async function currentHeader(texts: IpListTexts, list: IpListName): Promise<SyncHeader | undefined> {
  try {
    const stored = await texts.read(list, 'synced');
    return stored ? parseSyncHeader(stored.text.slice(0, 4096)) : undefined;
  } catch {
    return undefined;
  }
}

function textsOf(deps: SyncDeps): IpListTexts {
  if (deps.texts) return deps.texts;
  if (deps.dir === undefined) throw new Error('syncIpList needs texts or dir');
  return fileListTexts(deps.dir);
}

/** Downloads, checks and swaps in one list; the list in use stays as it was on any failure. */
export async function syncIpList(list: IpListName, source: string, deps: SyncDeps): Promise<SyncOutcome> {
  const limits = deps.limits ?? SYNC_LIMITS;
  const texts = textsOf(deps);
  const previous = await currentHeader(texts, list);
  try {
    const bytes = await fetchSource(source, deps, limits.maxBytes);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new SyncRefused('it is not UTF-8 text');
    }
    const blocks = checkDownload(list, text, limits);
    const cidrs = [...new Set(blocks.map((b) => b.cidr))];
    const header = syncHeaderText(list, { source, syncedAt: deps.now(), entries: cidrs.length });
    await updateListText(texts, list, 'synced', () => `${header}${cidrs.join('\n')}\n`);
    return { list, source, ok: true, entries: cidrs.length, ...(previous ? { previous } : {}) };
  } catch (err) {
    const why = err instanceof SyncRefused ? `refused: ${err.message}` : `failed: ${describe(err)}`;
    return { list, source, ok: false, error: why, ...(previous ? { kept: previous } : {}) };
  }
}

/** Syncs each list from its source, one after another. */
export async function syncIpLists(
  sources: Readonly<Partial<Record<IpListName, string>>>,
  deps: SyncDeps,
): Promise<SyncOutcome[]> {
  const outcomes: SyncOutcome[] = [];
  for (const [list, source] of Object.entries(sources) as [IpListName, string][]) {
    outcomes.push(await syncIpList(list, source, deps));
  }
  return outcomes;
}
