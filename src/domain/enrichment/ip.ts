/** Facts about IP addresses that need no data (ipaddr.js's table of special-purpose ranges). */
import ipaddr from 'ipaddr.js';

/**
 * The address, parsed as Node and the URL standard read it. ipaddr.js reads `::a.b.c.d` (an
 * IPv4-compatible address, `::/96`) as the IPv4-mapped `::ffff:a.b.c.d`; written as two hex
 * groups first, it keeps its meaning.
 */
function parse(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const text = ip.includes(':')
    ? ip.replace(/(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(%.*)?$/, (whole, a, b, c, d, zone = '') => {
        const octets = [Number(a), Number(b), Number(c), Number(d)] as const;
        if (octets.some((o) => o > 255)) return whole;
        return `${((octets[0] << 8) | octets[1]).toString(16)}:${((octets[2] << 8) | octets[3]).toString(16)}${zone}`;
      })
    : ip;
  if (!ipaddr.isValid(text)) return undefined;
  const address = ipaddr.parse(text);
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

/** `::ffff:1.2.3.4` → `1.2.3.4`; addresses in canonical form; anything else unchanged. */
export function normaliseIp(ip: string): string {
  return parse(ip)?.toString() ?? ip;
}

type Ipv6Parts = [number, number, number, number, number, number, number, number];

const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * The IPv4 addresses a transition address carries, which decide where its packets go:
 * 6to4 (`2002::/16`: the 32 bits after the prefix), Teredo (`2001::/32`: its server, and its
 * client XOR 0xffffffff in the last 32 bits) and NAT64's well-known prefix (`64:ff9b::/96`:
 * the last 32 bits). Undefined for any other address.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  // An IPv6 address is eight 16-bit parts (ipaddr.js types them as number[]).
  const p = address.parts as Ipv6Parts;
  if (p[0] === 0x2002) return [v4(p[1], p[2])];
  if (p[0] === 0x2001 && p[1] === 0) return [v4(p[2], p[3]), v4(p[6] ^ 0xffff, p[7] ^ 0xffff)];
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0)) return [v4(p[6], p[7])];
  return undefined;
}

/**
 * IPv6 ranges that ipaddr.js calls unicast but that are not a public host: `::/96` (IPv4-
 * compatible, deprecated; `::127.0.0.1` must not pass as public) and NAT64's local-use prefix
 * `64:ff9b:1::/48` (RFC 8215: never routed globally, and where in it the IPv4 sits depends on
 * the operator's prefix length).
 */
const NOT_PUBLIC_V6 = [ipaddr.parseCIDR('::/96'), ipaddr.parseCIDR('64:ff9b:1::/48')] as [ipaddr.IPv6, number][];

function isPublic(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedIpv4(v6);
  if (embedded) return embedded.every(isPublic);
  return v6.range() === 'unicast' && !NOT_PUBLIC_V6.some((range) => v6.match(range));
}

/**
 * Whether an address is public: not private, loopback, link-local, documentation, reserved…;
 * an IPv4-mapped, 6to4, Teredo or NAT64 address is judged by the IPv4 address it carries.
 */
export function isPublicIp(ip: string): boolean {
  const address = parse(ip);
  return address !== undefined && isPublic(address);
}

/**
 * The address's block, the unit of "the same network" for linking and fraud history: the /24
 * of an IPv4 address, the /64 of an IPv6 one (one household's or one customer's allocation).
 */
export function ipBlock(ip: string): string | undefined {
  if (!ipaddr.isValid(ip)) return undefined;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4')
    return `${ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/24`).toString()}/24`;
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`).toString()}/64`;
}

/** The public WebRTC addresses other than the connection's: the browser's own address, leaking past a proxy or VPN. */
export function leakedAddresses(webrtcIps: readonly string[] | undefined, connectionIp: string): string[] {
  const connection = normaliseIp(connectionIp);
  return [...new Set((webrtcIps ?? []).map(normaliseIp))].filter((a) => isPublicIp(a) && a !== connection);
}
