/**
 * `true_country_code`: the best estimate of the country the person is in, which differs from
 * the exit's (`location.country_code`) only on evidence (reference.md: the real country
 * behind a proxy or VPN; otherwise the location's country). In order:
 * 1. The browser's own address leaked past the tunnel (a public WebRTC address other than the
 *    connection's) lies in another country: that country. It is where the person is.
 * 2. The exit hides the person (a Tor, VPN or proxy list, or a hosting network) and the
 *    browser's time zone is not kept in the exit's country: the zone's own country
 *    (Europe/Berlin → DE). A time zone alone never moves a person on an ordinary network:
 *    travellers keep their home zone.
 * 3. Otherwise the exit's country. An iCloud Private Relay egress keeps the person's country
 *    (Apple geolocates its egress ranges by its users' region), so the relay is not a tunnel
 *    to the time-zone rule.
 * Pure: the leaked addresses' countries are looked up at the edge.
 */
import type { ConnectionType } from './connection-type';
import type { IpListName } from '../signals/context';
import { countriesOfZone } from '../signals/geo';

export interface TrueCountryEvidence {
  /** The exit's country (`location.country_code`). */
  exitCountry?: string;
  connectionType?: ConnectionType;
  /** The IP lists the connection's address is on. */
  lists: ReadonlySet<IpListName>;
  /** The countries of the leaked WebRTC addresses, in the order the browser gave them. */
  leakedCountries: readonly string[];
  /** The browser's IANA time zone. */
  browserTimezone?: string;
}

const TUNNEL_LISTS: readonly IpListName[] = ['tor', 'vpn', 'proxy'];

export function trueCountry(e: TrueCountryEvidence): string | undefined {
  const leaked = e.leakedCountries.find((c) => c !== e.exitCountry);
  if (leaked) return leaked;
  const tunnel = e.connectionType === 'hosting' || TUNNEL_LISTS.some((l) => e.lists.has(l));
  if (tunnel && e.browserTimezone && e.connectionType !== 'private_relay') {
    const countries = countriesOfZone(e.browserTimezone);
    if (countries.length > 0 && !(e.exitCountry && countries.includes(e.exitCountry))) return countries[0];
  }
  return e.exitCountry;
}
