/**
 * The IP data files' digests across nodes (src/geo/data-files.ts) over the real records
 * (node_data_files, on the engine under test): each node records its files, reads the others'
 * and reports a difference once per change; quiet nodes stop counting and are pruned.
 */
import { fixedClock } from '../../src/clock';
import type { DataFileDigest } from '../../src/domain/data-files';
import { makeDataFileWatch } from '../../src/geo/data-files';
import { makeLogger } from '../../src/logger';
import { makeNodeDataFiles } from '../../src/storage/repositories/node-data-files';
import { makeTestDb, type TestDb } from '../helpers/db';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await makeTestDb();
});
afterAll(() => testDb.destroy());

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

describe('makeDataFileWatch', () => {
  it('when a node loads another file, then the others name it, a warning is logged once, and it stops counting once quiet', async () => {
    const clock = fixedClock('2026-12-01T10:00:00Z');
    const records = makeNodeDataFiles(testDb.db);
    const logs: Record<string, unknown>[] = [];
    const logger = makeLogger('info', { write: (l: string) => logs.push(JSON.parse(l)) } as never);
    let hostingOfB: DataFileDigest = { file: 'hosting_asns', sha256: A };
    const node = (name: string, digests: () => DataFileDigest[]) =>
      makeDataFileWatch({ node: name, digests, records, clock, logger, intervalMs: 1000 });
    const a = node('node-a', () => [
      { file: 'city', sha256: A },
      { file: 'hosting_asns', sha256: A },
    ]);
    const b = node('node-b', () => [{ file: 'city', sha256: A }, hostingOfB]);

    await a.runOnce();
    await b.runOnce();
    await a.runOnce();
    expect(a.health().every((f) => f.differing_nodes.length === 0)).toBe(true);
    expect(logs.filter((l) => l.level === 40)).toEqual([]);

    // node-b reloads another hosting-ASN file.
    hostingOfB = { file: 'hosting_asns', sha256: B };
    await b.runOnce();
    await a.runOnce();
    await a.runOnce();
    expect(a.health()).toEqual([
      { file: 'city', sha256: A, differing_nodes: [] },
      { file: 'hosting_asns', sha256: A, differing_nodes: [{ node: 'node-b', sha256: B }] },
    ]);
    expect(b.health()[1]).toEqual({
      file: 'hosting_asns',
      sha256: B,
      differing_nodes: [{ node: 'node-a', sha256: A }],
    });
    const warnings = logs.filter(
      (l) => l.msg === 'other nodes loaded different IP data files (GET /healthz data.files)',
    );
    expect(warnings.filter((l) => l.node === 'node-a')).toHaveLength(1);

    // node-b goes quiet: after the fresh window it no longer counts, and a day later its rows are gone.
    clock.advance(31_000);
    await a.runOnce();
    expect(a.health()[1]!.differing_nodes).toEqual([]);
    expect(logs.filter((l) => l.node === 'node-a').map((l) => l.msg)).toContain(
      'every node loaded the same IP data files again',
    );
    clock.advance(86_400_000);
    await a.runOnce();
    expect(await testDb.db('node_data_files').distinct('node').pluck('node')).toEqual(['node-a']);
  });

  it('when there are no records (SQLite, one node), then the files loaded now are shown, none differing', async () => {
    let city: DataFileDigest = { file: 'city', sha256: A };
    const watch = makeDataFileWatch({
      node: 'alone',
      digests: () => [city],
      clock: fixedClock('2026-12-01T10:00:00Z'),
      logger: makeLogger('silent'),
      intervalMs: 1000,
    });
    await watch.start();
    expect(watch.health()).toEqual([{ file: 'city', sha256: A, differing_nodes: [] }]);
    city = { file: 'city', sha256: B }; // reloaded
    expect(watch.health()).toEqual([{ file: 'city', sha256: B, differing_nodes: [] }]);
    watch.stop();
  });
});
