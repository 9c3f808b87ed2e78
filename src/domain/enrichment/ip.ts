/** Facts about IP addresses that need no data (ipaddr.js's table of special-purpose ranges). */
import ipaddr from 'ipaddr.js';

/** `::ffff:1.2.3.4` → `1.2.3.4`; addresses in canonical form; anything else unchanged. */
export function normaliseIp(ip: string): string {
  return ipaddr.isValid(ip) ? ipaddr.process(ip).toString() : ip;
}

/** Ranges that are routed on the public internet (6to4 and Teredo carry public hosts). */
const PUBLIC_RANGES = new Set(['unicast', '6to4', 'teredo']);

/** Whether an address is public: not private, loopback, link-local, documentation, reserved… */
export function isPublicIp(ip: string): boolean {
  return ipaddr.isValid(ip) && PUBLIC_RANGES.has(ipaddr.process(ip).range());
}

/**
 * The address's block, the unit of "the same network" for linking and fraud history: the /24
 * of an IPv4 address, the /64 of an IPv6 one (one household's or one customer's allocation).
 */
export function ipBlock(ip: string): string | undefined {
  if (!ipaddr.isValid(ip)) return undefined;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return `${ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/24`).toString()}/24`;
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`).toString()}/64`;
}
