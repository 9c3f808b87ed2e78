/**
 * Whether the nodes of one database loaded the same IP data files: each node records the SHA-256
 * of each file it loaded (GeoIP city, ASN, hosting ASNs) with when it last said so, and compares
 * its own with the other nodes' recent ones. Two nodes answering one address differently is a
 * fault an operator cannot see in any one node's answers, so it is reported, not corrected.
 */
import type { DataFileHealth } from '../api-types';

export type DataFileName = DataFileHealth['file'];

export interface DataFileDigest {
  file: DataFileName;
  sha256: string;
}

/** One node's record of one file, as another node reads it. */
export interface NodeDataFile {
  node: string;
  file: string;
  sha256: string;
  seenAt: Date;
}

/**
 * Each of this node's files with the other nodes that loaded a different one: those seen since
 * `freshSince` (a node gone quiet is left out), by node name. A node that records no such file
 * (another version) is not counted as differing.
 */
export function compareDataFiles(
  mine: readonly DataFileDigest[],
  records: readonly NodeDataFile[],
  self: string,
  freshSince: Date,
): DataFileHealth[] {
  return mine.map(({ file, sha256 }) => ({
    file,
    sha256,
    differing_nodes: records
      .filter((r) => r.node !== self && r.file === file && r.sha256 !== sha256 && r.seenAt >= freshSince)
      .map((r) => ({ node: r.node, sha256: r.sha256 }))
      .sort((a, b) => (a.node < b.node ? -1 : a.node > b.node ? 1 : 0)),
  }));
}

/** What changes when the differences change (for logging them once per change); '' when there are none. */
export function differencesKey(files: readonly DataFileHealth[]): string {
  return files.flatMap((f) => f.differing_nodes.map((n) => `${f.file}:${f.sha256}:${n.node}:${n.sha256}`)).join('\n');
}
