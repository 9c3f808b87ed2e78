/**
 * `ipBlock` as migration 0004 ran it (domain/enrichment/ip.ts on ipaddr.js 2.3.0), frozen here:
 * 0004 fills `sessions.ip_block` of the sessions stored before it, and a migration must replay
 * the same forever, whereas the live function (and the package under it) may change. Never edit
 * it; a migration that needs another block writes its own.
 *
 * The parts of ipaddr.js 2.3.0 that ipBlock reached are ported with their quirks (addresses in
 * octal, hexadecimal or fewer than four parts, zone ids, `::a.b.c.d`), so that every string
 * gets the same block, or none, as it did: `ipaddr.isValid`, `ipaddr.process`,
 * `networkAddressFromCIDR` and `toString`. ipaddr.js is Copyright (C) 2011-2017 whitequark
 * <whitequark@whitequark.org>, under the MIT licence (node_modules/ipaddr.js/LICENSE).
 */

const V4_PART = '(0?\\d+|0x[a-f0-9]+)';
const V4_FOUR = new RegExp(`^${V4_PART}\\.${V4_PART}\\.${V4_PART}\\.${V4_PART}$`, 'i');
const V4_THREE = new RegExp(`^${V4_PART}\\.${V4_PART}\\.${V4_PART}$`, 'i');
const V4_TWO = new RegExp(`^${V4_PART}\\.${V4_PART}$`, 'i');
const V4_LONG = new RegExp(`^${V4_PART}$`, 'i');
const OCTAL = /^0[0-7]+$/i;
const HEX = /^0x[a-f0-9]+$/i;

const ZONE = '%[0-9a-z]{1,}';
const V6_PART = '(?:[0-9a-f]+::?)+';
const V6_ZONE = new RegExp(ZONE, 'i');
const V6_NATIVE = new RegExp(`^(::)?(${V6_PART})?([0-9a-f]+)?(::)?(${ZONE})?$`, 'i');
const V6_DEPRECATED_TRANSITIONAL = new RegExp(
  `^(?:::)(${V4_PART}\\.${V4_PART}\\.${V4_PART}\\.${V4_PART}(${ZONE})?)$`,
  'i',
);
const V6_TRANSITIONAL = new RegExp(
  `^((?:${V6_PART})|(?:::)(?:${V6_PART})?)${V4_PART}\\.${V4_PART}\\.${V4_PART}\\.${V4_PART}(${ZONE})?$`,
  'i',
);

/** ipaddr.js's reason to refuse a string (it throws, and `isValid` catches). */
class Invalid extends Error {}

/** A part of an IPv4 address: hexadecimal after `0x`, octal after `0`, else decimal. */
function parseIntAuto(text: string): number {
  if (HEX.test(text)) return parseInt(text, 16);
  if (text[0] === '0' && !isNaN(parseInt(text[1] as string, 10))) {
    if (OCTAL.test(text)) return parseInt(text, 8);
    throw new Invalid();
  }
  return parseInt(text, 10);
}

/** `ipaddr.IPv4.parser`: the four octets, unchecked (undefined: not shaped like an address). */
function v4Parser(text: string): number[] | undefined {
  let match: RegExpMatchArray | null;
  if ((match = text.match(V4_FOUR))) return match.slice(1, 5).map((p) => parseIntAuto(p));
  if ((match = text.match(V4_LONG))) {
    const value = parseIntAuto(match[1] as string);
    if (value > 0xffffffff || value < 0) throw new Invalid();
    return [24, 16, 8, 0].map((shift) => (value >> shift) & 0xff);
  }
  if ((match = text.match(V4_TWO))) {
    const value = parseIntAuto(match[2] as string);
    if (value > 0xffffff || value < 0) throw new Invalid();
    return [parseIntAuto(match[1] as string), (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
  }
  if ((match = text.match(V4_THREE))) {
    const value = parseIntAuto(match[3] as string);
    if (value > 0xffff || value < 0) throw new Invalid();
    return [parseIntAuto(match[1] as string), parseIntAuto(match[2] as string), (value >> 8) & 0xff, value & 0xff];
  }
  return undefined;
}

/** `new ipaddr.IPv4(parser(text))`: the octets, or Invalid. */
function v4(text: string): number[] {
  const octets = v4Parser(text);
  if (!octets || octets.length !== 4) throw new Invalid();
  if (!octets.every((o) => 0 <= o && o <= 255)) throw new Invalid();
  return octets;
}

/** ipaddr.js's `expandIPv6`: `::` expanded to make `count` groups, each read as hexadecimal (NaN stays). */
function expandIPv6(text: string, count: number): number[] | undefined {
  if (text.indexOf('::') !== text.lastIndexOf('::')) return undefined;
  if (text.match(V6_ZONE)) text = text.replace(/%.+$/, '');
  let colons = text.split(':').length - 1;
  if (text.startsWith('::')) colons--;
  if (text.endsWith('::')) colons--;
  if (colons > count) return undefined;
  text = text.replace('::', ':' + '0:'.repeat(count - colons));
  if (text[0] === ':') text = text.slice(1);
  if (text[text.length - 1] === ':') text = text.slice(0, -1);
  return text.split(':').map((p) => parseInt(p, 16));
}

/** `ipaddr.IPv6.parser`: the groups, unchecked (undefined where ipaddr.js returned null). */
function v6Parser(text: string): number[] | undefined {
  let match: RegExpMatchArray | null;
  if ((match = text.match(V6_DEPRECATED_TRANSITIONAL))) return v6Parser(`::ffff:${match[1] as string}`);
  if (V6_NATIVE.test(text)) return expandIPv6(text, 8);
  if ((match = text.match(V6_TRANSITIONAL))) {
    const zone = match[6] ?? '';
    let head = match[1] as string;
    if (!head.endsWith('::')) head = head.slice(0, -1);
    const groups = expandIPv6(head + zone, 6);
    if (!groups) throw new Invalid(); // ipaddr.js read `.parts` of null
    // parseInt without a radix, as ipaddr.js: `0x..` is hexadecimal, `0..` decimal.
    const octets = [match[2], match[3], match[4], match[5]].map((o) => parseInt(o as string));
    if (!octets.every((o) => 0 <= o && o <= 255)) return undefined;
    const [a, b, c, d] = octets as [number, number, number, number];
    return [...groups, (a << 8) | b, (c << 8) | d];
  }
  return undefined;
}

type Groups = [number, number, number, number, number, number, number, number];

/** `new ipaddr.IPv6(parser(text).parts)`: the eight groups, or Invalid. */
function v6(text: string): Groups {
  if (text.indexOf(':') === -1) throw new Invalid();
  const parsed = v6Parser(text);
  if (!parsed) throw new Invalid();
  // (ipaddr.js's constructor also takes 16 bytes, a length its parser never returns.)
  if (parsed.length !== 8 || !parsed.every((g) => 0 <= g && g <= 0xffff)) throw new Invalid();
  return parsed as Groups;
}

/** The address (IPv6 tried first, as `ipaddr.parse`), or undefined where `ipaddr.isValid` was false. */
function parse(text: string): { v4: number[] } | { v6: Groups } | undefined {
  const attempt = <T>(read: (text: string) => T) => {
    try {
      return read(text);
    } catch (e) {
      if (e instanceof Invalid) return undefined;
      throw e;
    }
  };
  const groups = attempt(v6);
  if (groups) return { v6: groups };
  const octets = attempt(v4);
  return octets && { v4: octets };
}

/** `IPv6.toRFC5952String` of groups without a zone: the longest run of two zero groups or more as `::`. */
function rfc5952(groups: number[]): string {
  const text = groups.map((g) => g.toString(16)).join(':');
  const regex = /((^|:)(0(:|$)){2,})/g;
  let bestIndex = 0;
  let bestLength = -1;
  let match: RegExpExecArray | null;
  while ((match = regex.exec(text))) {
    if (match[0].length > bestLength) {
      bestIndex = match.index;
      bestLength = match[0].length;
    }
  }
  if (bestLength < 0) return text;
  return `${text.substring(0, bestIndex)}::${text.substring(bestIndex + bestLength)}`;
}

/**
 * The address's block, the unit of "the same network" for linking and fraud history: the /24
 * of an IPv4 address (an IPv4-mapped IPv6 one included), the /64 of an IPv6 one.
 */
export function ipBlock(ip: string): string | undefined {
  const address = parse(ip);
  if (!address) return undefined;
  let octets: number[];
  if ('v6' in address) {
    const [g0, g1, g2, g3, g4, g5, g6, g7] = address.v6;
    // `ipaddr.process`: an address in ::ffff:0:0/96 is the IPv4 address of its last 32 bits.
    if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff)
      octets = [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff];
    else return `${rfc5952([g0, g1, g2, g3, 0, 0, 0, 0])}/64`;
  } else octets = address.v4;
  return `${octets[0]}.${octets[1]}.${octets[2]}.0/24`;
}
