/** `trustgate iplist sync` against a loopback server serving the published lists: good, malformed, unreachable. */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { cli } from '../../src/cli/main';
import { openIpLists, syncedDir } from '../../src/geo/ip-lists';
import {
  listServer,
  relayCsv,
  RELAY_IP,
  torList,
  TOR_IP,
  vpnList,
  VPN_IP,
  type ListServer,
} from '../helpers/list-server';

let server: ListServer;
let dataDir: string;
let listsDir: string;

beforeAll(async () => {
  server = await listServer();
});
afterAll(() => server.close());
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-sync-'));
  listsDir = path.join(dataDir, 'ip-lists');
  server.serve('/torbulkexitlist', torList());
  server.serve('/egress-ip-ranges.csv', relayCsv());
  server.serve('/vpn/ipv4.txt', vpnList());
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function sync(
  env: NodeJS.ProcessEnv = {},
  ...args: string[]
): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = '';
  let stderr = '';
  const code = await cli(['iplist', 'sync', ...args], {
    env: {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      IPLIST_SOURCE_TOR: server.url('/torbulkexitlist'),
      IPLIST_SOURCE_RELAY: server.url('/egress-ip-ranges.csv'),
      IPLIST_SOURCE_VPN: server.url('/vpn/ipv4.txt'),
      ...env,
    },
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { stdout, stderr, code };
}

const syncedFile = (list: string) => path.join(syncedDir(listsDir), `${list}.txt`);
const read = (list: string) => fs.readFileSync(syncedFile(list), 'utf8');

/** The lists a server would load from the folder now. */
function listsOf(ip: string): string[] {
  const lists = openIpLists({ dir: listsDir, shippedDir: path.join(dataDir, 'none') });
  try {
    return lists.lookup(ip).map((m) => `${m.list}:${m.source}`);
  } finally {
    lists.close();
  }
}

describe('trustgate iplist sync', () => {
  it('when every source answers a good list, then each is swapped in with its source and time, and looked up', async () => {
    const r = await sync();
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe(
      [
        `tor: 150 entries from ${server.url('/torbulkexitlist')}`,
        `relay: 1200 entries from ${server.url('/egress-ip-ranges.csv')}`,
        `vpn: 120 entries from ${server.url('/vpn/ipv4.txt')}`,
        '',
      ].join('\n'),
    );
    expect(read('tor')).toContain(`# source: ${server.url('/torbulkexitlist')}\n`);
    expect(read('tor')).toMatch(/^# synced_at: \d{4}-\d\d-\d\dT[\d:.]+Z$/m);
    expect(read('tor')).toContain('\n185.220.100.1/32\n');
    expect(read('relay')).toContain('\n172.224.226.0/27\n');
    expect(read('relay')).not.toContain('London');
    expect(listsOf(TOR_IP)).toEqual(['tor:synced']);
    expect(listsOf(RELAY_IP)).toEqual(['relay:synced']);
    expect(listsOf(VPN_IP)).toEqual(['vpn:synced']);
    expect(listsOf('2a02:26f7:b3c0:2::1')).toEqual(['relay:synced']);
    expect(listsOf('81.2.69.142')).toEqual([]);
  });

  it('when one list is named, then only it is synced', async () => {
    const r = await sync({}, 'tor', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).lists).toEqual([
      { list: 'tor', source: server.url('/torbulkexitlist'), ok: true, entries: 150 },
    ]);
    expect(fs.existsSync(syncedFile('relay'))).toBe(false);
  });

  it('when a source is a local file (a mirror), then it is read from there', async () => {
    const mirror = path.join(dataDir, 'mirror-tor.txt');
    fs.writeFileSync(mirror, torList(200));
    const r = await sync({ IPLIST_SOURCE_TOR: mirror, IPLIST_SOURCE_RELAY: 'off', IPLIST_SOURCE_VPN: 'off' });
    expect(r).toMatchObject({ code: 0, stdout: `tor: 200 entries from ${mirror}\n` });
    expect(read('tor')).toContain(`# source: ${mirror}\n`);
  });

  it.each([
    [
      'an HTML page',
      '<!doctype html>\n<html><body>Service unavailable</body></html>\n',
      /refused: not an address or CIDR block at line 1: "<!doctype html>"/,
    ],
    [
      'a list with a bad line',
      torList().replace('185.220.100.7\n', '185.220.100.777\n'),
      /refused: not an address or CIDR block at line 7: "185.220.100.777"/,
    ],
    ['a list cut short', torList(12), /refused: it has 12 entries, fewer than the 100 expected/],
    ['an empty answer', '', /refused: it has 0 entries, fewer than the 100 expected/],
  ])(
    'when the Tor source answers %s, then it is refused, the old list is kept and the exit code is 1',
    async (_, body, message) => {
      expect((await sync()).code).toBe(0);
      const before = read('tor');
      server.serve('/torbulkexitlist', body);
      server.serve('/vpn/ipv4.txt', vpnList(130));
      const r = await sync();
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(
        /^trustgate: iplist sync: tor: download from http:\/\/127\.0\.0\.1:\d+\/torbulkexitlist refused: .*; the list in use is kept \(150 entries, synced .*\)\n$/,
      );
      expect(read('tor')).toBe(before);
      expect(listsOf(TOR_IP)).toEqual(['tor:synced']);
      // The other lists are synced all the same.
      expect(r.stdout).toContain('vpn: 130 entries');
      expect(read('vpn')).toContain('# entries: 130\n');
    },
  );

  it('when the relay CSV has a malformed row, then the relay list is refused and kept', async () => {
    expect((await sync()).code).toBe(0);
    const before = read('relay');
    server.serve('/egress-ip-ranges.csv', relayCsv() + 'London,GB,GB-EN,,\n');
    const r = await sync();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('relay: download from');
    expect(r.stderr).toContain('refused: not an address or CIDR block at line 1201: "London,GB,GB-EN,,"');
    expect(read('relay')).toBe(before);
  });

  it('when the source answers an HTTP error, then the sync fails and the old list is kept', async () => {
    expect((await sync()).code).toBe(0);
    const before = read('vpn');
    server.serve('/vpn/ipv4.txt', 503);
    const r = await sync();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/vpn: download from \S+ failed: HTTP 503; the list in use is kept/);
    expect(read('vpn')).toBe(before);
  });

  it('when the source is unreachable, then the sync fails with a clear message and the old list is kept', async () => {
    expect((await sync()).code).toBe(0);
    const before = read('tor');
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await sync({ IPLIST_SOURCE_TOR: `http://127.0.0.1:${port}/torbulkexitlist` });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /tor: download from http:\/\/127\.0\.0\.1:\d+\/torbulkexitlist failed: fetch failed \(ECONNREFUSED\); the list in use is kept \(150 entries/,
    );
    expect(read('tor')).toBe(before);
  });

  it('when the source never answers, then the download times out and the old list is kept', async () => {
    expect((await sync()).code).toBe(0);
    const before = read('tor');
    server.serve('/torbulkexitlist', 'hang');
    const r = await sync({ IPLIST_SYNC_TIMEOUT_MS: '300' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/tor: download from \S+ failed: no answer within 300 ms; the list in use is kept/);
    expect(read('tor')).toBe(before);
  });

  it('when a list was never synced and its download fails, then it says so and nothing is written', async () => {
    server.serve('/torbulkexitlist', 404);
    const r = await sync({ IPLIST_SOURCE_RELAY: 'off', IPLIST_SOURCE_VPN: 'off' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/tor: download from \S+ failed: HTTP 404; the list stays empty \(never synced\)/);
    expect(fs.existsSync(syncedFile('tor'))).toBe(false);
  });

  it('when a named list has no source, then it is a usage error', async () => {
    const r = await sync({}, 'fraud');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('fraud has no source; set IPLIST_SOURCE_FRAUD');
  });
});
