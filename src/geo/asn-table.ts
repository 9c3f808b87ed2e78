/**
 * The shipped ASN data (`@ip-location-db/asn`: RouteViews and DB-IP, CC-BY-4.0) is published as
 * CSV ranges, not as an .mmdb file; this loads it into sorted arrays and finds an address's
 * range by binary search. About 0.6 s to load and 50 MB held, for 500,000 ranges.
 */
import fs from 'node:fs';
import ipaddr from 'ipaddr.js';
import { lastAtOrBelow } from './ranges';

export interface AsnHit {
  asn: number;
  organisation: string;
  /** The largest CIDR block around the address inside its range. */
  subnet: string;
}

const LINE = /^(\d+),(\d+),(\d+),(.*)$/;

function unquote(field: string): string {
  return field.startsWith('"') && field.endsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field;
}

function toBigInt(ip: string): bigint {
  return ipaddr
    .parse(ip)
    .toByteArray()
    .reduce((acc, byte) => (acc << 8n) + BigInt(byte), 0n);
}

function fromBigInt(value: bigint, bits: 32 | 128): string {
  const bytes: number[] = [];
  for (let i = bits / 8 - 1; i >= 0; i--) bytes.push(Number((value >> BigInt(i * 8)) & 0xffn));
  return ipaddr.fromByteArray(bytes).toString();
}

class RangeTable {
  private starts: bigint[] = [];
  private ends: bigint[] = [];
  private asns: number[] = [];
  private orgIndex: number[] = [];
  private orgs: string[] = [];

  constructor(
    csv: string,
    private readonly bits: 32 | 128,
  ) {
    const orgIds = new Map<string, number>();
    for (const line of csv.split('\n')) {
      const m = LINE.exec(line.trim());
      if (!m) continue;
      // LINE's four groups are mandatory, so a match has them.
      const org = unquote(m[4]!);
      let id = orgIds.get(org);
      if (id === undefined) {
        id = this.orgs.push(org) - 1;
        orgIds.set(org, id);
      }
      this.starts.push(BigInt(m[1]!));
      this.ends.push(BigInt(m[2]!));
      this.asns.push(Number(m[3]));
      this.orgIndex.push(id);
    }
  }

  get size(): number {
    return this.starts.length;
  }

  find(value: bigint): AsnHit | undefined {
    const i = lastAtOrBelow(this.starts, value);
    if (i < 0) return undefined;
    // i is an index of starts, and the arrays are parallel (orgIndex holds indices of orgs).
    const end = this.ends[i]!;
    if (value > end) return undefined;
    return {
      asn: this.asns[i]!,
      organisation: this.orgs[this.orgIndex[i]!]!,
      subnet: this.subnet(value, this.starts[i]!, end),
    };
  }

  private subnet(value: bigint, start: bigint, end: bigint): string {
    const width = BigInt(this.bits);
    const all = (1n << width) - 1n;
    for (let prefix = 0n; prefix <= width; prefix++) {
      const hostMask = (1n << (width - prefix)) - 1n;
      const network = value & (all ^ hostMask);
      if (network >= start && (network | hostMask) <= end) return `${fromBigInt(network, this.bits)}/${prefix}`;
    }
    return `${fromBigInt(value, this.bits)}/${width}`;
  }
}

export interface AsnTable {
  lookup(ip: string): AsnHit | undefined;
  readonly size: number;
}

/** Loads the IPv4 and IPv6 CSV files (`start,end,asn,organisation`, addresses as integers). */
export function loadAsnTable(ipv4Csv: string, ipv6Csv: string): AsnTable {
  const v4 = new RangeTable(fs.readFileSync(ipv4Csv, 'utf8'), 32);
  const v6 = new RangeTable(fs.readFileSync(ipv6Csv, 'utf8'), 128);
  return {
    size: v4.size + v6.size,
    lookup(ip: string) {
      if (!ipaddr.isValid(ip)) return undefined;
      const kind = ipaddr.parse(ip).kind();
      return kind === 'ipv4' ? v4.find(toBigInt(ip)) : v6.find(toBigInt(ip));
    },
  };
}
