/**
 * The entities the console has a page for (a device, a device fingerprint, an IP address, a
 * network, an email domain): their names, search filters and paths, so that every table can
 * link an id, address or fingerprint to its page.
 */
import ipaddr from 'ipaddr.js';

export type EntityKind = 'device' | 'fingerprint' | 'ip' | 'network' | 'email_domain';

/** Each kind's name, its search filter, and its path under /console. */
export const ENTITIES: Record<EntityKind, { title: string; filter: string; path: string; sessions: boolean }> = {
  device: { title: 'Device', filter: 'device_id', path: 'devices', sessions: true },
  fingerprint: { title: 'Device fingerprint', filter: 'fingerprint', path: 'fingerprints', sessions: false },
  ip: { title: 'IP address', filter: 'ip_address', path: 'ips', sessions: true },
  network: { title: 'Network', filter: 'network', path: 'networks', sessions: true },
  email_domain: { title: 'Email domain', filter: 'email_domain', path: 'email-domains', sessions: true },
};

/** The console path of an entity's page. */
export const entityPath = (kind: EntityKind, value: string) => `/${ENTITIES[kind].path}/${encodeURIComponent(value)}`;

/** The /24 (IPv4) or /64 (IPv6) an address is in, as the search's `network` filter takes it; undefined when not an address. */
export function networkOf(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const ip = ipaddr.process(address);
  const bits = ip.kind() === 'ipv4' ? 24 : 64;
  const bytes = ip.toByteArray().map((b, i) => (i * 8 >= bits ? 0 : b));
  return `${ipaddr.fromByteArray(bytes).toString()}/${bits}`;
}
