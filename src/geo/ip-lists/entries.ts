/** IP list entries: an address or CIDR block, strictly parsed, to its range and canonical form; a list file's text to its entries. */
import ipaddr from 'ipaddr.js';

export interface Block {
  v6: boolean;
  start: bigint;
  end: bigint;
  /** Canonical CIDR notation: network address (ipaddr.js's compact form) and prefix length. */
  cidr: string;
}

export function toBigInt(address: ipaddr.IPv4 | ipaddr.IPv6): bigint {
  if (address.kind() === 'ipv4') return BigInt(v4Number(address as ipaddr.IPv4));
  let value = 0n;
  for (const part of (address as ipaddr.IPv6).parts) value = (value << 16n) | BigInt(part);
  return value;
}

export function v4Number(address: ipaddr.IPv4): number {
  const o = address.octets as [number, number, number, number]; // an IPv4 address has four octets
  return ((o[0] * 256 + o[1]) * 256 + o[2]) * 256 + o[3];
}

function fromBigInt(value: bigint, v6: boolean): string {
  const bytes: number[] = [];
  for (let i = (v6 ? 16 : 4) - 1; i >= 0; i--) bytes.push(Number((value >> BigInt(i * 8)) & 0xffn));
  return ipaddr.fromByteArray(bytes).toString();
}

const DOTTED_QUAD = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$/;

/**
 * Strict parsing: dotted-quad decimal IPv4 only (ipaddr.js alone also takes `127.1`, hex and
 * octal forms), else IPv6. No exceptions on the way for valid input (they are slow to make).
 */
export function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (text.includes(':')) {
    try {
      return ipaddr.IPv6.parse(text);
    } catch {
      return undefined;
    }
  }
  const m = DOTTED_QUAD.exec(text);
  if (!m) return undefined;
  const octets = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
  return octets.every((o) => o <= 255) ? new ipaddr.IPv4(octets) : undefined;
}

/** An address or CIDR block (`1.2.3.4`, `1.2.3.0/24`, `2001:db8::/32`) → its block; undefined if neither. */
export function parseBlock(raw: string): Block | undefined {
  const text = raw.trim();
  const slash = text.indexOf('/');
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const prefixText = slash < 0 ? undefined : text.slice(slash + 1);
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  if (addressText.includes('%')) return undefined; // zone indices name an interface, not a range
  let address = parseAddress(addressText);
  if (!address) return undefined;
  let prefix = prefixText === undefined ? (address.kind() === 'ipv4' ? 32 : 128) : Number(prefixText);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    address = (address as ipaddr.IPv6).toIPv4Address();
    prefix -= 96;
  }
  const v6 = address.kind() === 'ipv6';
  const bits = v6 ? 128 : 32;
  if (prefix > bits) return undefined;
  const hostMask = (1n << BigInt(bits - prefix)) - 1n;
  const start = toBigInt(address) & ~hostMask;
  const end = start | hostMask;
  return { v6, start, end, cidr: `${fromBigInt(start, v6)}/${prefix}` };
}

/** The canonical form of an address or CIDR block (`1.2.3.4` → `1.2.3.4/32`), or undefined if it is neither. */
export function normaliseIpListEntry(text: string): string | undefined {
  return parseBlock(text)?.cidr;
}

export interface ParsedFile {
  blocks: Block[];
  bad: { line: number; text: string }[];
}

export function parseListText(text: string): ParsedFile {
  const blocks: Block[] = [];
  const bad: { line: number; text: string }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) return;
    const block = parseBlock(line);
    if (block) blocks.push(block);
    else bad.push({ line: i + 1, text: raw.trim() });
  });
  return { blocks, bad };
}
