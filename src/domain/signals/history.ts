/** Signals from this service's history: recent fraud on the address, the address's reputation, impossible travel. */
import { HOUR_MS, round3 } from '../numbers';
import { findingOf, type Finding, type SignalContext } from './context';
import { distanceKm, ipLocationAccuracyKm } from './geo';
import { onRelay } from './network';

/** Reference rule: farther than max(50 km, the locations' accuracy) at more than 900 km/h. */
export const IMPOSSIBLE_TRAVEL_KMH = 900;
export const TRAVEL_MIN_DISTANCE_KM = 50;
/** Fast but possible travel (600..900 km/h) scores up to this, below the signal's threshold. */
export const FAST_TRAVEL_KMH = 600;
export const FAST_TRAVEL_MAX = 0.4;
/** An address seen on more accounts than this in 30 days is crowded (weak evidence alone). */
export const CROWDED_IP_ACCOUNTS = 10;
/**
 * The history of an address or block is read from its newest sessions, at most this many per
 * question (the counts below saturate far sooner), so that a busy address (a carrier's NAT,
 * an office) costs an evaluation no more than a quiet one.
 */
export const NETWORK_HISTORY_SCAN = 1500;

export function recentFraudIp(ctx: SignalContext): Finding {
  const h = ctx.history;
  return findingOf(
    [
      { name: 'ip_used_by_fraud', weight: 1, present: h.fraudOnIp > 0 },
      { name: 'fraud_ip_list', weight: 1, present: ctx.ipLists.has('fraud') },
      // The neighbourhood is weaker evidence: one Fake session there says less than several.
      { name: 'subnet_used_by_fraud', weight: h.fraudOnBlock >= 2 ? 0.5 : 0.3, present: h.fraudOnBlock > 0 },
    ],
    'network',
  );
}

export function ipReputation(ctx: SignalContext): Finding {
  const h = ctx.history;
  return findingOf(
    [
      { name: 'ip_fake_sessions', weight: Math.min(1, 0.5 + 0.1 * h.ipFakeSessions), present: h.ipFakeSessions > 0 },
      {
        name: 'ip_blocked_accounts',
        weight: Math.min(1, 0.6 + 0.1 * h.ipBlockedAccounts),
        present: h.ipBlockedAccounts > 0,
      },
      {
        name: 'ip_many_accounts',
        weight: Math.min(0.6, 0.02 * h.ipDistinctAccounts),
        present: h.ipDistinctAccounts > CROWDED_IP_ACCOUNTS,
      },
    ],
    'network',
  );
}

function anonymised(ctx: SignalContext): boolean {
  return ctx.ipLists.has('tor') || ctx.ipLists.has('vpn') || ctx.ipLists.has('proxy') || onRelay(ctx);
}

/** The travel speed (km/h) from the previous session, when the rule applies; undefined when it cannot. */
export function travelSpeed(ctx: SignalContext): { km: number; kmh: number } | undefined {
  const prev = ctx.history.previous;
  const { latitude, longitude } = ctx.session.location;
  if (!prev || prev.anonymised || anonymised(ctx) || latitude === undefined || longitude === undefined)
    return undefined;
  const km = distanceKm(prev.latitude, prev.longitude, latitude, longitude);
  const accuracyKm = Math.max(prev.accuracyKm, ipLocationAccuracyKm(ctx.session.location));
  if (km <= Math.max(TRAVEL_MIN_DISTANCE_KM, accuracyKm)) return undefined;
  const hours = Math.max((ctx.now.getTime() - prev.time.getTime()) / HOUR_MS, 1 / 60);
  return { km, kmh: km / hours };
}

export function impossibleTravel(ctx: SignalContext): Finding {
  const travel = travelSpeed(ctx);
  if (!travel) return { score: 0, network: [] };
  // Above 900 km/h nobody travels (reference rule): certain. From 600 km/h (a fast airliner)
  // up to 900 the score rises to 0.4: worth weighing, never raised.
  if (travel.kmh > IMPOSSIBLE_TRAVEL_KMH) return { score: 1, network: ['impossible_travel'] };
  return {
    score: round3(
      Math.max(0, (travel.kmh - FAST_TRAVEL_KMH) / (IMPOSSIBLE_TRAVEL_KMH - FAST_TRAVEL_KMH)) * FAST_TRAVEL_MAX,
    ),
    network: [],
  };
}
