/** Comparing the IP data files nodes loaded (src/domain/data-files.ts). */
import { compareDataFiles, differencesKey, type NodeDataFile } from '../../src/domain/data-files';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);
const now = new Date('2026-12-01T10:00:00Z');
const fresh = new Date('2026-12-01T09:59:30Z');
const seen = (node: string, file: string, sha256: string, at = now): NodeDataFile => ({
  node,
  file,
  sha256,
  seenAt: at,
});
const mine = [
  { file: 'city' as const, sha256: A },
  { file: 'hosting_asns' as const, sha256: A },
];

describe('compareDataFiles', () => {
  it('when every node loaded the same files, then none differs', () => {
    const records = [seen('me', 'city', A), seen('n2', 'city', A), seen('n2', 'hosting_asns', A)];
    const compared = compareDataFiles(mine, records, 'me', fresh);
    expect(compared).toEqual([
      { file: 'city', sha256: A, differing_nodes: [] },
      { file: 'hosting_asns', sha256: A, differing_nodes: [] },
    ]);
    expect(differencesKey(compared)).toBe('');
  });

  it('when other nodes loaded a different file, then each is named with its digest, by name', () => {
    const records = [seen('n3', 'hosting_asns', C), seen('n2', 'hosting_asns', B), seen('n2', 'city', A)];
    expect(compareDataFiles(mine, records, 'me', fresh)).toEqual([
      { file: 'city', sha256: A, differing_nodes: [] },
      {
        file: 'hosting_asns',
        sha256: A,
        differing_nodes: [
          { node: 'n2', sha256: B },
          { node: 'n3', sha256: C },
        ],
      },
    ]);
  });

  it('when a differing record is this node’s own, or older than the fresh bound, then it does not count', () => {
    const records = [seen('me', 'city', B), seen('gone', 'city', B, new Date('2026-12-01T09:00:00Z'))];
    expect(compareDataFiles(mine, records, 'me', fresh)[0]!.differing_nodes).toEqual([]);
  });

  it('when another node records no such file (another version), then it is not counted as differing', () => {
    expect(
      compareDataFiles(mine, [seen('n2', 'asn', B)], 'me', fresh).every((f) => f.differing_nodes.length === 0),
    ).toBe(true);
  });
});

describe('differencesKey', () => {
  it('when the differing nodes or their digests change, then the key changes', () => {
    const one = differencesKey(compareDataFiles(mine, [seen('n2', 'city', B)], 'me', fresh));
    const other = differencesKey(compareDataFiles(mine, [seen('n2', 'city', C)], 'me', fresh));
    expect(one).not.toBe('');
    expect(one).not.toBe(other);
    expect(differencesKey(compareDataFiles(mine, [seen('n2', 'city', B)], 'me', fresh))).toBe(one);
  });
});
