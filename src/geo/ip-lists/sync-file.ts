/** The header of a synced list file: where it was downloaded from, when, and how many entries it has. */
import type { IpListName } from './names';

export interface SyncHeader {
  /** The URL or file it was read from. */
  source: string;
  syncedAt: Date;
  entries: number;
}

const FIELD = /^#\s*(source|synced_at|entries):\s*(.+?)\s*$/;

/** The comment lines a synced file starts with. */
export function syncHeaderText(list: IpListName, header: SyncHeader): string {
  return [
    `# Trustgate IP list "${list}", written by \`trustgate iplist sync\` and replaced whole by the next sync:`,
    `# do not edit it (your own entries go in ../${list}.txt).`,
    `# source: ${header.source}`,
    `# synced_at: ${header.syncedAt.toISOString()}`,
    `# entries: ${header.entries}`,
    '',
  ].join('\n');
}

/** The header of a synced file's text; undefined when its first comment lines do not hold one. */
export function parseSyncHeader(text: string): SyncHeader | undefined {
  const fields: Record<string, string> = {};
  for (const line of text.slice(0, 4096).split('\n')) {
    if (!line.startsWith('#')) break;
    const m = FIELD.exec(line);
    if (m) fields[m[1]!] = m[2]!;
  }
  const syncedAt = new Date(fields.synced_at ?? '');
  const entries = Number(fields.entries);
  if (!fields.source || Number.isNaN(syncedAt.getTime()) || !Number.isInteger(entries)) return undefined;
  return { source: fields.source, syncedAt, entries };
}
