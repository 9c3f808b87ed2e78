/**
 * Where the IP lists' texts live (src/geo/ip-lists/store.ts): the same tests run on the files of
 * a folder and on the database's table (the engine under test; PostgreSQL's is the one nodes
 * share), and the lists a server loads from the store follow its changes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixedClock } from '../../src/clock';
import {
  fileListTexts,
  openStoredIpLists,
  textWithEntry,
  updateListText,
  type IpLists,
  type IpListTexts,
} from '../../src/geo/ip-lists';
import { makeIpListTexts } from '../../src/storage/repositories/ip-list-texts';
import { until } from '../helpers/processes';
import { makeTestDb, type TestDb } from '../helpers/db';

let testDb: TestDb;
let dir: string;
let shippedDir: string;

beforeAll(async () => {
  testDb = await makeTestDb();
});
afterAll(() => testDb.destroy());
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-list-texts-'));
  shippedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-list-shipped-'));
  await testDb.db('ip_list_texts').delete();
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(shippedDir, { recursive: true, force: true });
});

const clock = fixedClock('2026-12-01T10:00:00Z');
const stores: [string, () => IpListTexts][] = [
  ['files', () => fileListTexts(dir)],
  ['database', () => makeIpListTexts(testDb.db, clock)],
];

describe.each(stores)('the %s store of list texts', (_kind, open) => {
  it('when nothing is stored, then a read finds nothing and there are no versions', async () => {
    const texts = open();
    expect(await texts.read('tor', 'operator')).toBeUndefined();
    expect(await texts.versions()).toEqual(new Map());
  });

  it('when a text is written, then it reads back, its version shows, and a write over a stale version is refused', async () => {
    const texts = open();
    expect(await texts.write('tor', 'operator', '192.0.2.1/32\n', undefined)).toBe(true);
    const first = await texts.read('tor', 'operator');
    expect(first?.text).toBe('192.0.2.1/32\n');
    expect((await texts.versions()).get('operator/tor')).toBe(first?.version);
    expect(await texts.write('tor', 'operator', 'x\n', undefined)).toBe(false);

    expect(await texts.write('tor', 'operator', '192.0.2.2/32\n', first!.version)).toBe(true);
    const second = await texts.read('tor', 'operator');
    expect(second?.text).toBe('192.0.2.2/32\n');
    expect(second?.version).not.toBe(first?.version);
    expect(await texts.write('tor', 'operator', '192.0.2.3/32\n', first!.version)).toBe(false);
    expect((await texts.read('tor', 'operator'))?.text).toBe('192.0.2.2/32\n');
    // Each list and source is a text of its own.
    expect(await texts.read('tor', 'synced')).toBeUndefined();
    expect(await texts.read('vpn', 'operator')).toBeUndefined();
  });

  it('when an edit finds the text changed since its read, then it reads again and both edits land', async () => {
    const texts = open();
    let interleaved = false;
    // A writer that lands between this edit's read and its write, once.
    const racing: IpListTexts = {
      ...texts,
      async write(list, source, text, expected) {
        if (!interleaved) {
          interleaved = true;
          const current = await texts.read(list, source);
          await texts.write(list, source, textWithEntry(current?.text, 'fraud', '198.51.100.1')!, current?.version);
        }
        return texts.write(list, source, text, expected);
      },
    };
    expect(await updateListText(racing, 'fraud', 'operator', (t) => textWithEntry(t, 'fraud', '198.51.100.2'))).toBe(
      true,
    );
    const text = (await texts.read('fraud', 'operator'))!.text;
    expect(text).toContain('198.51.100.1/32');
    expect(text).toContain('198.51.100.2/32');
  });

  it('when the lists are opened over the store, then they follow its changes', async () => {
    const texts = open();
    await texts.write('tor', 'operator', '203.0.113.0/24\n', undefined);
    const reloads: string[] = [];
    let lists: IpLists | undefined;
    try {
      lists = await openStoredIpLists(texts, { shippedDir, watchIntervalMs: 20, onReload: (w) => reloads.push(w) });
      expect(lists.lookup('203.0.113.9')).toEqual([{ list: 'tor', source: 'operator', entry: '203.0.113.0/24' }]);
      await updateListText(
        texts,
        'vpn',
        'synced',
        () => '# source: x\n# synced_at: 2026-12-01T09:00:00.000Z\n# entries: 1\n198.51.100.0/24\n',
      );
      await until(() => lists!.lookup('198.51.100.5').length > 0, 'the synced vpn list to load');
      expect(lists.lookup('198.51.100.5')).toEqual([{ list: 'vpn', source: 'synced', entry: '198.51.100.0/24' }]);
      expect(lists.status().find((s) => s.list === 'vpn')).toMatchObject({
        entries: { synced: 1 },
        synced: { source: 'x', entries: 1 },
      });
      expect(reloads).toEqual([texts.where('vpn', 'synced')]);
    } finally {
      lists?.close();
    }
  });
});

describe('the database store', () => {
  it('when edits run at once, then every one lands', async () => {
    const texts = makeIpListTexts(testDb.db, clock);
    const addresses = Array.from({ length: 8 }, (_, i) => `192.0.2.${i + 1}`);
    const added = await Promise.all(
      addresses.map((a) => updateListText(texts, 'tor', 'operator', (t) => textWithEntry(t, 'tor', a))),
    );
    expect(added).toEqual(addresses.map(() => true));
    const text = (await texts.read('tor', 'operator'))!.text;
    for (const a of addresses) expect(text).toContain(`${a}/32`);
  });

  it('when files are imported, then only into a table with no list yet, once', async () => {
    const texts = makeIpListTexts(testDb.db, clock);
    const files = [
      { list: 'tor' as const, source: 'operator' as const, text: '192.0.2.7/32\n' },
      { list: 'relay' as const, source: 'synced' as const, text: '172.224.226.0/27\n' },
    ];
    const imports = await Promise.all([texts.importOnce(files), texts.importOnce(files), texts.importOnce(files)]);
    expect(imports.filter(Boolean)).toHaveLength(1);
    expect((await texts.read('relay', 'synced'))?.text).toBe('172.224.226.0/27\n');
    expect(await texts.importOnce([{ list: 'vpn', source: 'operator', text: '198.51.100.1/32\n' }])).toBe(false);
    expect(await texts.read('vpn', 'operator')).toBeUndefined();
  });
});
