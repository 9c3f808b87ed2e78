/** The IP risk lists: lookups, CIDR edges, operator files reloaded without a restart, edits. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  addToIpList,
  IpListFileError,
  normaliseIpListEntry,
  openIpLists,
  readIpList,
  removeFromIpList,
  SHIPPED_IP_LISTS_DIR,
  type IpLists,
} from '../../src/geo/ip-lists';

let dir: string;
let shippedDir: string;
let lists: IpLists | undefined;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-iplists-'));
  shippedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-iplists-shipped-'));
});
afterEach(() => {
  lists?.close();
  lists = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(shippedDir, { recursive: true, force: true });
});

/** Writes a list file in one step, so that a watcher polling meanwhile never sees it half written. */
function write(folder: string, name: string, lines: string[]): void {
  const file = path.join(folder, `${name}.txt`);
  fs.writeFileSync(`${file}.tmp`, lines.join('\n') + '\n');
  fs.renameSync(`${file}.tmp`, file);
}

/** Opens the lists and resolves with the next report from the watcher for `file`. */
function nextReport(
  file: string,
  open: (onReload: (file: string, error?: Error) => void) => void,
): Promise<Error | undefined> {
  return new Promise((resolve) => open((f, error) => f === file && resolve(error)));
}

/**
 * fs.watchFile takes its first look at a file asynchronously; a change made before that look
 * is the baseline, not a change. Tests that change a file right after opening wait this long.
 */
const firstLook = () => new Promise((r) => setTimeout(r, 150));

describe('looking addresses up', () => {
  beforeEach(() => {
    write(dir, 'vpn', ['# a comment', '', '203.0.113.0/24', '198.51.100.7   # one address', '2001:db8:1::/48']);
    write(dir, 'tor', ['198.51.100.7', '::ffff:192.0.2.0/120']);
    write(dir, 'datacenter', ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24']);
    lists = openIpLists({ dir, shippedDir });
  });

  it('when an IPv4 address is on a list, then the list and the matching block are given', () => {
    expect(lists!.lookup('203.0.113.99')).toEqual([{ list: 'vpn', source: 'operator', entry: '203.0.113.0/24' }]);
  });

  it('when an address is on several lists, then every one is given', () => {
    expect(lists!.lookup('198.51.100.7')).toEqual([
      { list: 'tor', source: 'operator', entry: '198.51.100.7/32' },
      { list: 'vpn', source: 'operator', entry: '198.51.100.7/32' },
    ]);
  });

  it('when an IPv6 address is looked up, in any spelling, then its block is found', () => {
    expect(lists!.lookup('2001:db8:1:ffff::1')).toEqual([
      { list: 'vpn', source: 'operator', entry: '2001:db8:1::/48' },
    ]);
    expect(lists!.lookup('2001:0DB8:0001:0000:0000:0000:0000:0001')).toEqual([
      { list: 'vpn', source: 'operator', entry: '2001:db8:1::/48' },
    ]);
    expect(lists!.lookup('2001:db8:2::1')).toEqual([]);
  });

  it('when an IPv4-mapped IPv6 address is looked up, then it is read as IPv4, and mapped entries are IPv4 blocks', () => {
    expect(lists!.lookup('::ffff:203.0.113.1')).toEqual(lists!.lookup('203.0.113.1'));
    expect(lists!.lookup('::ffff:203.0.113.1')).toHaveLength(1);
    expect(lists!.lookup('192.0.2.55')).toEqual([{ list: 'tor', source: 'operator', entry: '192.0.2.0/24' }]);
  });

  it.each([
    ['203.0.113.0', true],
    ['203.0.113.255', true],
    ['203.0.112.255', false],
    ['203.0.114.0', false],
    ['2001:db8:1::', true],
    ['2001:db8:1:ffff:ffff:ffff:ffff:ffff', true],
    ['2001:db8:0:ffff:ffff:ffff:ffff:ffff', false],
    ['2001:db8:2::', false],
  ])('when %s is looked up at a block edge, then on the vpn list: %s', (ip, on) => {
    expect(lists!.lookup(ip).some((m) => m.list === 'vpn')).toBe(on);
  });

  it('when blocks nest, then the narrowest holding the address is given', () => {
    expect(lists!.lookup('10.1.2.3')).toEqual([{ list: 'datacenter', source: 'operator', entry: '10.1.2.0/24' }]);
    expect(lists!.lookup('10.1.3.3')).toEqual([{ list: 'datacenter', source: 'operator', entry: '10.1.0.0/16' }]);
    expect(lists!.lookup('10.2.0.0')).toEqual([{ list: 'datacenter', source: 'operator', entry: '10.0.0.0/8' }]);
    expect(lists!.lookup('11.0.0.0')).toEqual([]);
  });

  it.each([
    '',
    'not-an-ip',
    '203.0.113',
    '203.0.113.0/24',
    '0xcb.0.113.1',
    '999.1.1.1',
    '::ffff:999.1.1.1',
    undefined as unknown as string,
  ])('when the input %p is not an address, then no list is claimed', (ip) => {
    expect(lists!.lookup(ip)).toEqual([]);
  });
});

describe('many ranges', () => {
  it('when tens of thousands of blocks are loaded, then lookups stay fast and exact', () => {
    const lines: string[] = [];
    for (let a = 1; a <= 200; a++) for (let b = 0; b < 250; b += 2) lines.push(`${a}.${b}.0.0/16`);
    write(dir, 'proxy', lines);
    lists = openIpLists({ dir, shippedDir });
    const started = process.hrtime.bigint();
    let found = 0;
    for (let i = 0; i < 50_000; i++) if (lists.lookup(`${(i % 200) + 1}.${i % 250}.1.1`).length > 0) found++;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    expect(found).toBe(25_000); // even second octets are listed, odd ones are not
    expect(ms).toBeLessThan(2000);
  });
});

describe('shipped lists', () => {
  it('when a shipped file is present, then its entries are found as shipped, beside the operator’s', () => {
    write(shippedDir, 'tor', ['# source: test', '192.0.2.10']);
    write(dir, 'tor', ['192.0.2.0/24']);
    lists = openIpLists({ dir, shippedDir });
    expect(lists.lookup('192.0.2.10')).toEqual([
      { list: 'tor', source: 'shipped', entry: '192.0.2.10/32' },
      { list: 'tor', source: 'operator', entry: '192.0.2.0/24' },
    ]);
  });

  it('when no operator folder is given, then the (default) shipped lists still open', () => {
    lists = openIpLists({});
    expect(lists.lookup('192.0.2.1')).toEqual([]);
    // No snapshot is shipped (see src/geo/ip-lists.ts); any file that is must parse cleanly.
    const errors: Error[] = [];
    openIpLists({ shippedDir: SHIPPED_IP_LISTS_DIR, onReload: (_f, e) => e && errors.push(e) }).close();
    expect(errors).toEqual([]);
  });
});

describe("the operator's files, reloaded without a restart", () => {
  it('when a list file appears, changes and disappears, then each version is in effect after its reload', async () => {
    const file = path.join(dir, 'fraud.txt');
    const reports: { file: string; error?: Error }[] = [];
    lists = openIpLists({
      dir,
      shippedDir,
      watchIntervalMs: 20,
      onReload: (f, error) => reports.push({ file: f, error }),
    });
    await firstLook();
    const current = lists;
    /** Waits (polling the lists, as the watcher's own timing is not ours) until `ok` holds. */
    const until = async (ok: () => boolean) => {
      const deadline = Date.now() + 10_000;
      while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    };
    expect(current.lookup('198.51.100.20')).toEqual([]);

    write(dir, 'fraud', ['198.51.100.20']);
    await until(() => current.lookup('198.51.100.20').length > 0);
    expect(current.lookup('198.51.100.20')).toEqual([{ list: 'fraud', source: 'operator', entry: '198.51.100.20/32' }]);

    write(dir, 'fraud', ['198.51.100.0/28', '2001:db8::/32']);
    await until(() => current.lookup('2001:db8::5').length > 0);
    expect(current.lookup('198.51.100.20')).toEqual([]);
    expect(current.lookup('198.51.100.15')).toEqual([{ list: 'fraud', source: 'operator', entry: '198.51.100.0/28' }]);
    expect(current.lookup('2001:db8::5')).toEqual([{ list: 'fraud', source: 'operator', entry: '2001:db8::/32' }]);

    fs.rmSync(file);
    await until(() => current.lookup('198.51.100.15').length === 0);
    expect(current.lookup('198.51.100.15')).toEqual([]);
    expect(reports.length).toBeGreaterThanOrEqual(3);
    expect(reports.every((r) => r.file === file && r.error === undefined)).toBe(true);
  });

  it('when a file has malformed lines, then they are reported by line number and the rest is loaded', async () => {
    const file = path.join(dir, 'vpn.txt');
    const reported = nextReport(
      file,
      (onReload) => (lists = openIpLists({ dir, shippedDir, watchIntervalMs: 20, onReload })),
    );
    await firstLook();
    write(dir, 'vpn', ['203.0.113.0/24', 'vpn.example.com', '198.51.100.0/33', '# fine', '192.0.2.1/24']);
    const error = await reported;
    expect(error).toBeInstanceOf(IpListFileError);
    expect((error as IpListFileError).lines).toEqual([
      { line: 2, text: 'vpn.example.com' },
      { line: 3, text: '198.51.100.0/33' },
    ]);
    expect(error!.message).toMatch(/line 2: "vpn\.example\.com"; line 3/);
    expect(lists!.lookup('203.0.113.7')).toEqual([{ list: 'vpn', source: 'operator', entry: '203.0.113.0/24' }]);
    // A block written with host bits set stands for its network.
    expect(lists!.lookup('192.0.2.200')).toEqual([{ list: 'vpn', source: 'operator', entry: '192.0.2.0/24' }]);
  });

  it('when a file already has malformed lines at start-up, then that is reported at once', () => {
    write(dir, 'proxy', ['192.0.2.1', 'bogus']);
    const errors: Error[] = [];
    lists = openIpLists({ dir, shippedDir, onReload: (_f, e) => e && errors.push(e) });
    expect(errors).toHaveLength(1);
    expect((errors[0] as IpListFileError).lines).toEqual([{ line: 2, text: 'bogus' }]);
    expect(lists.lookup('192.0.2.1')).toHaveLength(1);
  });

  it('when the lists are closed, then later edits are not picked up', async () => {
    lists = openIpLists({ dir, shippedDir, watchIntervalMs: 20 });
    lists.close();
    write(dir, 'tor', ['192.0.2.1']);
    await new Promise((r) => setTimeout(r, 120));
    expect(lists.lookup('192.0.2.1')).toEqual([]);
  });

  it('when addToIpList edits a watched file, then the running lists see it', async () => {
    const file = path.join(dir, 'tor.txt');
    const done = nextReport(
      file,
      (onReload) => (lists = openIpLists({ dir, shippedDir, watchIntervalMs: 20, onReload })),
    );
    await firstLook();
    addToIpList(dir, 'tor', '192.0.2.44');
    expect(await done).toBeUndefined();
    expect(lists!.lookup('192.0.2.44')).toEqual([{ list: 'tor', source: 'operator', entry: '192.0.2.44/32' }]);
  });
});

describe('adding to and removing from a list', () => {
  it('when an entry is added twice, then it is written once, in canonical form', () => {
    const nested = path.join(dir, 'not', 'yet');
    expect(addToIpList(nested, 'vpn', '2001:DB8:0:0::1/32')).toBe(true);
    expect(addToIpList(nested, 'vpn', '2001:db8::/32')).toBe(false);
    expect(addToIpList(nested, 'vpn', '192.0.2.9')).toBe(true);
    expect(addToIpList(nested, 'vpn', '192.0.2.9/32')).toBe(false);
    expect(addToIpList(nested, 'vpn', '::ffff:192.0.2.9')).toBe(false);
    expect(readIpList(nested, 'vpn')).toMatchObject({ entries: ['2001:db8::/32', '192.0.2.9/32'], invalid: [] });
    const text = fs.readFileSync(path.join(nested, 'vpn.txt'), 'utf8');
    expect(text.startsWith('#')).toBe(true);
    expect(text.endsWith('192.0.2.9/32\n')).toBe(true);
  });

  it('when an entry is removed, then every spelling of it goes and the rest of the file stays', () => {
    write(dir, 'fraud', ['# kept comment', '192.0.2.9  # first report', '198.51.100.0/24', '192.0.2.9/32', 'junk']);
    expect(removeFromIpList(dir, 'fraud', '192.0.2.9')).toBe(true);
    expect(removeFromIpList(dir, 'fraud', '192.0.2.9')).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'fraud.txt'), 'utf8')).toBe('# kept comment\n198.51.100.0/24\njunk\n');
    expect(removeFromIpList(dir, 'tor', '192.0.2.9')).toBe(false); // no such file
  });

  it('when a file without a final newline is added to, then the new entry gets its own line', () => {
    fs.writeFileSync(path.join(dir, 'proxy.txt'), '192.0.2.1');
    expect(addToIpList(dir, 'proxy', '192.0.2.2')).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'proxy.txt'), 'utf8')).toBe('192.0.2.1\n192.0.2.2/32\n');
  });

  it('when the entry or the list is not valid, then nothing is written and the call throws', () => {
    expect(() => addToIpList(dir, 'vpn', 'vpn.example.com')).toThrow(/not an IP address/);
    expect(() => addToIpList(dir, 'vpn', '192.0.2.0/40')).toThrow(/not an IP address/);
    expect(() => removeFromIpList(dir, 'nope' as never, '192.0.2.1')).toThrow(/unknown IP list/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['192.0.2.1', '192.0.2.1/32'],
    ['192.0.2.77/24', '192.0.2.0/24'],
    ['::ffff:192.0.2.1', '192.0.2.1/32'],
    ['::ffff:c000:200/120', '192.0.2.0/24'],
    ['2001:DB8::1', '2001:db8::1/128'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['::/0', '::/0'],
    ['127.1', undefined],
    ['fe80::1%eth0', undefined],
    ['192.0.2.1/', undefined],
    ['192.0.2.1/-1', undefined],
  ])('when %s is normalised, then it reads %s', (input, expected) => {
    expect(normaliseIpListEntry(input)).toBe(expected);
  });
});
