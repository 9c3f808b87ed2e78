/**
 * The address block as migration 0004 drew it (domain/enrichment/ip.ts `ipBlock` when 0004 was
 * written), frozen here: the live rule may change, a migration must replay the same forever. It
 * draws on ipaddr.js, pinned in package-lock.json; test/storage/migrations.test.ts holds the blocks
 * it gave, so an upgrade that changes them fails there.
 */
import ipaddr from 'ipaddr.js';

/** The /24 of an IPv4 address, the /64 of an IPv6 one; undefined for what is no address. */
export function ipBlock(ip: string): string | undefined {
  if (!ipaddr.isValid(ip)) return undefined;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4')
    return `${ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/24`).toString()}/24`;
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`).toString()}/64`;
}
