/** The curated hosting ASNs: each entry deliberate, present in the shipped ASN data, and the operator's file applied. */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_HOSTING_ASNS, hostingAsns } from '../../src/geo/hosting-asns';
import { sharedIpData } from '../helpers/app';

const SHIPPED_ASN = path.dirname(require.resolve('@ip-location-db/asn/package.json'));

/** Every AS number in the shipped ASN data (IPv4 and IPv6). */
function shippedAsns(): Set<number> {
  const asns = new Set<number>();
  for (const file of ['asn-ipv4-num.csv', 'asn-ipv6-num.csv']) {
    for (const m of fs.readFileSync(path.join(SHIPPED_ASN, file), 'utf8').matchAll(/^\d+,\d+,(\d+),/gm)) {
      asns.add(Number(m[1]));
    }
  }
  return asns;
}

describe('the curated hosting ASNs', () => {
  it('when the list is read, then it covers the big cloud, hosting and VPN-carrying networks', () => {
    const asns = hostingAsns();
    expect(asns.size).toBeGreaterThanOrEqual(200);
    // AWS, Google Cloud, Azure, Oracle, DigitalOcean, Linode, Vultr, Hetzner, OVH, M247, Datacamp, PacketHub, Mullvad, Proton.
    for (const asn of [
      16509, 396982, 8075, 31898, 14061, 63949, 20473, 24940, 16276, 9009, 212238, 136787, 39351, 62371,
    ])
      expect(asns.has(asn)).toBe(true);
  });

  it('when an entry is read, then it names the network and says why it is there', () => {
    for (const [asn, reason] of Object.entries(DEFAULT_HOSTING_ASNS)) {
      expect({ asn, reason }).toEqual({ asn, reason: expect.stringMatching(/^\S.* — \S.+$/) });
    }
  });

  it('when the shipped ASN data is read, then every curated AS is in it (no typo, no retired number)', () => {
    const shipped = shippedAsns();
    const missing = Object.keys(DEFAULT_HOSTING_ASNS)
      .map(Number)
      .filter((asn) => !shipped.has(asn));
    expect(missing).toEqual([]);
  });

  it("when the operator's file adds and removes ASNs, then the list has its changes", () => {
    const asns = hostingAsns('# ours\nAS64500\n-9009  # M247: we see our own staff there\n-AS212238\nnot-an-asn\n');
    expect(asns.has(64500)).toBe(true);
    expect(asns.has(9009)).toBe(false);
    expect(asns.has(212238)).toBe(false);
    expect(asns.has(16509)).toBe(true);
  });

  it.each([
    ['2.56.16.1', 9009],
    ['2.26.157.1', 212238],
    ['45.83.220.1', 39351],
  ])('when an address of a VPN-carrying network (%s) is looked up, then it is hosting', async (ip, asn) => {
    expect((await sharedIpData()).lookup(ip).network).toMatchObject({ asn, connection_type: 'hosting' });
  });
});
