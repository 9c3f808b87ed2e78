/**
 * Lookup tables: each list's blocks sorted by first address, each with the index of the nearest
 * block around it (CIDR blocks nest or are apart). A binary search finds the last block starting
 * at or before the address; it, or one of the blocks around it, is the narrowest block holding
 * the address. IPv4 keys are numbers, IPv6 keys BigInts.
 */
import type ipaddr from 'ipaddr.js';
import { lastAtOrBelow } from '../ranges';
import { parseAddress, toBigInt, v4Number, type Block } from './entries';

class BlockTable<K extends number | bigint> {
  private readonly starts: K[] = [];
  private readonly ends: K[] = [];
  /** Index of the nearest block around each block, or -1. */
  private readonly parents: number[] = [];
  private readonly cidrs: string[] = [];

  constructor(blocks: Block[], key: (value: bigint) => K) {
    const sorted = blocks
      .slice()
      .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.end > b.end ? -1 : a.end < b.end ? 1 : 0));
    const open: number[] = [];
    for (const block of sorted) {
      const last = this.cidrs.length - 1;
      if (last >= 0 && this.cidrs[last] === block.cidr) continue; // the same block twice
      const start = key(block.start);
      // open holds indices of blocks already pushed, so they index ends.
      while (open.length > 0 && this.ends[open[open.length - 1]!]! < start) open.pop();
      this.parents.push(open[open.length - 1] ?? -1);
      this.starts.push(start);
      this.ends.push(key(block.end));
      this.cidrs.push(block.cidr);
      open.push(this.cidrs.length - 1);
    }
  }

  get size(): number {
    return this.cidrs.length;
  }

  /** The narrowest block holding `value`. */
  find(value: K): string | undefined {
    const hi = lastAtOrBelow(this.starts, value);
    // Every block holding the value holds block `hi` too (blocks nest), so it is `hi` or around it.
    // i ≥ 0 is an index of the parallel arrays (parents holds such indices, or -1).
    for (let i = hi; i >= 0; i = this.parents[i]!) {
      if (this.ends[i]! >= value) return this.cidrs[i];
    }
    return undefined;
  }
}

export interface ListTables {
  v4: BlockTable<number>;
  v6: BlockTable<bigint>;
}

export function tablesOf(blocks: Block[]): ListTables {
  return {
    v4: new BlockTable<number>(
      blocks.filter((b) => !b.v6),
      (v) => Number(v),
    ),
    v6: new BlockTable<bigint>(
      blocks.filter((b) => b.v6),
      (v) => v,
    ),
  };
}

export const EMPTY: ListTables = tablesOf([]);

/** An address → its key in the IPv4 or IPv6 table; undefined if it is not an address. */
export function keyOf(ip: string): { v4: number } | { v6: bigint } | undefined {
  if (typeof ip !== 'string') return undefined;
  const address = parseAddress(ip.trim());
  if (!address) return undefined;
  if (address.kind() === 'ipv4') return { v4: v4Number(address as ipaddr.IPv4) };
  const v6 = address as ipaddr.IPv6;
  return v6.isIPv4MappedAddress() ? { v4: v4Number(v6.toIPv4Address()) } : { v6: toBigInt(v6) };
}
