/**
 * The network signals: tor, datacenter, vpn, proxy. Lists (shipped snapshots and the
 * operator's own) are certain; the rest is evidence, weighted and combined.
 */
import type { Session } from '../../api-types';
import { leakedAddresses } from '../enrichment/ip';
import { zoneGapMinutes } from './geo';
import { findingOf, type Finding, type SignalContext } from './context';

/** How far apart (minutes) the browser's and the IP's time zones must be to hint at a tunnel. */
export const TUNNEL_TIMEZONE_GAP_MIN = 120;

/**
 * A stored session whose address hides where the person is (Tor, a VPN, a proxy or a private
 * relay, as its signals said): the travel rules neither start nor end at it.
 */
export function isAnonymised(session: {
  risk_signals: Pick<Session['risk_signals'], 'tor' | 'vpn' | 'proxy'>;
  network: Pick<Session['network'], 'connection_type'>;
}): boolean {
  const r = session.risk_signals;
  return Boolean(r.tor || r.vpn || r.proxy || session.network.connection_type === 'private_relay');
}

export function tor(ctx: SignalContext): Finding {
  return findingOf([{ name: 'tor_exit_node', weight: 1, present: ctx.ipLists.has('tor') }], 'network');
}

export function datacenter(ctx: SignalContext): Finding {
  return findingOf(
    [
      { name: 'hosting_asn', weight: 1, present: ctx.session.network.connection_type === 'hosting' },
      { name: 'datacenter_ip_list', weight: 1, present: ctx.ipLists.has('datacenter') },
    ],
    'network',
  );
}

/** A browser or app a person uses (not a server-side client): interaction was seen, no crawler. */
function looksResidential(ctx: SignalContext): boolean {
  const e = ctx.sdk.events ?? {};
  const interaction = (e.mouse ?? 0) + (e.touch ?? 0) + (e.keyboard ?? 0) > 0;
  const category = ctx.session.device.category;
  return interaction && (category === 'desktop' || category === 'mobile' || category === 'tablet');
}

function timezoneFarFromIp(ctx: SignalContext): boolean {
  const gap = zoneGapMinutes(ctx.session.browser.timezone, ctx.session.location.timezone, ctx.now);
  return gap !== undefined && gap >= TUNNEL_TIMEZONE_GAP_MIN;
}

export function vpn(ctx: SignalContext): Finding {
  const hosting = ctx.session.network.connection_type === 'hosting';
  return findingOf(
    [
      // A relay egress is relay, not VPN, although published VPN lists take in Apple's ranges.
      { name: 'vpn_ip_list', weight: 1, present: ctx.ipLists.has('vpn') && !onRelay(ctx) },
      // People do not browse from data centres; a person's browser there is tunnelling.
      { name: 'hosting_network_residential_device', weight: 0.6, present: hosting && looksResidential(ctx) },
      { name: 'timezone_far_from_ip', weight: 0.35, present: timezoneFarFromIp(ctx) },
    ],
    'network',
  );
}

/** Public WebRTC addresses other than the connection's (the browser's real address leaking past a proxy). */
export function spoofedAddresses(ctx: SignalContext, ip: string): string[] {
  return leakedAddresses(ctx.sdk.webrtc_ips, ip);
}

/**
 * The address is an iCloud Private Relay egress: classified so at ingestion, or on the relay
 * list now (a list synced since).
 */
export function onRelay(ctx: SignalContext): boolean {
  return ctx.session.network.connection_type === 'private_relay' || ctx.ipLists.has('relay');
}

export function proxy(ctx: SignalContext): Finding {
  const relay = onRelay(ctx);
  return findingOf(
    [
      { name: 'proxy_ip_list', weight: 1, present: ctx.ipLists.has('proxy') },
      { name: 'private_relay', weight: 0.5, present: relay },
      {
        name: 'webrtc_ip_mismatch',
        weight: 0.5,
        present: spoofedAddresses(ctx, ctx.session.network.ip_address ?? '').length > 0,
      },
    ],
    'network',
  );
}
