/** Where `trustgate iplist sync` fetches each IP risk list from. */
import path from 'node:path';
import { ConfigError } from './env';

/**
 * The published lists `trustgate iplist sync` fetches unless told otherwise (the names are
 * geo/ip-lists/names.ts's; a test holds them equal):
 * - tor: the Tor Project's bulk exit list (every exit relay's address; public data).
 * - relay: Apple's iCloud Private Relay egress ranges (CSV: range, country, region, city),
 *   which Apple publishes so that services can recognise relay traffic.
 * - vpn: X4BNet `lists_vpn`'s known VPN networks (IPv4; MIT licence), rebuilt daily from VPN
 *   providers' ASNs and published server lists.
 * None for datacenter (X4BNet's is ASN-based and takes in universities and ISPs; the curated
 * hosting ASNs serve instead), proxy and fraud (no maintained, freely licensed list).
 */
export const IP_LIST_SOURCE_DEFAULTS = {
  tor: 'https://check.torproject.org/torbulkexitlist',
  relay: 'https://mask-api.icloud.com/egress-ip-ranges.csv',
  vpn: 'https://raw.githubusercontent.com/X4BNet/lists_vpn/main/output/vpn/ipv4.txt',
  datacenter: undefined,
  proxy: undefined,
  fraud: undefined,
} as const satisfies Record<string, string | undefined>;

export type SyncableList = keyof typeof IP_LIST_SOURCE_DEFAULTS;

/** IPLIST_SOURCE_<LIST> for each list: a URL, a file (made absolute), `off`, or unset for the default. */
export function ipListSources(env: NodeJS.ProcessEnv): Partial<Record<SyncableList, string>> {
  const sources: Partial<Record<SyncableList, string>> = {};
  for (const [list, fallback] of Object.entries(IP_LIST_SOURCE_DEFAULTS) as [SyncableList, string | undefined][]) {
    const name = `IPLIST_SOURCE_${list.toUpperCase()}`;
    const raw = env[name];
    if (raw === undefined || raw === '') {
      if (fallback) sources[list] = fallback;
      continue;
    }
    if (raw === 'off') continue;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
      let url: URL | undefined;
      try {
        url = new URL(raw);
      } catch {
        url = undefined;
      }
      if (!url || !['http:', 'https:', 'file:'].includes(url.protocol))
        throw new ConfigError(`${name} must be an http(s) or file URL, a file path or off, got ${JSON.stringify(raw)}`);
      sources[list] = raw;
    } else sources[list] = path.resolve(raw);
  }
  return sources;
}
