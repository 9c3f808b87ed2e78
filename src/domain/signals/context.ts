/**
 * What a risk signal is computed from: the session's own facts, the IP lists the address is
 * on, and the history of this service that the use case looked up. Plain data; no I/O.
 */
import type { EvaluatedSession } from '../../api-types';
import type { SdkFacts } from '../session/sdk-facts';
import { noisyOr, round3 } from '../numbers';

/** The IP lists: Tor exits, VPN exits, proxies, data centres, recent fraud, and Apple's iCloud Private Relay egress. */
export type IpListName = 'tor' | 'vpn' | 'proxy' | 'datacenter' | 'fraud' | 'relay';

/** A session of the same account (or, without one, the same device) before this one. */
export interface PreviousSession {
  time: Date;
  latitude: number;
  longitude: number;
  /** How far off the location may be, in km (IP geolocation is city-level at best). */
  accuracyKm: number;
  /** It came from an anonymising network (Tor, VPN, proxy, relay), so its location is not the person's. */
  anonymised: boolean;
}

/** The address's history. The counts are read no further than COUNTED_UP_TO (history.ts): past it no score changes. */
export interface SignalHistory {
  previous?: PreviousSession;
  /** In the last 30 days: sessions decided Fake, and block-listed accounts, on this exact address. */
  fraudOnIp: number;
  /** The same in the address's block (/24 for IPv4, /64 for IPv6), other addresses only. */
  fraudOnBlock: number;
  /** All time: sessions decided Fake on this address. */
  ipFakeSessions: number;
  /** All time: block-listed accounts seen on this address. */
  ipBlockedAccounts: number;
  /** Distinct accounts seen on this address in the last 30 days. */
  ipDistinctAccounts: number;
}

export const EMPTY_HISTORY: SignalHistory = {
  fraudOnIp: 0,
  fraudOnBlock: 0,
  ipFakeSessions: 0,
  ipBlockedAccounts: 0,
  ipDistinctAccounts: 0,
};

export interface SignalContext {
  now: Date;
  /** The SDK's merged facts. */
  sdk: SdkFacts;
  /** The enriched session (network, location, browser, device). */
  session: EvaluatedSession;
  /** The operator and shipped IP lists the session's address is on. */
  ipLists: ReadonlySet<IpListName>;
  history: SignalHistory;
}

/** A signal's finding: its 0..1 score, and the names of the conditions found. */
export interface Finding {
  score: number;
  network?: string[];
  device?: string[];
}

/** Conditions with their weights → a finding (the details name every condition present). */
export function findingOf(
  conditions: { name: string; weight: number; present: boolean }[],
  kind: 'network' | 'device',
): Finding {
  const present = conditions.filter((c) => c.present);
  return { score: round3(noisyOr(present.map((c) => c.weight))), [kind]: present.map((c) => c.name) };
}
